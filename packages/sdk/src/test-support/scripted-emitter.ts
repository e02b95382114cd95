/**
 * The event half of a client double: `on` / `off` as the adapters call them, `emit` for the
 * test, and how many listeners are still attached (0 after `dispose()`).
 */

type Listener = (...args: never[]) => void;

/** Listeners by event name. */
export class ScriptedEmitter {
  readonly listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  /** Call every listener of `event` with `args`. */
  emit(event: string, ...args: unknown[]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (...values: unknown[]) => void)(...args);
    }
  }

  /** Listeners attached, all events together. */
  listenerTotal(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}

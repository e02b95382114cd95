/**
 * A minimal typed event emitter: `on` returns its unsubscribe function, a
 * throwing listener does not stop the others.
 */

/** Listener of an event whose payload is `T`. */
export type Listener<T> = (payload: T) => void;

/** Typed emitter over an event map `{name: payload}`. */
export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();
  private readonly onListenerError: (error: unknown) => void;

  constructor(onListenerError: (error: unknown) => void = rethrowAsync) {
    this.onListenerError = onListenerError;
  }

  /** Subscribe; returns the unsubscribe function. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => {
      const current = this.listeners.get(event);
      if (!current) return;
      current.delete(listener as Listener<never>);
      if (current.size === 0) this.listeners.delete(event);
    };
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  /** Number of listeners, for one event or all of them. */
  listenerCount(event?: keyof Events): number {
    if (event !== undefined) return this.listeners.get(event)?.size ?? 0;
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}

/** Report a listener error without breaking the emitter (surfaces as an uncaught error). */
export function rethrowAsync(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

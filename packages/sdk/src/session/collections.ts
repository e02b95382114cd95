/**
 * Collections: named observable state shared by tool handlers and the UI (a
 * cart, a wishlist, search results).
 *
 * Writes to one collection are applied in call order, even when the agent fires
 * tool calls in parallel and an `update` runs an async function: each collection
 * has its own write queue. A write on an idle collection applies synchronously.
 */
import { rethrowAsync } from './emitter.js';

/** Called after a collection's value changed. */
export type CollectionListener<T> = (value: T | undefined, previous: T | undefined) => void;

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** One named, observable value with ordered writes. */
export class Collection<T = unknown> {
  readonly name: string;
  private value: T | undefined;
  private readonly listeners = new Set<CollectionListener<T>>();
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private readonly onChange: (name: string, value: unknown) => void;
  private readonly onListenerError: (error: unknown) => void;

  /** @internal Use {@link CollectionStore.get}. */
  constructor(
    name: string,
    initial: T | undefined,
    onChange: (name: string, value: unknown) => void = () => {},
    onListenerError: (error: unknown) => void = rethrowAsync,
  ) {
    this.name = name;
    this.value = initial;
    this.onChange = onChange;
    this.onListenerError = onListenerError;
  }

  /** The current value (stable between writes, usable with `useSyncExternalStore`). */
  get(): T | undefined {
    return this.value;
  }

  /** Writes queued or running (0 when idle). */
  get pendingWrites(): number {
    return this.pending;
  }

  /** Replace the value, after the writes queued before it. Resolves with the value. */
  set(value: T): Promise<T> {
    return this.enqueue(() => this.commit(value));
  }

  /**
   * Compute the next value from the current one, after the writes queued before
   * it; `fn` may be async and no other write to this collection runs meanwhile.
   * A throwing `fn` leaves the value unchanged and rejects.
   */
  update(fn: (current: T | undefined) => T | PromiseLike<T>): Promise<T> {
    return this.enqueue(() => {
      const next = fn(this.value);
      if (isPromiseLike<T>(next)) return Promise.resolve(next).then((v) => this.commit(v));
      return this.commit(next);
    });
  }

  /** Subscribe to changes; returns the unsubscribe function. */
  subscribe(listener: CollectionListener<T>): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Number of subscribers. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  private commit(next: T): T {
    const previous = this.value;
    if (Object.is(previous, next)) return next;
    this.value = next;
    for (const listener of [...this.listeners]) {
      try {
        listener(next, previous);
      } catch (err) {
        this.onListenerError(err);
      }
    }
    this.onChange(this.name, next);
    return next;
  }

  private enqueue(op: () => T | Promise<T>): Promise<T> {
    if (this.pending === 0) {
      // Idle: run now, so a synchronous write is visible immediately.
      let result: T | Promise<T>;
      try {
        result = op();
      } catch (err) {
        return Promise.reject(err);
      }
      if (!isPromiseLike<T>(result)) return Promise.resolve(result);
      return this.track(result);
    }
    return this.track(this.tail.then(op));
  }

  private track(run: Promise<T>): Promise<T> {
    this.pending++;
    const done = run.finally(() => {
      this.pending--;
    });
    this.tail = done.then(noop, noop);
    return done;
  }
}

function noop(): void {}

/** Called after any collection of a store changed. */
export type CollectionStoreListener = (name: string, value: unknown) => void;

/** The named collections of a session (created on first use). */
export class CollectionStore {
  private readonly collections = new Map<string, Collection<unknown>>();
  private readonly listeners = new Set<CollectionStoreListener>();
  private readonly onListenerError: (error: unknown) => void;

  constructor(
    initial: Readonly<Record<string, unknown>> = {},
    onListenerError: (error: unknown) => void = rethrowAsync,
  ) {
    this.onListenerError = onListenerError;
    for (const [name, value] of Object.entries(initial)) this.create(name, value);
  }

  /** The collection called `name`, created empty if it does not exist. */
  get<T = unknown>(name: string): Collection<T> {
    return (this.collections.get(name) ?? this.create(name, undefined)) as Collection<T>;
  }

  has(name: string): boolean {
    return this.collections.has(name);
  }

  names(): string[] {
    return [...this.collections.keys()];
  }

  /** Current values by name. */
  snapshot(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, collection] of this.collections) out[name] = collection.get();
    return out;
  }

  /** Subscribe to changes of every collection; returns the unsubscribe function. */
  subscribe(listener: CollectionStoreListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private create(name: string, value: unknown): Collection<unknown> {
    const collection = new Collection<unknown>(
      name,
      value,
      (changed, next) => {
        for (const listener of [...this.listeners]) {
          try {
            listener(changed, next);
          } catch (err) {
            this.onListenerError(err);
          }
        }
      },
      this.onListenerError,
    );
    this.collections.set(name, collection);
    return collection;
  }
}

/**
 * A session's serial work queue: state-changing control messages (and the messages that must
 * be ordered with them) run one at a time, in arrival order, each to its end before the next
 * starts. Between two items the queue yields to the event loop, so one session's burst never
 * holds up the other sessions of the process for longer than a single item.
 */

/** Options of {@link SerialQueue}. */
export interface SerialQueueOptions {
  /**
   * Called before each item: resolves once the item may run (e.g. when the connection's unsent
   * output has drained), or returns undefined to run at once.
   */
  ready?: () => Promise<void> | undefined;
  /** Told whenever the number of waiting items changes. */
  onLength?: (length: number) => void;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs async work items one after the other, in the order they were added. */
export class SerialQueue {
  readonly #items: { work: () => Promise<void>; done: () => void }[] = [];
  readonly #options: SerialQueueOptions;
  #running = false;
  #stopped = false;

  constructor(options: SerialQueueOptions = {}) {
    this.#options = options;
  }

  /** Items waiting or running. */
  get length(): number {
    return this.#items.length + (this.#running ? 1 : 0);
  }

  /**
   * Add `work`; the promise settles once it has run (or was dropped by {@link stop}). It never
   * rejects: `work` handles its own errors.
   */
  add(work: () => Promise<void>): Promise<void> {
    return new Promise<void>((done) => {
      if (this.#stopped) {
        done();
        return;
      }
      this.#items.push({ work, done });
      this.#options.onLength?.(this.length);
      if (!this.#running) void this.#run();
    });
  }

  /** Drop every waiting item (the running one finishes). */
  stop(): void {
    this.#stopped = true;
    for (const item of this.#items.splice(0)) item.done();
  }

  async #run(): Promise<void> {
    this.#running = true;
    try {
      let first = true;
      while (this.#items.length > 0) {
        // The first item of an idle queue starts at once; later ones wait their turn.
        if (!first) await nextTurn();
        first = false;
        const gate = this.#options.ready?.();
        if (gate) await gate;
        const item = this.#items.shift();
        if (!item) break;
        try {
          await item.work();
        } catch {
          // work reports its own failures
        } finally {
          item.done();
          this.#options.onLength?.(this.#items.length);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

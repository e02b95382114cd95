/**
 * Recognizer processes started before a session needs one. Loading
 * PocketSphinx's models takes about half a second of CPU; sessions that start
 * together would otherwise load theirs all at once while their audio waits.
 * The pool keeps up to `size` started processes; a session takes one (a
 * loaded one first, else the one that has loaded longest) and owns it to the
 * end: a process serves one session and is never given back.
 *
 * The pool fills only once a session has taken a recognizer (a server whose
 * sessions send no audio starts none), refills in the background one process
 * at a time, and kills the processes it holds after `idleMs` without a taker
 * and on `close()`. Waiting processes do not keep Node's event loop alive and
 * end by themselves if this process exits.
 */
import type { RecognizerProcess } from './pocketsphinx-process.js';

/** Options of a {@link RecognizerPool}. */
export interface RecognizerPoolOptions {
  /** Processes kept started and waiting (0: none; every session starts its own). */
  size: number;
  /** Kill the waiting processes after this long without a session taking one (ms). */
  idleMs: number;
  /** Start one process. */
  start: () => RecognizerProcess;
}

/** A bounded set of started recognizers, each handed to one session. */
export class RecognizerPool {
  readonly #options: RecognizerPoolOptions;
  /** Waiting processes, oldest first. */
  readonly #spares: RecognizerProcess[] = [];
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: RecognizerPoolOptions) {
    this.#options = options;
  }

  /** Processes waiting for a session. */
  get waiting(): number {
    return this.#spares.length;
  }

  /** A process for one session: a waiting one when there is one, else a new one. */
  take(): RecognizerProcess {
    for (const spare of this.#spares.filter((p) => !p.running)) this.#forget(spare);
    const index = this.#spares.findIndex((p) => p.ready);
    const [taken] = this.#spares.splice(index >= 0 ? index : 0, 1);
    const process = taken ?? this.#options.start();
    process.hold(true);
    if (!this.#closed && this.#options.size > 0) {
      this.#refill();
      this.#armIdle();
    }
    return process;
  }

  /** Kill the waiting processes; later takes start their own. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    await this.#drain();
  }

  /** Start the next spare once the newest has loaded, until `size` wait. */
  #refill(): void {
    if (this.#closed || this.#spares.length >= this.#options.size) return;
    if (this.#spares.some((p) => !p.ready && p.running)) return; // one loads at a time
    const spare = this.#options.start();
    spare.hold(false);
    this.#spares.push(spare);
    spare.listen({
      stdout: () => {},
      stderr: () => {
        if (spare.ready) this.#refill();
      },
      error: () => spare.kill(),
    });
    // Died while waiting: forgotten; the next take starts another (no restart loop when the
    // recognizer cannot run).
    void spare.exited.then(() => this.#forget(spare));
  }

  #forget(spare: RecognizerProcess): void {
    const at = this.#spares.indexOf(spare);
    if (at >= 0) this.#spares.splice(at, 1);
  }

  #armIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(() => void this.#drain(), this.#options.idleMs);
    this.#idleTimer.unref();
  }

  async #drain(): Promise<void> {
    const spares = this.#spares.splice(0);
    for (const spare of spares) spare.kill();
    await Promise.all(spares.map((spare) => spare.exited));
  }
}

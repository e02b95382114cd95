/**
 * When a recognizer has gone quiet: printed nothing and wanted no core for a
 * while (neither ran nor waited to run). A session's finals that the
 * recognizer never reaches are given as they are once it has been quiet for
 * `timeoutMs` since they were asked for.
 *
 * One timer serves all the finals of a session. Output costs a timestamp; the
 * process's activity (a read of `/proc`) is read once when the timer starts
 * and once each time it expires, however many lines the recognizer prints and
 * however many finals wait. When the timer expires, the recognizer counts as
 * quiet since its last output, or since this expiry if it is active: its CPU
 * time grew (still decoding) or it is runnable now (waiting for a core on a busy
 * machine, where it may gain no CPU time for a while); the finals due by
 * then are handed to `due`, which says when the next one is due. When it both
 * printed and was active since the last read, one read cannot tell which came
 * last: nothing is given, and the timer looks again a short window later.
 */

/** The recognizer a {@link QuietWatch} watches. */
export interface QuietSource {
  /**
   * Its CPU time so far and whether it wants a core now (runnable: running or waiting for one,
   * not waiting for input); undefined when unknown.
   */
  activity(): { cpu: number; runnable: boolean } | undefined;
}

/**
 * Called when the timer expires with the time (`performance.now()`) the
 * recognizer has been quiet since; gives the finals due and returns when the
 * next one waiting is due (undefined when none waits).
 */
export type QuietDue = (quietSince: number) => number | undefined;

/** The shortest time between two reads of the activity (ms, capped by the timeout). */
const MIN_READ_WINDOW_MS = 200;

/** One timer telling a session's finals when their recognizer has gone quiet. */
export class QuietWatch {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastOutput = Number.NEGATIVE_INFINITY;
  #quietSince = Number.NEGATIVE_INFINITY;
  /** Its CPU time at the last read. */
  #cpu: number | undefined;
  #readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly source: QuietSource,
    readonly timeoutMs: number,
    private readonly due: QuietDue,
  ) {}

  /** The recognizer printed something. */
  output(): void {
    this.#lastOutput = performance.now();
  }

  /** True while the timer runs. */
  get watching(): boolean {
    return this.#timer !== undefined;
  }

  /**
   * Start the timer if it is not running, for a final due `timeoutMs` after
   * `since` (or after the recognizer's last output, if later).
   */
  watch(since: number): void {
    if (this.#timer) return;
    const now = performance.now();
    this.#cpu = this.source.activity()?.cpu;
    this.#readAt = now;
    this.#quietSince = Math.max(this.#quietSince, this.#lastOutput);
    this.#arm(Math.max(since, this.#quietSince) + this.timeoutMs, now);
  }

  /** Stop the timer (no final waits, or the recognizer is gone). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(at: number, now: number): void {
    const window = Math.min(this.timeoutMs, MIN_READ_WINDOW_MS);
    const delay = Math.max(at - now, window);
    this.#timer = setTimeout(() => this.#expire(), delay);
  }

  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const activity = this.source.activity();
    const printed = this.#lastOutput > this.#readAt;
    const active =
      activity !== undefined &&
      (activity.runnable || (this.#cpu !== undefined && activity.cpu > this.#cpu));
    this.#cpu = activity?.cpu;
    this.#readAt = now;
    if (printed) this.#quietSince = this.#lastOutput;
    else if (active) this.#quietSince = now;
    if (printed && active) {
      // Busy after its last line, or only until it: the next read tells.
      this.#arm(this.#quietSince + this.timeoutMs, now);
      return;
    }
    const next = this.due(this.#quietSince);
    if (next !== undefined) this.#arm(next, now);
  }
}

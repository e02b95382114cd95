/**
 * Real-time pace for the fast clock's steps (the real-time clock of a full-duplex run): a step
 * is never taken before its time, one a timer took late is made up for (up to
 * {@link PACE_CATCH_UP_MS}), and time the timeline stood waiting is not.
 *
 * @module
 */

/** Steps overdue by at most this much are taken at once (timer jitter), ms. */
export const PACE_CATCH_UP_MS = 32;

/** When each step of a timeline at real-time pace is due. */
export class StepPace {
  readonly #stepMs: number;
  /** Wall time (performance.now) the next step is due. */
  #nextDue = 0;
  /** The timeline stood waiting: its next step is due when it goes on. */
  #idle = true;

  constructor(stepMs: number) {
    this.#stepMs = stepMs;
  }

  /** Ms until the next step is due; 0: take it now (and the one after is due a step later). */
  wait(): number {
    const now = performance.now();
    if (this.#idle) {
      this.#idle = false;
      this.#nextDue = Math.max(this.#nextDue, now);
    }
    if (this.#nextDue > now) return Math.max(1, Math.ceil(this.#nextDue - now));
    this.#nextDue = Math.max(this.#nextDue, now - PACE_CATCH_UP_MS) + this.#stepMs;
    return 0;
  }

  /** The timeline stopped (nothing it may send): the time until it goes on is not made up for. */
  stood(): void {
    this.#idle = true;
  }
}

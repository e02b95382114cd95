/**
 * What one session may hold, so that no client can take more than its share of a server's
 * memory and time: the bytes of its conversation context, the turns waiting to run, and the
 * requests not yet answered. Going over a limit refuses that message with an `error-response`
 * naming the limit; the session goes on.
 */

/** Limits of one session. */
export interface SessionLimits {
  /** Largest context (UTF-8 JSON bytes of its messages) a `send-text` may grow it to. */
  maxContextBytes: number;
  /** Most turns waiting or running; a `send-text` that would start one more is refused. */
  maxQueuedTurns: number;
  /**
   * Most requests (`client-message`, `send-text`, other conversation input) taken and not yet
   * answered. The session stops reading the connection at half of this and reads again once
   * a quarter is left, so a client that pipelines is slowed down rather than refused.
   */
  maxPendingRequests: number;
}

/** 1 MiB of context: more than a model's context window holds, and what one reply can carry. */
export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = {
  maxContextBytes: 256 * 1024,
  maxQueuedTurns: 16,
  maxPendingRequests: 128,
};

/** Checks each limit is a positive integer (or Infinity); returns the limits. */
export function checkSessionLimits(limits: SessionLimits): SessionLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (
      typeof value !== 'number' ||
      !(value >= 1) ||
      !(Number.isInteger(value) || value === Infinity)
    ) {
      throw new RangeError(
        `${name} must be a positive integer (or Infinity), got ${String(value)}`,
      );
    }
  }
  return limits;
}

export const limitErrors = {
  pending: (limit: number) =>
    `Too many requests pending on this session (limit ${limit}, maxPendingRequests): ` +
    'wait for answers before sending more.',
  turns: (limit: number) =>
    `send-text refused: ${limit} turns are already waiting or running (maxQueuedTurns); ` +
    'wait for turn-complete before sending more.',
  context: (bytes: number, limit: number) =>
    `send-text refused: the context would hold ${bytes} bytes, over its ${limit}-byte limit ` +
    '(maxContextBytes); send reset or update_system_prompt to start over.',
};

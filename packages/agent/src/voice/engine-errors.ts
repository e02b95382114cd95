/**
 * The errors speech engines throw: a failed call (with the HTTP status and
 * error code when an endpoint answered one) and an engine that is not
 * installed on this machine.
 */

/** Details of a {@link SpeechEngineError}. */
export interface SpeechEngineErrorDetails {
  /** Which engine failed, e.g. `openai-tts`, `pocketsphinx`. */
  engine: string;
  /** HTTP status of the failed call, when there was one. */
  status?: number;
  /** The endpoint's error code or type, when it gave one. */
  code?: string;
  /** True when trying again may succeed (rate limits, server errors, lost connections). */
  retryable?: boolean;
  cause?: unknown;
}

/** A speech engine call that failed. */
export class SpeechEngineError extends Error {
  override readonly name: string = 'SpeechEngineError';
  readonly engine: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly retryable: boolean;

  constructor(message: string, details: SpeechEngineErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.engine = details.engine;
    this.status = details.status;
    this.code = details.code;
    this.retryable = details.retryable ?? false;
  }
}

/** An engine that cannot run here (not installed); the message says what to install. */
export class SpeechEngineUnavailableError extends SpeechEngineError {
  override readonly name = 'SpeechEngineUnavailableError';
}

/** The error to throw when `signal` aborted: its reason when that is an Error, else an `AbortError`. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error('aborted', { cause: reason });
  error.name = 'AbortError';
  return error;
}

/**
 * Composer dictation: the browser asks the agent to start, end or cancel a
 * dictation (push-to-talk) through the agent's `composer_*_dictation` methods.
 *
 * Each call waits exactly its `RPC_METHODS` timeout (10 s / 15 s / 8 s). Every
 * timeout — no ack (1501), no response (1502), or the SDK's own deadline — is
 * thrown as a {@link DictationTimeoutError} (an `RpcError`, keeping the code);
 * other transport failures are thrown as `RpcError`; aborting the caller's
 * signal rejects with the signal's reason.
 */
import { RPC_METHODS, parseComposerDictationResponse } from '../protocol/index.js';
import type {
  ComposerDictationRequest,
  ComposerDictationStatus,
  RpcMethodSpec,
} from '../protocol/index.js';
import { abortReason, onAbort } from '../rpc/abort.js';
import { RpcError, isTimeoutCode } from '../rpc/errors.js';
import { defaultClock, defaultTimers } from '../rpc/timers.js';
import type { Clock, Timers } from '../rpc/timers.js';
import type { RpcTransport } from '../rpc/transport.js';

/** The three dictation calls. */
export type DictationAction = 'start' | 'end' | 'cancel';

/** A dictation call timed out. `code` is 1501 (no ack) or 1502 (no response). */
export class DictationTimeoutError extends RpcError {
  override readonly name = 'DictationTimeoutError';
  readonly action: DictationAction;
  readonly timeoutMs: number;

  constructor(
    action: DictationAction,
    timeoutMs: number,
    code = 1502,
    options?: { cause?: unknown },
  ) {
    super(code, `composer ${action} dictation timed out after ${timeoutMs} ms`, undefined, options);
    this.action = action;
    this.timeoutMs = timeoutMs;
  }
}

/** What a successful dictation call resolves with. */
export interface DictationResult {
  dictationId: string;
  status: ComposerDictationStatus;
  /** The dictated text, when the agent returns it (usually on end). */
  transcript?: string;
  data?: unknown;
}

/** Options of a dictation call. */
export interface DictationCallOptions {
  signal?: AbortSignal;
}

/** Options of a {@link ComposerDictation}. */
export interface ComposerDictationOptions {
  transport: RpcTransport;
  /** The agent to call, resolved at call time. */
  agentIdentity: () => string | undefined;
  timers?: Timers;
  clock?: Clock;
}

const SPECS: Record<DictationAction, RpcMethodSpec> = {
  start: RPC_METHODS.COMPOSER_START_DICTATION,
  end: RPC_METHODS.COMPOSER_END_DICTATION,
  cancel: RPC_METHODS.COMPOSER_CANCEL_DICTATION,
};
const STATUS: Record<DictationAction, ComposerDictationStatus> = {
  start: 'started',
  end: 'ended',
  cancel: 'cancelled',
};

let fallbackSequence = 0;
function newDictationId(): string {
  const cryptoLike = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  return cryptoLike?.randomUUID?.() ?? `dictation-${Date.now()}-${++fallbackSequence}`;
}

/** Calls the agent's composer dictation methods. */
export class ComposerDictation {
  private readonly transport: RpcTransport;
  private readonly agentIdentity: () => string | undefined;
  private readonly timers: Timers;
  private readonly clock: Clock;
  private current: string | undefined;

  constructor(options: ComposerDictationOptions) {
    this.transport = options.transport;
    this.agentIdentity = options.agentIdentity;
    this.timers = options.timers ?? defaultTimers;
    this.clock = options.clock ?? defaultClock;
  }

  /** Id of the dictation started and not yet ended or cancelled. */
  get currentDictationId(): string | undefined {
    return this.current;
  }

  /** `composer_start_dictation` (10 s). Starts a new dictation id. */
  startDictation(options: DictationCallOptions = {}): Promise<DictationResult> {
    this.current = newDictationId();
    return this.call('start', this.current, options);
  }

  /** `composer_end_dictation` (15 s): the agent finishes the turn, usually with a transcript. */
  endDictation(options: DictationCallOptions = {}): Promise<DictationResult> {
    const id = this.current ?? newDictationId();
    this.current = undefined;
    return this.call('end', id, options);
  }

  /** `composer_cancel_dictation` (8 s): the agent drops the turn. */
  cancelDictation(options: DictationCallOptions = {}): Promise<DictationResult> {
    const id = this.current ?? newDictationId();
    this.current = undefined;
    return this.call('cancel', id, options);
  }

  private async call(
    action: DictationAction,
    dictationId: string,
    options: DictationCallOptions,
  ): Promise<DictationResult> {
    const spec = SPECS[action];
    const destinationIdentity = this.agentIdentity();
    if (!destinationIdentity) {
      throw RpcError.builtIn('RECIPIENT_NOT_FOUND', 'no agent identity is known yet');
    }
    const request: ComposerDictationRequest = { dictationId, sentAt: this.clock() };
    const controller = new AbortController();
    let timedOut = false;
    const timer = this.timers.setTimeout(() => {
      timedOut = true;
      controller.abort(new DictationTimeoutError(action, spec.timeoutMs));
    }, spec.timeoutMs);
    const detach = onAbort(options.signal, () => {
      if (options.signal) controller.abort(abortReason(options.signal));
    });
    let payload: string;
    try {
      payload = await this.transport.performRpc({
        destinationIdentity,
        method: spec.method,
        payload: JSON.stringify(request),
        responseTimeoutMs: spec.timeoutMs,
        signal: controller.signal,
      });
    } catch (err) {
      if (timedOut) throw new DictationTimeoutError(action, spec.timeoutMs, 1502, { cause: err });
      if (RpcError.isInstance(err) && isTimeoutCode(err.code)) {
        throw new DictationTimeoutError(action, spec.timeoutMs, err.code, { cause: err });
      }
      throw err;
    } finally {
      this.timers.clearTimeout(timer);
      detach();
    }
    const parsed = parseComposerDictationResponse(payload);
    if (!parsed.ok) {
      throw RpcError.builtIn(
        'APPLICATION_ERROR',
        `invalid ${spec.method} answer: ${parsed.message}`,
      );
    }
    const result: DictationResult = {
      dictationId: parsed.value.dictationId ?? dictationId,
      status: parsed.value.status ?? STATUS[action],
    };
    if (parsed.value.transcript !== undefined) result.transcript = parsed.value.transcript;
    if (parsed.value.data !== undefined) result.data = parsed.value.data;
    return result;
  }
}

/**
 * What a real Pipecat client received, in order and with arrival times: every inbound RTVI
 * message as the transport hands it to client-js (including types client-js has no callback
 * for, such as `bot-interrupted`), and every client-js callback that fired.
 */
import type { RtviInboundMessage } from '../rtvi/rtvi-message-tap.js';

/** One inbound RTVI message (label `rtvi-ai`). */
export interface RtviArrival {
  /** Arrival, in ms on the client's clock. */
  at: number;
  type: string;
  id?: string;
  data: unknown;
}

/** One client-js callback. */
export interface CallbackArrival {
  at: number;
  /** The callback's name, e.g. `onUserTranscript`. */
  name: string;
  data: unknown;
}

/** Options of {@link PipecatEventLog.waitFor}. */
export interface WaitForOptions {
  /** Only messages at this index of `messages` or later. @default 0 */
  from?: number;
  /** Only messages this accepts. */
  match?: (message: RtviArrival) => boolean;
  /** @default 5000 */
  timeoutMs?: number;
}

/** Every RTVI callback client-js 1.13 fires for a server event. */
export const RTVI_CALLBACK_NAMES = [
  'onBotReady',
  'onUserStartedSpeaking',
  'onUserStoppedSpeaking',
  'onUserMuteStarted',
  'onUserMuteStopped',
  'onUserTranscript',
  'onUserLlmText',
  'onBotStartedSpeaking',
  'onBotStoppedSpeaking',
  'onBotLlmStarted',
  'onBotLlmText',
  'onBotLlmStopped',
  'onBotTtsStarted',
  'onBotTtsText',
  'onBotTtsStopped',
  'onBotOutput',
  'onBotTranscript',
  'onMetrics',
  'onServerMessage',
  'onError',
  'onMessageError',
  'onLLMFunctionCallStarted',
  'onLLMFunctionCallInProgress',
  'onLLMFunctionCallStopped',
  'onBotLlmSearchResponse',
] as const;

/** The log; `connectPipecatClient` fills it. */
export class PipecatEventLog {
  /** Inbound RTVI messages, in arrival order. */
  readonly messages: RtviArrival[] = [];
  /** client-js callbacks, in the order they fired. */
  readonly timeline: CallbackArrival[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(readonly now: () => number) {}

  /** Record an inbound message. */
  message(message: RtviInboundMessage): void {
    const arrival: RtviArrival = { at: this.now(), type: message.type, data: message.data };
    if (message.id !== undefined) arrival.id = message.id;
    this.messages.push(arrival);
    for (const wake of [...this.waiters]) wake();
  }

  /** Record a callback. */
  callback(name: string, data: unknown): void {
    this.timeline.push({ at: this.now(), name, data });
  }

  /** Types of the messages from index `from` on. */
  types(from = 0): string[] {
    return this.messages.slice(from).map((m) => m.type);
  }

  /** Resolve with the first message of `type` (at index `from` or later), or reject on timeout. */
  waitFor(type: string, options: WaitForOptions = {}): Promise<RtviArrival> {
    const { from = 0, match, timeoutMs = 5000 } = options;
    const find = (): RtviArrival | undefined =>
      this.messages.slice(from).find((m) => m.type === type && (match?.(m) ?? true));
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = find();
        if (!found) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for RTVI "${type}"`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

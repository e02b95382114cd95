/**
 * A bot's event stream as the bridge reads it: each inbound RTVI envelope that matters becomes
 * one typed {@link BotEvent}, found by a lookup on the envelope type (and, for `server-message`,
 * on the pushed message's own `type`).
 */
import type { JsonObject } from '@scenaro/agent/scenario';
import type { ActionRecord, RTVIMessage } from '@scenaro/sdk/protocol';
import type { BotRole, BotTurn } from './types.js';
import { isJsonObject } from '@scenaro/sdk/util';

/** Token counts of one LLM call, as a `metrics` event reports them. */
export interface TokenMetric {
  model?: string;
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

/** Time to first byte of one processor (STT, LLM, TTS), as a `metrics` event reports it. */
export interface TtfbMetric {
  processor: string;
  /** Seconds. */
  value: number;
}

/** What a bot did, as the bridge cares about it. */
export type BotEvent =
  /** `metrics` with token counts (one LLM call each) and times to first byte. */
  | { kind: 'metrics'; tokens: TokenMetric[]; ttfb: TtfbMetric[] }
  /** `bot-llm-text`: a piece of the turn's text ('' when none was given). */
  | { kind: 'llm-text'; text: string }
  | { kind: 'llm-started' }
  | { kind: 'llm-stopped' }
  /** `llm-function-call-in-progress`. */
  | { kind: 'function-call-started' }
  | { kind: 'function-call-stopped' }
  /** `server-message {type: "action-applied"}`: a write tool ran. */
  | { kind: 'action-applied'; action: ActionRecord }
  /** `server-message {type: "turn-complete"}`: the bot finished its turn. */
  | { kind: 'turn-complete'; turn: BotTurn }
  /** Any other `server-message` with a `text` (`<exit>`, `<final_response>` pushes). */
  | { kind: 'text-push'; text: string }
  /** `bot-started-speaking` / `bot-stopped-speaking`: the bot's audio output began or ended. */
  | { kind: 'started-speaking' }
  | { kind: 'stopped-speaking' }
  /** `bot-tts-started` / `bot-tts-stopped`: a spoken reply is being synthesized. */
  | { kind: 'tts-started' }
  | { kind: 'tts-stopped' }
  /** `bot-tts-text`: a piece of the spoken text (pieces join with ''). */
  | { kind: 'tts-text'; text: string }
  /** `user-transcription`: what the bot heard. */
  | { kind: 'heard'; text: string; final: boolean }
  /** `user-started-speaking` / `user-stopped-speaking`: the bot's VAD heard speech begin or end. */
  | { kind: 'hearing-started' }
  | { kind: 'hearing-stopped' }
  /** `bot-interrupted`: the bot stopped its turn and its speech (it heard the other speak). */
  | { kind: 'interrupted' }
  /** `server-message {type: "audio-heard"}`: how much of its input the bot has heard, settled. */
  | {
      kind: 'heard-through';
      samples: number;
      sampleRate: number;
      /** The bot hears speech there. */
      speaking: boolean;
      /** The bot took a turn and waits for its reply to start. */
      waiting: boolean;
      /** Waiting: where the bot holds its reports until the reply starts (samples at `sampleRate`). */
      turnAt?: number;
      /** Where the latest ended utterance holds the reports (samples at `sampleRate`). */
      settleAt?: number;
    };

/** What a bot reports it has heard (`audio-heard`), as the lockstep takes it. */
export type HeardReport = Omit<Extract<BotEvent, { kind: 'heard-through' }>, 'kind'>;

/** The handler of each event kind a consumer cares about. */
export type BotEventHandlers = {
  [K in BotEvent['kind']]?: (role: BotRole, event: Extract<BotEvent, { kind: K }>) => void;
};

/** Call the handler of `event`'s kind, if there is one. */
export function dispatchBotEvent(handlers: BotEventHandlers, role: BotRole, event: BotEvent): void {
  const handler = handlers[event.kind] as ((role: BotRole, event: BotEvent) => void) | undefined;
  handler?.(role, event);
}

/** `handlers`, each calling `note` first (a consumer that watches for any sign of life). */
export function eachNoting(note: () => void, handlers: BotEventHandlers): BotEventHandlers {
  const noting: Record<string, (...args: never[]) => void> = {};
  for (const [kind, handler] of Object.entries(handlers) as [string, (...a: never[]) => void][])
    noting[kind] = (...args) => {
      note();
      handler(...args);
    };
  return noting as BotEventHandlers;
}

/** A pushed action record: any object (the bot server builds it; its fields are taken as sent). */
function isActionRecord(value: unknown): value is ActionRecord {
  return isJsonObject(value);
}

/** The `text` of an event's data ('' when none was given). */
function textOf(data: unknown): string {
  const text = (data as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '';
}

/** Pushed `server-message`s by their `type`. */
const SERVER_MESSAGES = new Map<string, (data: JsonObject) => BotEvent | undefined>([
  [
    'action-applied',
    (data) =>
      isActionRecord(data['action'])
        ? { kind: 'action-applied', action: data['action'] }
        : undefined,
  ],
  [
    'turn-complete',
    (data) => {
      const turn: BotTurn = {
        text: typeof data['text'] === 'string' ? data['text'] : '',
        interrupted: data['interrupted'] === true,
      };
      if (typeof data['exit'] === 'string') turn.exit = data['exit'];
      return { kind: 'turn-complete', turn };
    },
  ],
  [
    'audio-heard',
    (data) => {
      const samples = data['samples'];
      const rate = data['sample_rate'];
      if (typeof samples !== 'number' || !Number.isFinite(samples)) return undefined;
      return {
        kind: 'heard-through',
        samples,
        sampleRate: typeof rate === 'number' && rate > 0 ? rate : 16_000,
        speaking: data['speaking'] === true,
        waiting: data['waiting'] === true,
        ...(typeof data['turn_at'] === 'number' && Number.isFinite(data['turn_at'])
          ? { turnAt: data['turn_at'] }
          : {}),
        ...(typeof data['settle_at'] === 'number' && Number.isFinite(data['settle_at'])
          ? { settleAt: data['settle_at'] }
          : {}),
      };
    },
  ],
]);

function serverMessage(data: unknown): BotEvent | undefined {
  if (!isJsonObject(data)) return undefined;
  const type = data['type'];
  const event = typeof type === 'string' ? SERVER_MESSAGES.get(type)?.(data) : undefined;
  if (event) return event;
  return typeof data['text'] === 'string' ? { kind: 'text-push', text: data['text'] } : undefined;
}

/** RTVI envelopes by their `type`. */
const RTVI_EVENTS = new Map<string, (data: unknown) => BotEvent | undefined>([
  [
    'metrics',
    (data) => {
      const { tokens, ttfb } = (data ?? {}) as { tokens?: unknown; ttfb?: unknown };
      return {
        kind: 'metrics',
        tokens: Array.isArray(tokens) ? (tokens as TokenMetric[]) : [],
        ttfb: Array.isArray(ttfb)
          ? (ttfb as TtfbMetric[]).filter(
              (t) =>
                isJsonObject(t) && typeof t.processor === 'string' && typeof t.value === 'number',
            )
          : [],
      };
    },
  ],
  ['bot-started-speaking', () => ({ kind: 'started-speaking' })],
  ['bot-stopped-speaking', () => ({ kind: 'stopped-speaking' })],
  ['bot-tts-started', () => ({ kind: 'tts-started' })],
  ['bot-tts-stopped', () => ({ kind: 'tts-stopped' })],
  ['bot-tts-text', (data) => ({ kind: 'tts-text', text: textOf(data) })],
  [
    'user-transcription',
    (data) => ({
      kind: 'heard',
      text: textOf(data),
      final: (data as { final?: unknown } | undefined)?.final !== false,
    }),
  ],
  ['user-started-speaking', () => ({ kind: 'hearing-started' })],
  ['user-stopped-speaking', () => ({ kind: 'hearing-stopped' })],
  ['bot-interrupted', () => ({ kind: 'interrupted' })],
  ['bot-llm-text', (data) => ({ kind: 'llm-text', text: textOf(data) })],
  ['bot-llm-started', () => ({ kind: 'llm-started' })],
  ['bot-llm-stopped', () => ({ kind: 'llm-stopped' })],
  ['llm-function-call-in-progress', () => ({ kind: 'function-call-started' })],
  ['llm-function-call-stopped', () => ({ kind: 'function-call-stopped' })],
  ['server-message', serverMessage],
]);

/** The event an inbound envelope carries, or undefined when the bridge has no use for it. */
export function parseBotEvent(message: RTVIMessage): BotEvent | undefined {
  return RTVI_EVENTS.get(message.type)?.(message.data);
}

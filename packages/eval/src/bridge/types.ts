/**
 * What one bridged scenario produces: the raw material scoring and result files
 * are made from.
 */
import type { GetScenarioSummaryResult } from '@scenaro/sdk/protocol';
import type { CallerLineEvent } from './caller-events.js';

/** Which bot: the agent under test or the user simulator. */
export type BotRole = 'agent' | 'user';

/** What one bot said in one finished turn, as it reported it (or as the bridge inferred it). */
export interface BotTurn {
  text: string;
  /** The `<exit>` text the turn ended the conversation with (agent). */
  exit?: string;
  /** The bot was interrupted (or went away) before finishing. */
  interrupted: boolean;
  /**
   * Where the turn lies on the conversation's timeline, when the relay measures it (audio mode:
   * the turn's audio as relayed).
   */
  timing?: TurnTiming;
  /** The relay ends the conversation with this turn (or, without `timing`, before it). */
  stopReason?: StopReason;
}

/** A turn's place on the conversation's timeline. */
export interface TurnTiming {
  /** Seconds since the conversation started. */
  start: number;
  end: number;
  /** Agent turns: milliseconds from the end of the user's speech to the agent's first audio. */
  latencyMs?: number;
}

/**
 * Order of things that lie on the timeline, as they began; two that began together: the
 * agent's first.
 */
export function byStart(a: { start: number; role: BotRole }, b: { start: number; role: BotRole }) {
  return a.start - b.start || (a.role === b.role ? 0 : a.role === 'agent' ? -1 : 1);
}

/** One finished turn of the conversation, as recorded. */
export interface Turn {
  /** Seconds since the conversation started. */
  start: number;
  end: number;
  role: BotRole;
  text: string;
  /** Milliseconds from relaying the other side's turn to this turn's first text. */
  latencyMs?: number;
  interrupted?: boolean;
}

/** Token usage per side, as the reference counts it (one call per `metrics` event with tokens). */
export interface SideTokenUsage {
  n_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Models seen, e.g. `scripted:reference-agent`. */
  models: string[];
}

/** Why a conversation stopped. */
export type StopReason =
  | '[EXIT]'
  | '[USER_STOP]'
  | '[MAX_TURNS]'
  | '[TIMEOUT]'
  | '[ERROR]'
  /** Audio mode: the bot whose turn it was did not start speaking in time. */
  | '[NO_RESPONSE]'
  /** Audio mode: a bot spoke longer than a turn may last. */
  | '[TURN_TOO_LONG]';

/** A failure of the scenario's machinery (not of the agent under test). */
export interface BridgeFailure {
  phase: 'connect' | 'setup' | 'conversation' | 'pull';
  message: string;
  /** True when retrying could help (connection refused, bot crashed); false for a broken scenario. */
  infrastructure: boolean;
}

/** Everything the bridge collected for one scenario. */
export interface ScenarioRun {
  scenario: string;
  domain: string;
  startedAt: string;
  durationSeconds: number;
  stopReason: StopReason;
  /** The stop token the user sent, for `[USER_STOP]`. */
  stopToken?: string;
  turns: Turn[];
  agentSummary?: GetScenarioSummaryResult;
  userSummary?: GetScenarioSummaryResult;
  /** Context histories as returned (a JSON string of messages, or a Python repr string). */
  agentContext?: unknown;
  userContext?: unknown;
  /** Parsed `<final_response>` pushes from the agent. */
  finalResponses: unknown[];
  tokenUsage: { agent: SideTokenUsage; user: SideTokenUsage };
  /** Response latencies of agent turns, in ms. */
  latencies: number[];
  /** Errors reported by `apply_sync_delta`, and shadow-state failures. */
  syncErrors: string[];
  /** Frames in both directions, one line each. */
  bridgeLog: string[];
  failure?: BridgeFailure;
  /** Audio mode: the relayed audio, its segments and the bots' timing metrics. */
  audio?: AudioRecord;
}

/** One bot's speech as relayed: a `bot-started-speaking` ... `bot-stopped-speaking` segment. */
export interface SpeechSegment {
  role: BotRole;
  /** Seconds on the conversation's timeline (its audio as relayed). */
  start: number;
  end: number;
  /** What the bot said (its `bot-tts-text`). */
  said: string;
  /** What the other bot heard of it (its final `user-transcription`s). */
  heard: string;
  /** Agent segments: ms from the end of the user's previous segment (negative: barge-in). */
  latencyMs?: number;
  /** Spoken with no text (cut off before a sentence finished). */
  interrupted?: boolean;
}

/** What an audio-mode scenario recorded. */
export interface AudioRecord {
  clock: 'realtime' | 'fast';
  /** Sample rate of the relayed streams. */
  sampleRate: number;
  /** Mono PCM16 chunks relayed user -> agent and agent -> user, on one timeline (same length). */
  userToAgent: Uint8Array[];
  agentToUser: Uint8Array[];
  segments: SpeechSegment[];
  /** Times to first byte from the bots' `metrics`, seconds, by side and processor. */
  ttfb: Record<BotRole, Record<string, number[]>>;
  /** Full duplex: the caller's line events (effects and behaviours), in order of their end. */
  callerEvents?: CallerLineEvent[];
  /** Full duplex: when the agent started tool calls, seconds. */
  toolCalls?: number[];
}

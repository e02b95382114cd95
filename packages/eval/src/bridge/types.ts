/**
 * What one bridged scenario produces: the raw material scoring and result files
 * are made from.
 */
import type { GetScenarioSummaryResult } from '@scenaro/sdk/protocol';

/** Which bot: the agent under test or the user simulator. */
export type BotRole = 'agent' | 'user';

/** What one bot said in one finished turn, as it reported it (or as the bridge inferred it). */
export interface BotTurn {
  text: string;
  /** The `<exit>` text the turn ended the conversation with (agent). */
  exit?: string;
  /** The bot was interrupted (or went away) before finishing. */
  interrupted: boolean;
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
export type StopReason = '[EXIT]' | '[USER_STOP]' | '[MAX_TURNS]' | '[TIMEOUT]' | '[ERROR]';

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
}

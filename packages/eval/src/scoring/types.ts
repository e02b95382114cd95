/**
 * The per-scenario result object written to `metrics.json`, and the shapes it is made of.
 *
 * Base fields follow the NeMo harness (`evaluation.md` A3); scoring fields follow its signals
 * (A5) plus our additions (user-db comparison, db diff, tau2 reward, stall and scripted flags).
 * Signal values use `'N/A'` for "does not apply to this scenario" (the reference writes `"N/A"`
 * for `is_action_match` and leaves other keys out; we always write every key).
 *
 * @module
 */
import type { SpokenEntityKind } from '@scenaro/agent/voice';
import type { DbDiff } from '@scenaro/agent/scenario';
import { SUCCESS_SIGNALS } from '@scenaro/domains';
import type { SuccessSignal } from '@scenaro/domains';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type {
  AudioRecord,
  BotRole,
  BridgeFailure,
  SideTokenUsage,
  StopReason,
} from '../bridge/types.js';
import type { InteractionPanel } from '../interaction/types.js';

/** A signal that does not apply to the scenario. */
export type NotApplicable = 'N/A';

/** The names of the composite-success signals, in the order the reference checks them. */
export const SIGNAL_NAMES = SUCCESS_SIGNALS;
export type SignalName = SuccessSignal;

/** `{count, mean_ms, p50_ms, p95_ms, min_ms, max_ms}`; every value is -1 when there are none. */
export interface LatencyStats {
  count: number;
  mean_ms: number;
  p50_ms: number;
  p95_ms: number;
  min_ms: number;
  max_ms: number;
}

/** One measured agent response latency with the turns around it (a row of `all_latencies.csv`). */
export interface LatencyRecord {
  /** The user text the agent answered (the kick-off text for the first agent turn, when known). */
  user_transcript: string;
  agent_transcript: string;
  latency_ms: number;
}

/** One turn of the conversation, as `metrics.json` stores it. */
export interface MetricsTurn {
  role: 'agent' | 'user';
  text: string;
  /** Seconds since the conversation started. */
  start: number;
  end: number;
  latency_ms?: number;
  interrupted?: boolean;
}

/** Verdict of one db-state assertion (`predicate(db, **arguments) == assert_value`). */
export interface AssertionVerdict {
  func_name: string;
  side: 'agent' | 'user';
  passed: boolean;
  expected: unknown;
  /** What the predicate returned (`null` when it could not run). */
  actual: unknown;
  message: string | null;
  /** Why the predicate could not run (no db pulled, unknown predicate, it threw). */
  error: string | null;
}

/** Verdict of one natural-language assertion, from the judge. */
export interface NlAssertionVerdict {
  /** 1-based position in the scenario's `nlAssertions`. */
  index: number;
  assertion: string;
  passed: boolean;
  reason: string;
}

/**
 * Which whitelisted signals passed, failed or did not apply, and which were computed but not
 * whitelisted. The tau2 scorer lists its reward components (`reward_basis`) instead.
 */
export interface SuccessBreakdown {
  passed: (SignalName | Tau2RewardComponent)[];
  failed: (SignalName | Tau2RewardComponent)[];
  not_applicable: (SignalName | Tau2RewardComponent)[];
  excluded: (SignalName | Tau2RewardComponent)[];
}

/**
 * A structured db diff (tables -> records -> fields, from `computeDbDiff`), or why there is none.
 * `needs_include_db`: the bot's summary carried no `db` (it is only pulled for scenarios with
 * db-state assertions); re-request `get_scenario_summary {include_db: true}` and score again with
 * `actualDb` to get the diff.
 */
export type DbDiffReport =
  | { status: 'computed'; side: 'agent' | 'user'; diff: DbDiff }
  | { status: 'needs_include_db'; side: 'agent' | 'user'; message: string }
  | { status: 'unavailable'; side: 'agent' | 'user'; message: string };

/** The judge's result as stored in metrics (without the prompt it was given). */
export interface JudgeSummary {
  score: number | null;
  reason: string;
  model: string | null;
  /** Set when the judge could not give a verdict (HTTP error, timeout, unparseable answer). */
  error: string | null;
}

/** A component of tau2's reward. */
export type Tau2RewardComponent =
  'DB' | 'ACTION' | 'COMMUNICATE' | 'ENV_ASSERTION' | 'NL_ASSERTION';

/** tau2-style scoring of one scenario. */
export interface Tau2Score {
  /** Product of the `reward_basis` components (`null` when the scenario could not be scored). */
  reward: number | null;
  reward_basis: Tau2RewardComponent[];
  /**
   * Every component that could be computed (basis or diagnostic): 1/0 (partial values for none),
   * `null` when it does not apply or cannot be computed.
   */
  reward_breakdown: Partial<Record<Tau2RewardComponent, number | null>>;
  /** Why the reward is 0 regardless of the components (tau2's termination gate), if it is. */
  termination_gate: string | null;
  /** Per-component notes (e.g. "no judge configured", "no expected db"). */
  notes: Partial<Record<Tau2RewardComponent, string>>;
}

/** Word errors as stored. */
export interface StoredWordErrors {
  wer: number;
  substitutions: number;
  deletions: number;
  insertions: number;
  reference_words: number;
}

/** One segment as stored. */
export interface AudioSegmentMetrics {
  role: BotRole;
  start: number;
  end: number;
  said: string;
  heard: string;
  latency_ms?: number;
  interrupted?: boolean;
  /** Word error rate of what was heard against what was said. */
  wer: number;
}

/** What kind of value was said: an `extractEntities` kind, or a name-like word run. */
export type HeardValueKind = SpokenEntityKind | 'name';

/** A value said and heard as something else. */
export interface MisheardValue {
  kind: HeardValueKind;
  /** The value as said (written form). */
  said: string;
  /** A value of its kind heard in its place, when there was one. */
  heard: string | null;
  /** Index of its segment in `audio.segments`. */
  turn: number;
}

/** Entity accuracy of one side's ear (see `entityAccuracySide`). */
export interface EntityAccuracySide {
  /** Values the other side said. */
  said: number;
  /** Of those, values heard as said. */
  heard_right: number;
  /** `heard_right / said`; null when no value was said. */
  accuracy: number | null;
  misheard: MisheardValue[];
}

/** How a clarification turn clarifies (see `clarificationKind`). */
export type ClarificationKind = 'repeat' | 'spell' | 'confirm' | 'correct';

/** One clarification turn. */
export interface ClarificationTurn {
  /** Index of its segment in `audio.segments`. */
  turn: number;
  role: BotRole;
  kind: ClarificationKind;
  /** Seconds on the conversation's timeline. */
  at: number;
}

/** The clarification turns of a scenario (see `clarificationTurns`). */
export interface Clarifications {
  total: number;
  agent: number;
  user: number;
  turns: ClarificationTurn[];
}

/** `metrics.json` `audio` of one scenario (audio mode; see `audioMetrics`). */
export interface AudioMetrics {
  clock: AudioRecord['clock'];
  /** The stereo recording, beside `metrics.json`. */
  wav: string;
  /** Length of the recording, seconds of audio. */
  audio_seconds: number;
  segments: AudioSegmentMetrics[];
  /** Agent turns with a negative latency. */
  barge_ins: number;
  /** `agent_stt`: what the agent heard of the user; `user_stt`: what the user heard of the agent. */
  wer: { agent_stt: StoredWordErrors; user_stt: StoredWordErrors };
  /** The same after both texts are put in one canonical spoken form (`normalizedWordErrors`). */
  normalized_wer: { agent_stt: StoredWordErrors; user_stt: StoredWordErrors };
  /** `agent_stt`: the values the user said, as the agent heard them; `user_stt`: the reverse. */
  entity_accuracy: { agent_stt: EntityAccuracySide; user_stt: EntityAccuracySide };
  /** Turns asking to repeat, spell or confirm a value, or correcting a read-back. */
  clarifications: Clarifications;
  /** Times to first byte by side and processor, ms. */
  ttfb: Record<BotRole, Record<string, LatencyStats>>;
}

/** The `metrics.json` object of one scenario. */
export interface ScenarioMetrics {
  // ---- base fields (reference) ----
  total_turns: number;
  /** Conversation length in seconds (end of the last turn). */
  duration_seconds: number;
  turns: MetricsTurn[];
  latency_stats: LatencyStats;
  latencies: LatencyRecord[];
  scenario_name: string;
  scenario_directory: string;
  /** Wall-clock seconds of the whole scenario (setup, conversation, pull). */
  scenario_duration: number;
  stop_reason: StopReason;
  token_usage: { agent: SideTokenUsage; user: SideTokenUsage };

  // ---- our base additions ----
  /** Registry domain of the scenario. */
  domain: string;
  /** Trial number when a scenario runs several times (pass^k); 1 otherwise. */
  trial: number;
  /** Write actions recorded by each bot (from `get_scenario_summary`). */
  actions: { agent: ActionRecord[]; user: ActionRecord[] };
  /** Number of gold actions of the scenario. */
  reference_action_count: number;
  /** The bridge failure, when the run broke down. */
  failure: BridgeFailure | null;
  /** Errors of cross-side sync during the run. */
  sync_errors: string[];

  // ---- scoring fields ----
  is_action_match: boolean | NotApplicable;
  /** Agent db: expected hash == the agent bot's `db_hash` (missing hash -> false). */
  db_state_match: boolean | NotApplicable;
  db_state_expected_hash: string | null;
  db_state_actual_hash: string | null;
  /** User db, compared when an expected user db (or hash) exists (the reference never compares it). */
  user_db_state_match: boolean | NotApplicable;
  user_db_state_expected_hash: string | null;
  user_db_state_actual_hash: string | null;
  db_state_assertion_pass_rate: number | NotApplicable;
  db_state_assertion_verdicts: AssertionVerdict[];
  nl_assertion_pass_rate: number | NotApplicable;
  nl_assertion_verdicts: NlAssertionVerdict[];
  judge_score: number | null;
  judge_passed: boolean | NotApplicable;
  judge: JudgeSummary | null;
  clean_exit: boolean;
  is_successful: boolean | NotApplicable;
  success_breakdown: SuccessBreakdown;
  is_task_successful: boolean | NotApplicable;
  /** `token_usage.agent.n_calls < minAgentTurns`: counted as a failure, left out of per-signal rates. */
  stalled: boolean;
  /** Why `is_successful` is `'N/A'`. */
  not_scored_reason?: string;
  /** Why `is_successful` is false when it is not the signals (bridge failure, stall). */
  failure_reason?: string;
  db_diff?: DbDiffReport;
  user_db_diff?: DbDiffReport;
  scorer: 'nemo' | 'tau2';
  tau2?: Tau2Score;
  /** True when every model seen in `token_usage` (both sides) is a `scripted:*` policy. */
  scripted: boolean;
  scripted_sides: { agent: boolean; user: boolean };
  /** Problems of the scoring inputs (e.g. an expected db that disagrees with the expected hash). */
  scoring_warnings: string[];
  /** A failed scenario: where it first left the gold path, and why (see `attributeFailure`). */
  failure_attribution?: FailureAttribution;
  /** Audio mode: what the speech between the bots measured. */
  audio?: AudioMetrics;
  /**
   * Full-duplex audio runs (caller effects or an interruption strategy): the interaction panel,
   * without its list of scored events (`interaction_metrics.json` has them).
   */
  interaction?: InteractionPanel;
  /** Runs with caller effects: the scenario's caller. */
  caller?: CallerSummary;
}

/** `metrics.json` `caller`: who called, under which preset, and what the line did. */
export interface CallerSummary {
  task_id: string;
  /** The speech-complexity preset (a `--caller-effects` file: its `complexity`). */
  complexity: string;
  persona: string;
  seed: number;
  /** The task's `tasks_voice.json` entry, the preset sampled, or the `--caller-effects` file. */
  from: 'tasks_voice' | 'preset' | 'file';
  /** The voice settings the caller spoke with (absent: the user bot's own voice). */
  voice?: Record<string, string | number | undefined>;
  /** The caller's line events by kind (effects and behaviours). */
  events: Record<string, number>;
}

/** The classes of {@link FailureAttribution}. */
export type FailureClass =
  'infrastructure' | 'mishearing' | 'user_simulator' | 'stall' | 'agent_action' | 'other';

/** One write as the plan has it or as the agent made it. */
export interface PlannedAction {
  name: string;
  arguments: Record<string, unknown>;
}

/** A value said and heard differently. */
export interface MisheardEntity {
  kind: SpokenEntityKind;
  /** The value as said. */
  said: string;
  /** What was heard in its place, when something of its kind was. */
  heard: string | null;
  /** Who said it and who misheard it. */
  speaker: 'user' | 'agent';
  /** Seconds on the conversation's timeline. */
  at: number;
}

/** `metrics.json` `failure_attribution` of a failed scenario. */
export interface FailureAttribution {
  class: FailureClass;
  /** A finer kind within the class, e.g. `missing_action`, `wrong_argument`, `never_gave`. */
  kind: string;
  /** One line for people: the class and what it names. */
  summary: string;
  /** The gold action at the divergence (for agent and mishearing classes), when there is one. */
  expected_action?: PlannedAction;
  /** What the agent did instead, when it did something. */
  actual_action?: PlannedAction;
  /** The argument that differed. */
  argument?: string;
  /** The value misheard (mishearing) or never given (user simulator). */
  entity?: MisheardEntity | { value: string };
}

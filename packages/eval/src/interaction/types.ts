/**
 * Types of the interaction panel: the timeline it reads (speech per side, typed caller events,
 * tool calls) and the figures it writes to `interaction_metrics.json`.
 *
 * Times are seconds on the conversation's timeline. Input fields are camelCase; the stored
 * output is snake_case like the other result files.
 *
 * @module
 */

/** A stretch of the conversation's timeline, in seconds. */
export interface TimeSpan {
  start: number;
  end: number;
}

/** One caller (user bot) speech segment: a real turn unless a caller event overlaps it. */
export interface CallerSpeech extends TimeSpan {
  text?: string;
}

/** One agent speech segment. */
export interface AgentSpeech extends TimeSpan {
  text?: string;
  /** The agent stopped before finishing what it meant to say. */
  cutShort?: boolean;
}

/**
 * What an injected caller behaviour was. `backchannel`, `vocal_tic`, `non_directed` and
 * `interruption` are scored; `noise_burst` is not speech and is only counted.
 */
export type CallerEventKind =
  'backchannel' | 'vocal_tic' | 'non_directed' | 'interruption' | 'noise_burst';

/** A typed caller behaviour on the timeline. */
export interface CallerEvent extends TimeSpan {
  kind: CallerEventKind;
  text?: string;
}

/** The agent called a tool at `at` seconds. */
export interface ToolCall {
  at: number;
  name?: string;
}

/** What the panel reads for one scenario. */
export interface InteractionTimeline {
  caller: readonly CallerSpeech[];
  agent: readonly AgentSpeech[];
  events?: readonly CallerEvent[];
  /** When the agent called tools. Absent: not recorded (the tool/plain split is N/A). */
  toolCalls?: readonly ToolCall[];
  /** Start of the conversation. @default 0 */
  start?: number;
  /** End of the recording. @default the end of the last speech or event */
  end?: number;
}

/** Detection windows and thresholds, in seconds (the last two are counts and a length). */
export interface InteractionWindows {
  /** A caller interruption is yielded to when the agent stops within this. */
  no_yield_window_sec: number;
  /** While the agent speaks, stopping within these after the event is an error. */
  backchannel_yield_window_sec: number;
  vocal_tic_yield_window_sec: number;
  non_directed_yield_window_sec: number;
  /** While the agent is silent, starting to speak within these after the event is an error. */
  vocal_tic_response_window_sec: number;
  non_directed_response_window_sec: number;
  /** Dead-air gaps longer than this are counted as long gaps. */
  long_gap_sec: number;
  /** Figures backed by fewer events are not shown. */
  min_events: number;
}

export const DEFAULT_WINDOWS: Readonly<InteractionWindows> = Object.freeze({
  no_yield_window_sec: 2.0,
  backchannel_yield_window_sec: 1.0,
  vocal_tic_yield_window_sec: 1.0,
  non_directed_yield_window_sec: 1.0,
  vocal_tic_response_window_sec: 2.0,
  non_directed_response_window_sec: 2.0,
  long_gap_sec: 3.0,
  min_events: 10,
});

/** Bumped when a definition changes, so stored panels are not pooled across definitions. */
export const INTERACTION_METRICS_VERSION = 1;

interface FigureBase {
  /** null: not applicable (see `reason`). */
  value: number | null;
  /** The events (or gaps) behind the figure. */
  count: number;
  /** False when the value is null or backed by too few events. */
  shown: boolean;
  /** Why the figure is not shown. */
  reason?: string;
}

/** `numerator / denominator`; `count` is the denominator unless said otherwise. */
export interface RateFigure extends FigureBase {
  unit: 'ratio';
  numerator: number;
  denominator: number;
}

/** A mean in seconds: `total / count`. */
export interface MeanFigure extends FigureBase {
  unit: 'seconds';
  total: number;
}

/** A measured amount (dead air), never hidden for a low count. */
export interface MeasureFigure extends FigureBase {
  unit: 'seconds' | 'count';
}

/** The mean of the three selectivity rates; `count` sums their events. */
export interface CompositeFigure extends FigureBase {
  unit: 'ratio';
}

export interface DeadAirStats {
  total_seconds: MeasureFigure;
  /** Dead air over the conversation's length; `count` is the number of gaps. */
  fraction: RateFigure;
  longest_seconds: MeasureFigure;
  /** Gaps longer than `long_gap_sec`. */
  long_gaps: MeasureFigure;
}

export interface DeadAir {
  conversation_seconds: number;
  all: DeadAirStats;
  /** Leaving out the silences between a caller turn and the agent's response to it. */
  excluding_response_gaps: DeadAirStats;
}

/** The figures of a scenario or a run. */
export interface InteractionPanel {
  version: number;
  windows: InteractionWindows;
  /** L_R: mean seconds from the end of a caller turn to the agent's response. */
  response_latency_mean: MeanFigure;
  /** R_R: caller turns answered before the caller spoke again. */
  response_rate: RateFigure;
  /** L_Y: mean seconds from a caller interruption to the agent stopping. */
  yield_latency_mean: MeanFigure;
  /** R_Y: caller interruptions the agent stopped for within the no-yield window. */
  yield_rate: RateFigure;
  /** I_A: agent starts inside real caller speech, per scored caller turn (may exceed 1). */
  agent_interruption_rate: RateFigure;
  /** S_BC, S_VT, S_ND: correct-rates (1 − error rate). */
  selectivity_backchannel: RateFigure;
  selectivity_vocal_tic: RateFigure;
  selectivity_non_directed: RateFigure;
  /** Mean of the three, shown only when all three are. */
  selectivity: CompositeFigure;
  /** L_R split by whether the agent called a tool between the caller turn and its response. */
  tool_turn_latency_mean: MeanFigure;
  plain_turn_latency_mean: MeanFigure;
  /** After a yield: seconds from the floor being free to the agent speaking again. */
  recovery_latency_mean: MeanFigure;
  dead_air: DeadAir;
  counts: InteractionCounts;
}

export interface InteractionCounts {
  scenarios: number;
  /** Caller events on the input timelines, by kind. */
  caller_events: Record<string, number>;
  /** Yields where the agent's speech was marked cut short (the rest ended on their own). */
  yields_cut_short: number;
  /**
   * Selectivity errors while the agent spoke where its speech was marked cut short, by category
   * (the rest ended on their own within the window: the agent finished, it did not yield).
   */
  selectivity_errors_cut_short: Record<string, number>;
  /** Events left out of every figure, by reason. */
  unscored: Record<string, number>;
}

export type ScoredCategory =
  'response' | 'yield' | 'backchannel' | 'vocal_tic' | 'non_directed' | 'agent_interruption';

export type ScoredOutcome =
  | 'response'
  | 'no_response'
  | 'yield'
  | 'no_yield'
  | 'correct'
  | 'error'
  | 'interrupted'
  | 'unscored';

/** One event the panel scored (or chose not to), for inspection. */
export interface ScoredEvent {
  category: ScoredCategory;
  outcome: ScoredOutcome;
  /**
   * Seconds: the caller turn's end (response), the caller utterance's start (yield,
   * selectivity), the agent's start (agent_interruption).
   */
  at: number;
  /** Selectivity: which window applied. */
  agent?: 'speaking' | 'silent';
  /** Response or yield latency, seconds. */
  latency?: number;
  /** Response: a tool was called between the caller turn and the response. */
  tool_turn?: boolean;
  /** Yield: seconds until the agent spoke again, when it did before the caller. */
  recovery?: number;
  /** Yield, or selectivity error while the agent spoke: its speech was marked cut short. */
  cut_short?: boolean;
  text?: string;
  /** Why an event is unscored. */
  reason?: string;
}

/** The panel of one scenario, with the events behind it. */
export interface InteractionScenarioPanel extends InteractionPanel {
  events: ScoredEvent[];
}

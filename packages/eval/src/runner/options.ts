/**
 * What a run is told ({@link EvaluationOptions}) and what it produced ({@link EvaluationResult}).
 *
 * @module
 */
import type { ScriptedFault, VoiceOptions } from '@scenaro/agent';
import type { AudioModeOptions } from '../bridge/bridge.js';
import type { RelayClock } from '../bridge/audio-timeline.js';
import type { Shard } from '../scenario/select.js';
import type { RunAggregate } from '../scoring/aggregate.js';
import type { JudgeSettings, ScorerName } from '../scoring/score.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import type { LlmSettings } from './bots.js';
import type { SpeechSettings } from './voices.js';

/** Everything a run can be told. */
export interface EvaluationOptions {
  /** Domains to run (scenario-name prefixes). @default every built-in domain */
  domains?: string[];
  /** Only these scenarios. */
  scenarios?: string[];
  /** tau2 data root. Required, except when resuming: a resumed run keeps its own. */
  dataRoot?: string;
  /** Where run folders go. @default ./eval-results */
  outputDir?: string;
  /** Name of the run folder. @default a timestamp */
  runId?: string;
  /**
   * Resume this run folder (in outputDir): finished scenarios are kept, the rest re-run. The run's
   * own arguments (run_args.json) apply; a run-defining option given with another value is refused.
   */
  resume?: string;
  /** Scenarios at once. @default 4 */
  concurrency?: number;
  /** Runs of each scenario (pass^k). @default 1 */
  trials?: number;
  shard?: Shard;
  /** Override every scenario's duration, seconds. */
  durationSeconds?: number;
  /** Turn limit per side. @default 30 */
  maxTurns?: number;
  /** Use running bots instead of starting local ones. */
  agentUrl?: string;
  userUrl?: string;
  token?: string;
  agentLlm?: LlmSettings;
  userLlm?: LlmSettings;
  judge?: JudgeSettings;
  scorer?: ScorerName;
  /** Faults injected into the scripted reference agent. */
  faults?: ScriptedFault[];
  /** Retries of a scenario whose failure was in the infrastructure. @default 2 */
  retries?: number;
  /** Stall rule threshold. @default 3 */
  minAgentTurns?: number;
  /** Where the progress display goes. @default stderr */
  progressStream?: { write(text: string): unknown; isTTY?: boolean };
  /** The command line, for run_args.json. */
  argv?: string[];
  /** `text` (default): turns relayed as text; `audio`: the bots' speech relayed between them. */
  mode?: 'text' | 'audio';
  /** Audio mode's clock. @default 'realtime' */
  audioClock?: RelayClock;
  /** Audio mode: time limits and the fast clock's trailing silence (see `AudioModeOptions`). */
  audio?: Omit<AudioModeOptions, 'clock'>;
  /**
   * Audio mode, local bots: their voices (engines). @default offline engines: PocketSphinx, and
   * Flite with voice slt for the agent and rms for the user
   */
  voice?: Record<'agent' | 'user', VoiceOptions>;
  /**
   * Audio mode, local bots: each bot's voice settings as `scenaro serve`'s voice flags give
   * them (recorded with the run, so a resumed run keeps them), built through the speech-engine
   * registry. Ignored when `voice` is given.
   */
  speech?: SpeechSettings;
}

/** What a run produced. */
export interface EvaluationResult {
  runDir: string;
  /** Where the run-level files are: the run folder, or a shard's folder in it. */
  filesDir: string;
  ran: number;
  resumed: number;
  /** Every scenario's metrics (resumed ones read back), in the order of the work. */
  metrics: ScenarioMetrics[];
  aggregate: RunAggregate;
}

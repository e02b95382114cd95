/**
 * What a run is told ({@link EvaluationOptions}) and what it produced ({@link EvaluationResult}).
 *
 * @module
 */
import type { ScriptedFault } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent/voice';
import type { AudioModeOptions } from '../bridge/bridge.js';
import type { RelayClock } from '../bridge/audio-timeline.js';
import type { Shard } from '../scenario/select.js';
import type { RunAggregate } from '../scoring/aggregate.js';
import type { JudgeSettings, ScorerName } from '../scoring/score.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import type { LlmSettings } from './bots.js';
import type { SpeechSettings } from './voices.js';
import type { CallerEffects, SpeechComplexity } from '../caller/config.js';

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
  /**
   * Audio mode, local bots: tau2-bench's speech-complexity presets the caller follows (each
   * scenario's config from its suite's `tasks_voice.json` for the tau2 domains, else sampled from
   * the preset). Several presets run the scenarios once per preset, each in a folder of the run
   * named after it, with a comparison of the presets in the run's `report.html`.
   */
  speechComplexity?: SpeechComplexity[];
  /** Audio mode, local bots: one caller config (tau2's `tasks_voice.json` schema) for every scenario. */
  callerEffects?: CallerEffects;
  /** The file `callerEffects` was read from (for the record). */
  callerEffectsFile?: string;
  /** With caller effects: recordings named like tau2's sounds, in place of the stand-ins. */
  noiseDir?: string;
  /** Audio mode, local agent bot: its interruption strategy, `any` or `min-words:N`. @default 'any' */
  interruption?: string;
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
  /** Several speech-complexity presets: each one's run. */
  presets?: PresetRun[];
}

/** One preset's run in a run of several. */
export interface PresetRun {
  preset: SpeechComplexity;
  /** Its folder in the run. */
  dir: string;
  ran: number;
  resumed: number;
  aggregate: RunAggregate;
  /** Wall time this invocation spent on it, seconds. */
  wallSeconds: number;
}

/**
 * `scenaro eval` flags as the options of `runEvaluation` (`@scenaro/eval`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkCallerOptions,
  isSpeechComplexity,
  parseCallerEffects,
  parseShard,
  SPEECH_COMPLEXITIES,
} from '@scenaro/eval';
import type { EvaluationOptions } from '@scenaro/eval';
import { speechSettings } from './eval-voice.js';
import type { EvalVoiceFlags } from './eval-voice.js';
import { parseInteger } from './flags.js';
import { parseInterruptionFlag } from './voice.js';

/** Parsed `eval` flags. */
export interface EvalFlags extends EvalVoiceFlags {
  domain?: string[];
  scenarios?: string[];
  list?: boolean;
  outputDir: string;
  dataRoot?: string;
  duration?: string;
  maxTurns?: string;
  concurrency: string;
  trials: string;
  resume?: string;
  runId?: string;
  shard?: string;
  agentUrl?: string;
  userUrl?: string;
  token?: string;
  agentLlmBaseUrl?: string;
  agentLlmModel?: string;
  userLlmBaseUrl?: string;
  userLlmModel?: string;
  llmApiKeyEnv?: string;
  judgeUrl?: string;
  judgeModel?: string;
  judgeApiKeyEnv?: string;
  judgeThreshold: string;
  scorer: 'nemo' | 'tau2';
  faultyAgent?: 'drop-last-action';
  retries: string;
  minAgentTurns: string;
  mode: 'text' | 'audio';
  audioClock: 'realtime' | 'fast';
  junit?: string;
  failUnder?: string;
  speechComplexity?: string[];
  callerEffects?: string;
  noiseDir?: string;
}

/** The default data root: `$EVAL_DATA_ROOT`, else `./data`. */
export function defaultDataRoot(): string {
  return process.env['EVAL_DATA_ROOT'] ?? './data';
}

/**
 * Turn parsed flags into runner options. `given(flag)` says whether a flag was on the
 * command line: a resumed run keeps its own arguments, so defaults are not applied to it.
 */
export function evaluationOptions(
  flags: EvalFlags,
  argv: string[] = process.argv,
  given: (flag: keyof EvalFlags) => boolean = () => true,
): EvaluationOptions {
  const resuming = flags.resume !== undefined;
  const wanted = (flag: keyof EvalFlags) => !resuming || given(flag);
  const options: EvaluationOptions = {
    outputDir: resolve(flags.outputDir),
    concurrency: parseInteger(flags.concurrency, '--concurrency', 1),
    retries: parseInteger(flags.retries, '--retries', 0),
    argv,
  };
  if (wanted('dataRoot')) options.dataRoot = resolve(flags.dataRoot ?? defaultDataRoot());
  if (wanted('trials')) options.trials = parseInteger(flags.trials, '--trials', 1);
  if (wanted('minAgentTurns'))
    options.minAgentTurns = parseInteger(flags.minAgentTurns, '--min-agent-turns', 0);
  if (wanted('scorer')) options.scorer = flags.scorer;
  if (wanted('domain'))
    options.domains = flags.domain && flags.domain.length > 0 ? flags.domain : ['commerce'];
  if (flags.scenarios) options.scenarios = flags.scenarios;
  if (flags.duration) options.durationSeconds = parseInteger(flags.duration, '--duration', 1);
  if (flags.maxTurns) options.maxTurns = parseInteger(flags.maxTurns, '--max-turns', 1);
  if (flags.resume) options.resume = flags.resume;
  if (flags.runId) options.runId = flags.runId;
  if (flags.shard) options.shard = parseShard(flags.shard);
  if (flags.agentUrl || flags.userUrl) {
    if (!flags.agentUrl || !flags.userUrl)
      throw new Error('--agent-url and --user-url go together');
    options.agentUrl = flags.agentUrl;
    options.userUrl = flags.userUrl;
  }
  if (flags.token) options.token = flags.token;
  const apiKeyEnv = flags.llmApiKeyEnv ? { apiKeyEnv: flags.llmApiKeyEnv } : {};
  if (flags.agentLlmBaseUrl) {
    if (!flags.agentLlmModel) throw new Error('--agent-llm-base-url needs --agent-llm-model');
    options.agentLlm = { baseURL: flags.agentLlmBaseUrl, model: flags.agentLlmModel, ...apiKeyEnv };
  }
  if (flags.userLlmBaseUrl) {
    if (!flags.userLlmModel) throw new Error('--user-llm-base-url needs --user-llm-model');
    options.userLlm = { baseURL: flags.userLlmBaseUrl, model: flags.userLlmModel, ...apiKeyEnv };
  }
  if (flags.judgeUrl) {
    if (!flags.judgeModel) throw new Error('--judge-url needs --judge-model');
    options.judge = {
      baseURL: flags.judgeUrl,
      model: flags.judgeModel,
      threshold: Number(flags.judgeThreshold),
      ...(flags.judgeApiKeyEnv ? { apiKeyEnv: flags.judgeApiKeyEnv } : {}),
    };
  }
  if (flags.faultyAgent) options.faults = [flags.faultyAgent];
  // Text mode is the default and is not recorded, so text runs keep their arguments as they were.
  if (flags.mode === 'audio') {
    options.mode = 'audio';
    if (wanted('audioClock')) options.audioClock = flags.audioClock;
  } else if (flags.audioClock === 'fast') {
    throw new Error('--audio-clock needs --mode audio');
  }
  const speech = speechSettings(flags, (flag) => given(flag as keyof EvalFlags));
  if (speech) options.speech = speech;
  addCallerOptions(options, flags);
  // A resumed run's mode and bots come from its run_args.json: the runner checks them there.
  if (!resuming) checkCallerOptions(options);
  return options;
}

/** `--speech-complexity`, `--caller-effects`, `--noise-dir` and `--interruption`. */
function addCallerOptions(options: EvaluationOptions, flags: EvalFlags): void {
  const presets = flags.speechComplexity ?? [];
  if (presets.length > 0) {
    const unknown = presets.filter((p) => !isSpeechComplexity(p));
    if (unknown.length > 0)
      throw new Error(
        `--speech-complexity: unknown preset ${unknown.map((p) => `'${p}'`).join(', ')} ` +
          `(the presets: ${SPEECH_COMPLEXITIES.join(', ')})`,
      );
    options.speechComplexity = presets.filter(isSpeechComplexity);
  }
  if (flags.callerEffects !== undefined) {
    const file = resolve(flags.callerEffects);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`--caller-effects ${file}: ${(error as Error).message}`);
    }
    try {
      options.callerEffects = parseCallerEffects(json);
    } catch (error) {
      throw new Error(`--caller-effects ${file}: ${(error as Error).message}`);
    }
    options.callerEffectsFile = file;
  }
  if (flags.noiseDir !== undefined) options.noiseDir = resolve(flags.noiseDir);
  if (flags.interruption !== undefined) {
    parseInterruptionFlag(flags.interruption);
    options.interruption = flags.interruption;
  }
}

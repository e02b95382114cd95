/**
 * A run's callers and turn-taking: which options ask for them, what they need (audio mode, the
 * local bots), the voices of the local bots in full duplex (they report what they hear; the
 * agent takes its interruption strategy), and each scenario's caller and line.
 *
 * @module
 */
import { parseInterruptionStrategy } from '@scenaro/agent/voice';
import type { VoiceOptions } from '@scenaro/agent/voice';
import { isSpeechComplexity } from '../caller/presets.js';
import type { DuplexOptions } from '../bridge/duplex.js';
import type { WorkItem } from '../scenario/select.js';
import type { CallerVoices } from './caller-voices.js';
import type { RunCallers, ScenarioCaller } from './callers.js';
import type { EvaluationOptions } from './options.js';

/** The run's callers: their configs and voices. */
export interface RunCallerParts {
  callers: RunCallers;
  voices: CallerVoices;
}

/** What a scenario's bridge gets for its caller. */
export interface ScenarioCallerSetup {
  caller: ScenarioCaller;
  /** The user bot speaking with the caller's voice. */
  userUrl: string;
  duplex: DuplexOptions;
  /** The voice settings of the caller (the user bot's own when absent). */
  voice?: Record<string, string | number | undefined>;
}

/** The option names as `scenaro eval` spells them. */
const FLAGS = {
  speechComplexity: '--speech-complexity',
  callerEffects: '--caller-effects',
  noiseDir: '--noise-dir',
  interruption: '--interruption',
} as const;

/** Does the run have callers with effects (a preset or a config)? */
export function hasCallers(options: EvaluationOptions): boolean {
  return (options.speechComplexity?.length ?? 0) > 0 || options.callerEffects !== undefined;
}

/** Do the bots talk full duplex (callers, or an interruption strategy)? */
export function isDuplex(options: EvaluationOptions): boolean {
  return options.mode === 'audio' && (hasCallers(options) || options.interruption !== undefined);
}

/**
 * Refuse caller and turn-taking options that cannot apply: outside audio mode, with bots given
 * by URL (their voices and ears are their own), or in contradiction with each other.
 */
export function checkCallerOptions(options: EvaluationOptions): void {
  const given = (Object.keys(FLAGS) as (keyof typeof FLAGS)[]).filter(
    (key) => options[key] !== undefined,
  );
  if (given.length === 0) return;
  const names = given.map((key) => FLAGS[key]).join(', ');
  const one = given.length === 1;
  if (options.mode !== 'audio') throw new Error(`${names} ${one ? 'needs' : 'need'} --mode audio`);
  if (options.agentUrl !== undefined || options.userUrl !== undefined)
    throw new Error(
      `${names} ${one ? 'is' : 'are'} for the local bots; the bots at --agent-url/--user-url ` +
        'hear and speak on their own',
    );
  const presets = options.speechComplexity ?? [];
  if (presets.length > 0 && options.callerEffects)
    throw new Error(
      '--speech-complexity and --caller-effects are two ways to say the same: give one',
    );
  for (const preset of presets)
    if (!isSpeechComplexity(preset))
      throw new Error(`--speech-complexity: unknown preset '${String(preset)}'`);
  if (new Set(presets).size !== presets.length)
    throw new Error('--speech-complexity: a preset is given twice');
  if (options.noiseDir !== undefined && !hasCallers(options))
    throw new Error('--noise-dir needs --speech-complexity or --caller-effects');
  if (options.interruption !== undefined) parseInterruptionStrategy(options.interruption);
  if (presets.length > 1 && options.shard)
    throw new Error('--shard runs one preset at a time: give one --speech-complexity');
}

/**
 * The local bots' voices in full duplex: both report what they hear and leave the pacing of
 * their speech to the relay (on the real-time clock too: its timeline keeps the lockstep at
 * real-time pace); the agent's strategy.
 */
export function duplexVoices(
  voices: Record<'agent' | 'user', VoiceOptions>,
  options: EvaluationOptions,
): Record<'agent' | 'user', VoiceOptions> {
  const interruption =
    options.interruption === undefined
      ? undefined
      : parseInterruptionStrategy(options.interruption);
  const duplex = (voice: VoiceOptions): VoiceOptions => {
    const { outputLeadMs: _lead, ...rest } = voice;
    return { ...rest, pacing: 'fast', reportHeard: true };
  };
  return {
    agent: { ...duplex(voices.agent), ...(interruption ? { interruption } : {}) },
    user: duplex(voices.user),
  };
}

/** The caller of `item`, its user bot and its line. */
export async function scenarioCaller(
  parts: RunCallerParts,
  item: WorkItem,
): Promise<ScenarioCallerSetup> {
  const caller = await parts.callers.forScenario(item);
  const voice = await parts.voices.forPersona(caller.effects.persona_name);
  return {
    caller,
    userUrl: voice.userUrl,
    duplex: {
      caller: {
        effects: caller.effects,
        seed: caller.seed,
        sounds: parts.callers.sounds,
        backchannels: voice.backchannels,
      },
    },
    ...(voice.settings ? { voice: voice.settings } : {}),
  };
}

/**
 * The voices of `scenaro eval`'s local bots in audio mode, from the serve command's voice flags:
 * the same engine flags for both bots and a voice for each (`--agent-tts-voice`,
 * `--user-tts-voice`), so a recording tells them apart. The flags become the run's speech
 * settings (recorded with it, so a resumed run keeps them); the engines are built from them with
 * the serve command's `buildVoiceOptions` when the run starts.
 */
import { DEFAULT_LOCAL_VOICES } from '@scenaro/eval';
import type { BotSide, SpeechSettings, VoiceBuilder } from '@scenaro/eval';
import type { VoiceFlags } from './voice-flags.js';

/** The voice flags of the eval command, as commander parses them. */
export interface EvalVoiceFlags extends Omit<VoiceFlags, 'ttsVoice' | 'audioPacing'> {
  agentTtsVoice?: string;
  userTtsVoice?: string;
}

/** The engine flags both local bots take. */
const ENGINE_FLAGS = [
  'stt',
  'tts',
  'sttBaseUrl',
  'sttModel',
  'pocketsphinxArgs',
  'ttsBaseUrl',
  'ttsModel',
  'speechApiKeyEnv',
  'vadStopMs',
  'ttsNormalize',
] as const satisfies readonly (keyof EvalVoiceFlags)[];
const SIDE_VOICE_FLAGS: Record<BotSide, 'agentTtsVoice' | 'userTtsVoice'> = {
  agent: 'agentTtsVoice',
  user: 'userTtsVoice',
};

/** `--kebab-case` of a flag's camel-case name. */
const flagName = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The speech settings the voice flags given describe; undefined when none was given (the local
 * bots then get the offline engines). Throws when they do not apply: not in audio mode, or with
 * `--agent-url`/`--user-url` (those bots have voices of their own).
 */
export function speechSettings(
  flags: EvalVoiceFlags & { mode: string; agentUrl?: string; userUrl?: string },
  given: (flag: keyof EvalVoiceFlags) => boolean,
): SpeechSettings | undefined {
  const keys = [...ENGINE_FLAGS, SIDE_VOICE_FLAGS.agent, SIDE_VOICE_FLAGS.user];
  const named = keys.filter((key) => given(key) && flags[key] !== undefined);
  const first = named[0];
  if (first === undefined) return undefined;
  if (flags.mode !== 'audio') throw new Error(`${flagName(first)} needs --mode audio`);
  if (flags.agentUrl || flags.userUrl)
    throw new Error(
      `${flagName(first)} is for the local bots; the bots at --agent-url/--user-url have their own voices`,
    );
  const engines: Record<string, string> = {};
  for (const key of ENGINE_FLAGS) {
    const value = flags[key];
    if (given(key) && value !== undefined) engines[key] = value;
  }
  const tts = flags.tts ?? 'flite';
  const side = (bot: BotSide): Record<string, string> => {
    const defaults: Record<BotSide, string> | undefined =
      tts === 'flite' || tts === 'openai' ? DEFAULT_LOCAL_VOICES[tts] : undefined;
    const voice = flags[SIDE_VOICE_FLAGS[bot]] ?? defaults?.[bot];
    return { ...engines, ...(voice !== undefined ? { ttsVoice: voice } : {}) };
  };
  return { agent: side('agent'), user: side('user') };
}

/**
 * Build a local bot's voice from its speech settings with the serve command's engine code. An
 * STT engine that is not installed is an error here: a bot that cannot hear fails every scenario.
 */
export const buildEvalVoice: VoiceBuilder = async (settings, context) => {
  const { buildVoiceOptions, closeVoice } = await import('./voice.js');
  const { side } = context;
  const setup = await buildVoiceOptions(settings as VoiceFlags, {
    pocketsphinx: context.pocketsphinx,
    voiceFlag: flagName(SIDE_VOICE_FLAGS[side]),
    fliteSampleRate: context.speechSampleRate,
  });
  if (setup.warnings.length > 0) {
    await closeVoice(setup.voice);
    throw new Error(`the ${side} bot's ${setup.warnings.join('; ')}`);
  }
  return setup.voice;
};

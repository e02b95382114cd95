/**
 * The voices of `scenaro eval`'s local bots in audio mode, from the serve command's voice flags:
 * the same engine flags for both bots and each bot's own per-speaker ones (`--agent-tts-voice`,
 * `--user-tts-voice`), so a recording tells them apart. The flags become the run's speech
 * settings (recorded with it, so a resumed run keeps them); the evaluation builds the engines
 * from them through the speech-engine registry when the run starts.
 */
import { localSpeechSettings } from '@scenaro/eval';
import type { BotSide, SpeechSettings } from '@scenaro/eval';
import type { VoiceSettings } from '@scenaro/agent/voice';
import { engineFlagSettings, flagOf, speakerSetting } from './voice-flags.js';
import type { VoiceFlags } from './voice-flags.js';

/** The voice flags of the eval command, as commander parses them. */
export type EvalVoiceFlags = Omit<VoiceFlags, 'audioPacing'>;

/** The flags both local bots take: the voice's own and the engines' shared options. */
function sharedSettings(): string[] {
  const engines = engineFlagSettings().filter((s) => !s.perSpeaker);
  return ['stt', 'tts', ...engines.map((s) => s.setting), 'vadStopMs', 'ttsNormalize'];
}

/**
 * The speech settings the voice flags given describe; undefined when none was given (the local
 * bots then get the offline engines). Throws when they do not apply: not in audio mode, or with
 * `--agent-url`/`--user-url` (those bots have voices of their own).
 */
export function speechSettings(
  flags: EvalVoiceFlags & { mode: string; agentUrl?: string; userUrl?: string },
  given: (flag: string) => boolean,
): SpeechSettings | undefined {
  const values = flags as unknown as Record<string, unknown>;
  const value = (key: string) => {
    const v = values[key];
    return given(key) && typeof v === 'string' ? v : undefined;
  };
  const shared = sharedSettings();
  const perSpeaker = engineFlagSettings()
    .filter((s) => s.perSpeaker)
    .map((s) => s.setting);
  const sideKeys = (side: BotSide) => perSpeaker.map((s) => speakerSetting(side, s));
  const keys = [...shared, ...sideKeys('agent'), ...sideKeys('user')];
  const first = keys.find((key) => value(key) !== undefined);
  if (first === undefined) return undefined;
  if (flags.mode !== 'audio') throw new Error(`${flagOf(first)} needs --mode audio`);
  if (flags.agentUrl || flags.userUrl)
    throw new Error(
      `${flagOf(first)} is for the local bots; the bots at --agent-url/--user-url have their own voices`,
    );
  const pick = (pairs: [string, string][]): VoiceSettings => {
    const settings: VoiceSettings = {};
    for (const [setting, key] of pairs) {
      const v = value(key);
      if (v !== undefined) settings[setting] = v;
    }
    return settings;
  };
  const own = (side: BotSide) => pick(perSpeaker.map((s) => [s, speakerSetting(side, s)]));
  return localSpeechSettings(pick(shared.map((s) => [s, s])), {
    agent: own('agent'),
    user: own('user'),
  });
}

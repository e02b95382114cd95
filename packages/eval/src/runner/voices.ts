/**
 * The voices of the local bots in audio mode, built through the speech-engine registry: each
 * bot's voice settings (the engines by name and their options, kept as data so that a resumed
 * run builds the same voices), by default the default engines (PocketSphinx and Flite) with a
 * voice for each side that tells them apart in a recording; with the audio pacing of the run's
 * clock. Voices given ready-made are only paced.
 */
import { buildSpeechVoice, engineSettings, speakerVoiceSettings } from '@scenaro/agent/voice';
import type { BuildSpeechVoiceOptions, VoiceOptions, VoiceSettings } from '@scenaro/agent/voice';
import { RELAY_SAMPLE_RATE } from '../bridge/audio-timeline.js';
import type { RelayClock } from '../bridge/audio-timeline.js';

/** The two local bots. */
export type BotSide = 'agent' | 'user';

/**
 * On the real-time clock the local bots send their audio this far ahead of its play time, so a
 * busy machine delaying a bot's timers does not leave gaps in the speech the relay streams.
 */
export const LOCAL_OUTPUT_LEAD_MS = 500;

/**
 * Speech settings of the local bots: each bot's voice settings, as `scenaro serve`'s voice flags
 * name them (camel case: `stt`, `sttBaseUrl`, `tts`, `ttsVoice`, `vadStopMs`, ...).
 */
export type SpeechSettings = Record<BotSide, VoiceSettings>;

/**
 * The rate the local bots speak at when their engine speaks it itself (Flite): the relay's, so
 * their speech reaches the other bot without being resampled on the way.
 */
export const LOCAL_SPEECH_SAMPLE_RATE = RELAY_SAMPLE_RATE;

/**
 * Each local bot's settings: `shared` for both, and each side's `own` values (its voice), else
 * the defaults of the chosen engines that tell two speakers apart (Flite: `slt` for the agent,
 * `rms` for the user; OpenAI: `alloy` and `echo`).
 */
export function localSpeechSettings(
  shared: VoiceSettings = {},
  own: Partial<Record<BotSide, VoiceSettings>> = {},
): SpeechSettings {
  const [agent, user] = speakerVoiceSettings(shared, [own.agent, own.user]);
  return { agent, user };
}

/** `--kebab-case` of a setting, as `scenaro eval` names it for `side` (a voice is per bot). */
function flagName(side: BotSide, speakerSettings: ReadonlySet<string>) {
  return (setting: string): string => {
    const own = speakerSettings.has(setting)
      ? side + setting[0]!.toUpperCase() + setting.slice(1)
      : setting;
    return `--${own.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  };
}

/** Settings each bot has its own of (a voice): the per-speaker options of the engines. */
function perSpeakerSettings(): Set<string> {
  return new Set(
    [...engineSettings()]
      .filter(([, users]) => users.some((u) => u.spec.perSpeaker))
      .map(([setting]) => setting),
  );
}

/** Close the engines of `voice`. */
async function release(voice: VoiceOptions): Promise<void> {
  await Promise.allSettled([voice.stt?.close(), voice.tts?.close()]);
}

/** Pace `voices` as `clock` wants. */
function paced(
  clock: RelayClock,
  voices: Record<BotSide, VoiceOptions>,
): Record<BotSide, VoiceOptions> {
  const voice = (side: BotSide): VoiceOptions => ({
    ...voices[side],
    pacing: clock,
    ...(clock === 'realtime'
      ? { outputLeadMs: voices[side].outputLeadMs ?? LOCAL_OUTPUT_LEAD_MS }
      : {}),
  });
  return { agent: voice('agent'), user: voice('user') };
}

/**
 * The local bots' voices for a run on `clock`: `given` (paced), else built from `speech` (each
 * bot's settings; an engine that is not installed, or a setting it refuses, is an error naming
 * the flag), else from the default settings ({@link localSpeechSettings}). Both are built before
 * either is used; when one fails the other's engines are released.
 */
export async function localVoices(
  clock: RelayClock,
  given?: Record<BotSide, VoiceOptions>,
  speech?: SpeechSettings,
  tuning?: BuildSpeechVoiceOptions['tuning'],
): Promise<Record<BotSide, VoiceOptions>> {
  if (given) return paced(clock, given);
  const settings = speech ?? localSpeechSettings();
  const speakers = perSpeakerSettings();
  const build = (side: BotSide) =>
    buildSpeechVoice(settings[side], {
      clock,
      preferredSampleRate: LOCAL_SPEECH_SAMPLE_RATE,
      name: flagName(side, speakers),
      evaluation: true,
      // Engines chosen by name are checked; the defaults are the offline engines.
      check: speech !== undefined,
      ...(tuning ? { tuning } : {}),
    }).then(async (built) => {
      if (built.warnings.length === 0) return built.voice;
      await release(built.voice);
      // A bot that cannot hear fails every scenario.
      throw new Error(`the ${side} bot's ${built.warnings.join('; ')}`);
    });
  const [agent, user] = await Promise.allSettled([build('agent'), build('user')]);
  if (agent.status === 'fulfilled' && user.status === 'fulfilled')
    return paced(clock, { agent: agent.value, user: user.value });
  // One failed: the other's engines are released before the error goes on.
  for (const side of [agent, user]) if (side.status === 'fulfilled') await release(side.value);
  throw (
    agent.status === 'rejected' ? agent.reason : (user as PromiseRejectedResult).reason
  ) as Error;
}

/**
 * The voices of the local bots in audio mode: the offline engines (PocketSphinx and Flite, a
 * different voice for each side so a recording tells them apart) unless others are given, or
 * built from speech settings (the serve command's voice flags of each bot, kept as data so that
 * a resumed run keeps them), with the audio pacing of the run's clock.
 */
import { createFliteTextToSpeech, createPocketsphinxSpeechToText } from '@scenaro/agent';
import type { PocketsphinxOptions, VoiceOptions } from '@scenaro/agent';
import { RELAY_SAMPLE_RATE } from '../bridge/audio-timeline.js';
import type { RelayClock } from '../bridge/audio-timeline.js';

/** The two local bots. */
export type BotSide = 'agent' | 'user';

/**
 * On the fast clock a recognizer gets a long utterance at once and may print nothing for a
 * while as it decodes; its final waits this long for output (wall time) before it is given as is.
 */
const FAST_FINAL_TIMEOUT_MS = 30_000;

/**
 * On the real-time clock the local bots send their audio this far ahead of its play time, so a
 * busy machine delaying a bot's timers does not leave gaps in the speech the relay streams.
 */
export const LOCAL_OUTPUT_LEAD_MS = 500;

/** The voice of each side by default, per text-to-speech engine. */
export const DEFAULT_LOCAL_VOICES = {
  flite: { agent: 'slt', user: 'rms' },
  openai: { agent: 'alloy', user: 'echo' },
} as const satisfies Record<string, Record<BotSide, string>>;

/**
 * Speech settings of the local bots: each bot's voice flags as `scenaro serve` names them
 * (camel case: `stt`, `sttBaseUrl`, `tts`, `ttsVoice`, `vadStopMs`, ...).
 */
export type SpeechSettings = Record<BotSide, Record<string, string>>;

/**
 * The rate the local bots speak at when their engine allows: the relay's, Flite's own, so their
 * speech reaches the other bot without being resampled on the way.
 */
export const LOCAL_SPEECH_SAMPLE_RATE = RELAY_SAMPLE_RATE;

/**
 * Makes a bot's voice from its speech settings, with the recognizer options the clock needs and
 * the rate to speak at when the engine allows ({@link LOCAL_SPEECH_SAMPLE_RATE}).
 */
export type VoiceBuilder = (
  flags: Record<string, string>,
  context: { side: BotSide; pocketsphinx: PocketsphinxOptions; speechSampleRate: number },
) => Promise<VoiceOptions>;

/** PocketSphinx's options on `clock`. */
export function pocketsphinxOptions(clock: RelayClock): PocketsphinxOptions {
  return clock === 'fast' ? { finalTimeoutMs: FAST_FINAL_TIMEOUT_MS } : {};
}

/**
 * The local bots' voices for a run on `clock`: the engines given, or the offline ones (their
 * recognizer with `recognizer`'s options over those of the clock).
 */
export function localVoices(
  clock: RelayClock,
  given?: Record<BotSide, VoiceOptions>,
  recognizer?: PocketsphinxOptions,
): Record<BotSide, VoiceOptions> {
  const voice = (side: BotSide): VoiceOptions => ({
    ...(given?.[side] ?? {
      stt: createPocketsphinxSpeechToText({ ...pocketsphinxOptions(clock), ...recognizer }),
      tts: createFliteTextToSpeech({
        voice: DEFAULT_LOCAL_VOICES.flite[side],
        sampleRate: LOCAL_SPEECH_SAMPLE_RATE,
      }),
    }),
    pacing: clock,
    ...(clock === 'realtime'
      ? { outputLeadMs: given?.[side]?.outputLeadMs ?? LOCAL_OUTPUT_LEAD_MS }
      : {}),
  });
  return { agent: voice('agent'), user: voice('user') };
}

/** The local bots' voices built from speech settings (both built before either is used). */
export async function speechVoices(
  clock: RelayClock,
  speech: SpeechSettings,
  build: VoiceBuilder,
): Promise<Record<BotSide, VoiceOptions>> {
  const context = {
    pocketsphinx: pocketsphinxOptions(clock),
    speechSampleRate: LOCAL_SPEECH_SAMPLE_RATE,
  };
  const built = await Promise.allSettled([
    build(speech.agent, { side: 'agent', ...context }),
    build(speech.user, { side: 'user', ...context }),
  ]);
  const [agent, user] = built;
  if (agent.status === 'fulfilled' && user.status === 'fulfilled')
    return localVoices(clock, { agent: agent.value, user: user.value });
  // One failed: the other's engines are released before the error goes on.
  for (const side of built)
    if (side.status === 'fulfilled')
      await Promise.allSettled([side.value.stt?.close(), side.value.tts?.close()]);
  throw (
    agent.status === 'rejected' ? agent.reason : (user as PromiseRejectedResult).reason
  ) as Error;
}

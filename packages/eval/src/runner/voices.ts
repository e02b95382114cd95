/**
 * The voices of the local bots in audio mode: the offline engines (PocketSphinx and Flite, a
 * different Flite voice for each side so a recording tells them apart) unless others are given,
 * with the audio pacing of the run's clock.
 */
import { createFliteTextToSpeech, createPocketsphinxSpeechToText } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent';
import type { RelayClock } from '../bridge/audio-timeline.js';

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

/** Flite voices of the local bots by default. */
export const DEFAULT_LOCAL_VOICES = { agent: 'slt', user: 'rms' } as const;

/** The local bots' voices for a run on `clock`. */
export function localVoices(
  clock: RelayClock,
  given?: Record<'agent' | 'user', VoiceOptions>,
): Record<'agent' | 'user', VoiceOptions> {
  const voice = (side: 'agent' | 'user'): VoiceOptions => ({
    ...(given?.[side] ?? {
      stt: createPocketsphinxSpeechToText(
        clock === 'fast' ? { finalTimeoutMs: FAST_FINAL_TIMEOUT_MS } : {},
      ),
      tts: createFliteTextToSpeech({ voice: DEFAULT_LOCAL_VOICES[side] }),
    }),
    pacing: clock,
    ...(clock === 'realtime'
      ? { outputLeadMs: given?.[side]?.outputLeadMs ?? LOCAL_OUTPUT_LEAD_MS }
      : {}),
  });
  return { agent: voice('agent'), user: voice('user') };
}

/**
 * What a voice bot server does once at start: say whether it can hear, warm its voice.
 *
 * @module
 */
import { errorMessage } from '@scenaro/sdk/util';
import type { VoiceOptions } from '../voice/voice-options.js';
import type { Logger } from './logger.js';

/**
 * Say at start whether the bot can hear (the STT's `check()`), and warm the TTS so the first
 * reply is not slowed by the engine starting.
 */
export async function prepareVoice(voice: VoiceOptions, log: Logger): Promise<void> {
  const { stt, tts } = voice;
  if (!stt) log.warn({}, 'voice: no speech to text; audio sent to the bot is not heard');
  else {
    await stt.check().then(
      () => log.info({ stt: stt.name }, 'voice: speech to text ready'),
      (err: unknown) =>
        log.warn(
          { stt: stt.name, error: errorMessage(err) },
          'voice: speech to text is unavailable; audio sent to the bot is answered with an error',
        ),
    );
  }
  if (!tts) return;
  try {
    await tts.warm?.();
    log.info({ tts: tts.name }, 'voice: text to speech ready');
  } catch (err) {
    log.warn({ tts: tts.name, err }, 'voice: text to speech failed to warm up');
  }
}

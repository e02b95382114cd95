/**
 * `@scenaro/agent/voice`: audio utilities (PCM, WAV, resampling, the sample clock, VAD), the
 * speech engines and their registry, spoken forms, word error rate, turn-taking and the voice
 * options of a bot.
 *
 * @module
 */
export * from './audio/pcm.js';
export * from './audio/wav.js';
export * from './audio/chunker.js';
export * from './audio/resampler.js';
export * from './audio/clock.js';
export * from './audio/audio-history.js';
export * from './metrics/wer.js';
export * from './spoken/index.js';
export * from './audio/vad.js';
export * from './audio/fvad-vad.js';
export * from './engine-errors.js';
export * from './tts.js';
export * from './engines/flite/flite-tts.js';
export * from './engines/openai/openai-audio.js';
export * from './engines/openai/openai-tts.js';
export * from './stt.js';
export * from './engines/none/none-stt.js';
export * from './engines/oracle/oracle-stt.js';
export * from './engines/oracle/hearing.js';
export * from './engines/pocketsphinx/pocketsphinx-stt.js';
export {
  alphabetWords,
  decodeSpelling,
  fitsSpellingGrammar,
  MIN_SPELLING_WORDS,
  spellingGrammar,
  worthSpellingDecode,
} from './engines/pocketsphinx/pocketsphinx-spelling.js';
export type { SpellingDecoder } from './engines/pocketsphinx/pocketsphinx-spelling.js';
export * from './engines/openai/openai-stt.js';
export * from './engines/espeak-ng/espeak-ng-tts.js';
export * from './voice-options.js';
export * from './turn-taking.js';
export * from './engines/index.js';

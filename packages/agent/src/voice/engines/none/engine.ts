/**
 * `none`, of either kind: no engine at all. A bot without speech to text does not listen (audio
 * it gets is answered with an error); without text to speech it answers in text only.
 */
import { defineSpeechEngine } from '../speech-engine.js';

export const noneSttEngine = defineSpeechEngine({
  name: 'none',
  kind: 'stt',
  description: 'the bot does not listen',
  capabilities: { streaming: false, sampleRates: [], offline: true },
  options: {},
  create: () => Promise.resolve(undefined),
});

export const noneTtsEngine = defineSpeechEngine({
  name: 'none',
  kind: 'tts',
  description: 'replies in text only',
  capabilities: { streaming: false, sampleRates: [], offline: true },
  options: {},
  create: () => Promise.resolve(undefined),
});

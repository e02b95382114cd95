/**
 * `none`, of either kind: no engine at all. A bot without speech to text does not listen (audio
 * it gets is answered with an error); without text to speech it answers in text only.
 */
import { defineSpeechEngine } from '../speech-engine.js';
import type { SpeechEngineKind } from '../speech-engine.js';

/** `none` of `kind`: no options, and no engine built. */
function noneEngine<K extends SpeechEngineKind>(kind: K, description: string) {
  return defineSpeechEngine({
    name: 'none',
    kind,
    description,
    capabilities: { streaming: false, sampleRates: [], offline: true },
    options: {},
    create: () => Promise.resolve(undefined),
  });
}

export const noneSttEngine = noneEngine('stt', 'the bot does not listen');

export const noneTtsEngine = noneEngine('tts', 'replies in text only');

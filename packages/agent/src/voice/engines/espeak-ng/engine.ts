/**
 * eSpeak NG as the registry declares it: offline, a program run per sentence, 22050 Hz, English
 * voices with accents (and many other languages); options: voice, rate (words per minute) and
 * pitch.
 */
import { defineSpeechEngine } from '../speech-engine.js';

export const espeakNgEngine = defineSpeechEngine({
  name: 'espeak-ng',
  kind: 'tts',
  description: 'eSpeak NG, English accents and many languages, Debian espeak-ng',
  capabilities: { streaming: false, sampleRates: [22_050], offline: true },
  options: {
    voice: {
      description: 'voice',
      type: 'string',
      values:
        'a language and accent: en-us, en-gb, en-gb-scotland, en-gb-x-rp, en-gb-x-gbclan, ' +
        'en-029 or another of espeak-ng --voices',
      default: 'en-us',
      setting: 'ttsVoice',
      valueName: 'name',
      perSpeaker: true,
      speakerDefaults: ['en-us', 'en-gb-scotland'],
    },
    rate: {
      description: 'speaking rate in words per minute',
      type: 'integer',
      min: 80,
      max: 450,
      default: 175,
      valueName: 'wpm',
    },
    pitch: {
      description: 'pitch',
      type: 'integer',
      min: 0,
      max: 99,
      default: 50,
      valueName: 'n',
    },
  },
  async create(settings, context: { sampleRate?: number; tuning?: { binary?: string } }) {
    const { createEspeakNgTextToSpeech } = await import('./espeak-ng-tts.js');
    return createEspeakNgTextToSpeech({
      ...context.tuning,
      voice: settings.voice,
      rate: settings.rate,
      pitch: settings.pitch,
      ...(context.sampleRate === undefined ? {} : { sampleRate: context.sampleRate }),
    });
  },
  label: (settings) =>
    `espeak-ng(${[
      settings.voice,
      ...(settings.rate === 175 ? [] : [`${settings.rate} wpm`]),
      ...(settings.pitch === 50 ? [] : [`pitch ${settings.pitch}`]),
    ].join(', ')})`,
});

/**
 * The Flite synthesizer as the registry declares it: offline, in-process (WASI), its voices
 * compiled in (16 kHz, `kal` 8 kHz), the whole sentence synthesized before its audio is given.
 */
import { defineSpeechEngine } from '../speech-engine.js';
import { FLITE_VOICES } from './voices.js';
import type { FliteVoice } from './voices.js';

export const fliteEngine = defineSpeechEngine({
  name: 'flite',
  kind: 'tts',
  description: 'Flite, US and Scottish English voices, in-process',
  capabilities: { streaming: false, sampleRates: [16_000, 8_000], offline: true },
  options: {
    voice: {
      description: 'voice',
      type: 'string',
      choices: FLITE_VOICES,
      default: 'slt',
      setting: 'ttsVoice',
      valueName: 'name',
      perSpeaker: true,
      speakerDefaults: ['slt', 'rms'],
    },
  },
  async create(settings, context) {
    const { createFliteTextToSpeech } = await import('./flite-tts.js');
    return createFliteTextToSpeech({
      voice: settings.voice as FliteVoice,
      ...(context.sampleRate === undefined ? {} : { sampleRate: context.sampleRate }),
    });
  },
  label: (settings) => `flite(${settings.voice})`,
});

import { describe, expect, it } from 'vitest';
import { engineValues, getSpeechEngine, resolveEngineSettings } from '@scenaro/agent/voice';
import { ACCENT_PERSONAS, CONTROL_PERSONAS } from '../caller/presets.js';
import { PERSONA_VOICES, personaVoiceSettings } from './persona-voices.js';

describe('persona voices', () => {
  it('every tau2 persona has a voice for Flite and eSpeak NG that the registry takes', () => {
    for (const persona of [...CONTROL_PERSONAS, ...ACCENT_PERSONAS]) {
      expect(PERSONA_VOICES[persona], persona).toBeDefined();
      for (const tts of ['flite', 'espeak-ng']) {
        const settings = personaVoiceSettings({ tts }, persona);
        const engine = getSpeechEngine('tts', tts);
        expect(() => resolveEngineSettings(engine, engineValues(engine, settings))).not.toThrow();
        expect(settings.ttsVoice, `${persona} ${tts}`).toBeDefined();
      }
    }
  });

  it('accent personas speak with accents eSpeak NG has, American ones with its US voice', () => {
    const voice = (persona: string) => personaVoiceSettings({ tts: 'espeak-ng' }, persona).ttsVoice;
    for (const persona of CONTROL_PERSONAS) expect(String(voice(persona))).toMatch(/^en-us/);
    for (const persona of ACCENT_PERSONAS)
      expect(String(voice(persona)), persona).toMatch(/^en-(gb|029|us-nyc)/);
    expect(new Set(ACCENT_PERSONAS.map(voice)).size).toBe(ACCENT_PERSONAS.length);
  });

  it('keeps the user bot its voice for an engine or persona the table does not know', () => {
    const own = { tts: 'openai', ttsVoice: 'echo' };
    expect(personaVoiceSettings(own, 'wei_lin')).toEqual(own);
    expect(personaVoiceSettings({ tts: 'flite', ttsVoice: 'rms' }, 'nobody')).toEqual({
      tts: 'flite',
      ttsVoice: 'rms',
    });
    // Flite is the default engine: no `tts` means Flite's table.
    expect(personaVoiceSettings({}, 'mamadou_diallo')).toEqual({ ttsVoice: 'awb' });
  });
});

/**
 * The caller personas' voices: each of tau2-bench's personas speaks, through the user bot's
 * text-to-speech engine, with the voice settings this table gives for that engine, as the
 * speech-engine registry names them (`ttsVoice`, `espeakNgRate`, `espeakNgPitch`): eSpeak NG's
 * English accents for the accent personas, Flite's voices (fewer: US and Scottish English) for
 * Flite. The engines have no Indian, West African or Chinese English voice, so the accent
 * personas get the other English accents they have (a stand-in for the persona's own accent,
 * which the recognizer still has to cope with). An engine the table has no entry for keeps the
 * user bot's own voice.
 *
 * @module
 */
import { DEFAULT_SPEECH_ENGINES } from '@scenaro/agent/voice';
import type { VoiceSettings } from '@scenaro/agent/voice';

/** A persona's voice per text-to-speech engine. */
export interface PersonaVoice {
  /** Who the persona is, in a few words (tau2's persona). */
  persona: string;
  /** Settings by engine name, in the registry's setting names. */
  engines: Readonly<Record<string, VoiceSettings>>;
}

export const PERSONA_VOICES: Readonly<Record<string, PersonaVoice>> = {
  lisa_brenner: {
    persona: 'American English, woman',
    engines: {
      flite: { ttsVoice: 'slt' },
      'espeak-ng': { ttsVoice: 'en-us+f3', espeakNgRate: 175 },
    },
  },
  matt_delaney: {
    persona: 'American English, man',
    engines: {
      flite: { ttsVoice: 'rms' },
      'espeak-ng': { ttsVoice: 'en-us', espeakNgRate: 175 },
    },
  },
  arjun_roy: {
    persona: 'Indian English, man',
    engines: {
      flite: { ttsVoice: 'kal16' },
      'espeak-ng': { ttsVoice: 'en-gb-x-gbcwmd', espeakNgRate: 165, espeakNgPitch: 45 },
    },
  },
  mamadou_diallo: {
    persona: 'West African (francophone) English, man',
    engines: {
      flite: { ttsVoice: 'awb' },
      'espeak-ng': { ttsVoice: 'en-029', espeakNgRate: 160, espeakNgPitch: 40 },
    },
  },
  mildred_kaplan: {
    persona: 'older New York English, woman, slow',
    engines: {
      flite: { ttsVoice: 'slt' },
      'espeak-ng': { ttsVoice: 'en-us-nyc+f4', espeakNgRate: 140, espeakNgPitch: 40 },
    },
  },
  priya_patil: {
    persona: 'Indian English, woman',
    engines: {
      flite: { ttsVoice: 'slt' },
      'espeak-ng': { ttsVoice: 'en-gb-x-gbclan+f2', espeakNgRate: 170, espeakNgPitch: 60 },
    },
  },
  wei_lin: {
    persona: 'Chinese (Mandarin) English, woman',
    engines: {
      flite: { ttsVoice: 'kal16' },
      'espeak-ng': { ttsVoice: 'en-gb-scotland+f5', espeakNgRate: 160, espeakNgPitch: 65 },
    },
  },
};

/**
 * The user bot's voice settings for `persona`: `user` with the persona's settings for the
 * engine `user` chooses; `user` unchanged for a persona or engine the table does not know.
 */
export function personaVoiceSettings(user: VoiceSettings, persona: string): VoiceSettings {
  const engine = String(user.tts ?? DEFAULT_SPEECH_ENGINES.tts);
  const own = Object.hasOwn(PERSONA_VOICES, persona)
    ? PERSONA_VOICES[persona]!.engines[engine]
    : undefined;
  return own ? { ...user, ...own } : user;
}

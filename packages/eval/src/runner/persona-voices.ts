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

/**
 * One row per persona: its tau2 name, who it is, its Flite voice, and its eSpeak NG voice, rate
 * (words per minute) and pitch (unset: eSpeak NG's own).
 */
type PersonaRow = readonly [
  name: string,
  persona: string,
  flite: string,
  espeakNg: string,
  rate: number,
  pitch?: number,
];

const ROWS: readonly PersonaRow[] = [
  ['lisa_brenner', 'American English, woman', 'slt', 'en-us+f3', 175],
  ['matt_delaney', 'American English, man', 'rms', 'en-us', 175],
  ['arjun_roy', 'Indian English, man', 'kal16', 'en-gb-x-gbcwmd', 165, 45],
  ['mamadou_diallo', 'West African (francophone) English, man', 'awb', 'en-029', 160, 40],
  ['mildred_kaplan', 'older New York English, woman, slow', 'slt', 'en-us-nyc+f4', 140, 40],
  ['priya_patil', 'Indian English, woman', 'slt', 'en-gb-x-gbclan+f2', 170, 60],
  ['wei_lin', 'Chinese (Mandarin) English, woman', 'kal16', 'en-gb-scotland+f5', 160, 65],
];

/** Each persona's voice per engine, by tau2 name (from the rows above). */
export const PERSONA_VOICES: Readonly<Record<string, PersonaVoice>> = Object.fromEntries(
  ROWS.map(([name, persona, flite, espeakNg, rate, pitch]) => [
    name,
    {
      persona,
      engines: {
        flite: { ttsVoice: flite },
        'espeak-ng': {
          ttsVoice: espeakNg,
          espeakNgRate: rate,
          ...(pitch === undefined ? {} : { espeakNgPitch: pitch }),
        },
      },
    },
  ]),
);

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

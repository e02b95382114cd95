/**
 * The voices the caller personas of a run speak with: for each persona, a user bot whose
 * text-to-speech engine is built through the speech-engine registry from the persona's settings
 * (`persona-voices.ts`), and the persona's backchannels said in that voice, at the relay's rate.
 * A persona whose settings are the user bot's own uses the user bot itself.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import {
  createSpeechEngine,
  DEFAULT_SPEECH_ENGINES,
  engineValues,
  getSpeechEngine,
  Resampler,
  synthesizeAll,
} from '@scenaro/agent/voice';
import type { TextToSpeech, VoiceOptions, VoiceSettings } from '@scenaro/agent/voice';
import { RELAY_SAMPLE_RATE } from '../bridge/audio-timeline.js';
import type { RelayClock } from '../bridge/audio-timeline.js';
import { BACKCHANNEL_TEXTS } from '../bridge/caller-line.js';
import type { LocalBots } from './bots.js';
import { personaVoiceSettings } from './persona-voices.js';

/** How one persona sounds in a run. */
export interface CallerVoice {
  /** The user bot that speaks with the persona's voice. */
  userUrl: string;
  /** The voice settings it was built from (the user bot's own when it has no settings). */
  settings?: VoiceSettings;
  /** "mm-hmm", "okay" and "right" in that voice: PCM16 mono at the relay's rate. */
  backchannels: Map<string, Uint8Array>;
}

export interface CallerVoicesOptions {
  bots: LocalBots;
  clock: RelayClock;
  /** The user bot's voice. */
  userVoice: VoiceOptions;
  /** Its settings; without them (voices given ready-made) every persona keeps the user's voice. */
  userSettings?: VoiceSettings;
}

/** The personas' voices of one run, made on first use. */
export class CallerVoices {
  readonly #options: CallerVoicesOptions;
  readonly #voices = new Map<string, Promise<CallerVoice>>();

  constructor(options: CallerVoicesOptions) {
    this.#options = options;
  }

  forPersona(persona: string): Promise<CallerVoice> {
    const base = this.#options.userSettings;
    const settings = base ? personaVoiceSettings(base, persona) : undefined;
    const key = settings && !isDeepStrictEqual(settings, base) ? JSON.stringify(settings) : '';
    let voice = this.#voices.get(key);
    if (!voice) {
      voice = this.#make(key === '' ? undefined : settings);
      this.#voices.set(key, voice);
    }
    return voice;
  }

  async #make(settings: VoiceSettings | undefined): Promise<CallerVoice> {
    const { bots, userVoice } = this.#options;
    if (!settings) {
      const tts = userVoice.tts;
      return {
        userUrl: bots.userUrl,
        ...(this.#options.userSettings ? { settings: this.#options.userSettings } : {}),
        backchannels: tts ? await backchannels(tts) : new Map(),
      };
    }
    const tts = await personaTts(settings, this.#options.clock);
    try {
      const userUrl = await bots.addUser({ ...userVoice, ...(tts ? { tts } : {}) });
      return { userUrl, settings, backchannels: tts ? await backchannels(tts) : new Map() };
    } catch (error) {
      await tts?.close();
      throw error;
    }
  }
}

/** The text-to-speech engine `settings` describe, built through the registry. */
async function personaTts(
  settings: VoiceSettings,
  clock: RelayClock,
): Promise<TextToSpeech | undefined> {
  const engine = getSpeechEngine('tts', String(settings.tts ?? DEFAULT_SPEECH_ENGINES.tts));
  const rate = engine.capabilities.sampleRates.includes(RELAY_SAMPLE_RATE)
    ? { sampleRate: RELAY_SAMPLE_RATE }
    : {};
  return createSpeechEngine('tts', engine.name, engineValues(engine, settings), {
    clock,
    ...rate,
    name: (option) => `the caller's voice: ${engine.name} ${option}`,
  });
}

/** The backchannels said by `tts`, at the relay's rate. */
async function backchannels(tts: TextToSpeech): Promise<Map<string, Uint8Array>> {
  const said = new Map<string, Uint8Array>();
  for (const text of BACKCHANNEL_TEXTS) {
    const pcm = await synthesizeAll(tts, text);
    if (tts.sampleRate === RELAY_SAMPLE_RATE) {
      said.set(text, pcm);
      continue;
    }
    const resampler = await Resampler.create({
      inputRate: tts.sampleRate,
      outputRate: RELAY_SAMPLE_RATE,
    });
    const head = resampler.processPcm16(pcm);
    const tail = resampler.flushPcm16();
    const whole = new Uint8Array(head.length + tail.length);
    whole.set(head);
    whole.set(tail, head.length);
    said.set(text, whole);
  }
  return said;
}

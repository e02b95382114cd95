/**
 * The caller's out-of-turn sounds, rendered when they are triggered: a vocal tic is its tags
 * (`.[cough][cough][cough]`) played as the bank's tic sounds with short gaps, at speech level;
 * a non-directed phrase is the caller's phrase said off-axis (quieter and muffled).
 */
import type { SpeechInsert } from './config.js';
import { renderOffAxis } from './muffle.js';
import type { OffAxisSpec } from './muffle.js';
import { concat, rms, snrGain } from './mixing.js';
import type { Prng } from './prng.js';
import { murmurPhrase } from './sound-bank.js';
import type { CallerSounds } from './sound-bank.js';
import { TIC_SOUNDS } from './stand-ins.js';

/** An insert ready to play. */
export interface RenderedInsert {
  item: SpeechInsert;
  samples: Float64Array;
  /** Tic sounds played, in order (tics only). */
  sounds: string[];
  rendering: 'speech' | 'murmur';
}

/** The tic sounds a tic's text names: `[cough]` tags; other tags count as a cough. */
export function ticSounds(text: string): string[] {
  const tags = [...text.matchAll(/\[([a-z_]+)\]/gi)].map((match) => match[1]!.toLowerCase());
  const known = TIC_SOUNDS as readonly string[];
  const sounds = tags.map((tag) => (known.includes(tag) ? tag : 'cough'));
  return sounds.length > 0 ? sounds : ['cough'];
}

/** Render `item` for playing into the stream at the speech level `referenceRms`. */
export function renderInsert(
  item: SpeechInsert,
  bank: CallerSounds,
  rng: Prng,
  referenceRms: number,
  offAxis: Required<OffAxisSpec>,
): RenderedInsert {
  const rate = bank.sampleRate;
  if (item.type === 'vocal_tic') {
    const sounds = ticSounds(item.text);
    const parts: Float64Array[] = [];
    for (const [i, name] of sounds.entries()) {
      const sound = bank.sounds.get(name);
      if (!sound) throw new RangeError(`tic sound ${name} is not in the sound bank`);
      if (i > 0) parts.push(new Float64Array(Math.round(rng.uniform(0.12, 0.3) * rate)));
      parts.push(Float64Array.from(sound.samples));
    }
    const samples = concat(parts);
    const gain = snrGain(0, rms(samples), referenceRms);
    return { item, samples: samples.map((x) => x * gain), sounds, rendering: 'speech' };
  }
  const phrase = bank.phrases.get(item.text);
  const spoken = phrase !== undefined && phrase.origin !== 'stand-in';
  const voice = phrase?.samples ?? murmurPhrase(item.text, rate);
  const level = snrGain(0, rms(voice), referenceRms);
  const normalized = Int16Array.from(voice, (x) =>
    Math.max(-32768, Math.min(32767, Math.round(x * level))),
  );
  const samples = Float64Array.from(renderOffAxis(normalized, rate, offAxis));
  return { item, samples, sounds: [], rendering: spoken ? 'speech' : 'murmur' };
}

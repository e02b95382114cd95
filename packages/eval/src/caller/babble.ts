/**
 * Sounds made from real words with our own speech synthesizer (Flite, through the agent
 * package's engine): the `people_talking` babble (several voices and speaking rates saying
 * everyday sentences at once), the TV talker, and the caller's non-directed phrases. Flite is
 * deterministic, and the order of sentences, pauses and levels come from a seeded generator,
 * so the sounds are the same on every run.
 */
import { createFliteTextToSpeech, pcm16ToInt16, synthesizeAll } from '@scenaro/agent/voice';
import type { FliteVoice, TextToSpeech } from '@scenaro/agent/voice';
import { concat } from './mixing.js';
import { hashString, Prng } from './prng.js';
import { LOOP_SECONDS, mixTalkers, television } from './stand-ins.js';
import { seamlessLoop, toPcm } from './synth.js';

/** Says `text` as talker `talker` (any integer: talkers differ in voice and pace). */
export interface Speaker {
  readonly sampleRate: number;
  say(text: string, talker: number): Promise<Int16Array>;
  close(): Promise<void>;
}

/** Everyday sentences the babble is made of (none about the tasks being evaluated). */
export const BABBLE_SENTENCES: readonly string[] = [
  'Did you see the game last night, it went into overtime again.',
  'We should get the blue one, it matches the curtains better.',
  'My sister is coming over on Sunday with the kids.',
  'The bakery on the corner has the best bread in town.',
  'I left my umbrella on the bus this morning.',
  'Can you pass me the salt and the pepper, please.',
  'They are fixing the road outside, so it is noisy all day.',
  'I think the meeting got moved to Thursday afternoon.',
  'Have you tried the new coffee place near the station.',
  'The garden looks lovely now that the roses are out.',
  'He said he would call back after lunch, but he never did.',
  'Let us watch the rest of the movie tomorrow.',
];

/** Talkers of the Flite speaker: voice and speaking rate. */
export const FLITE_TALKERS: readonly { voice: FliteVoice; rate: number }[] = [
  { voice: 'slt', rate: 1 },
  { voice: 'rms', rate: 1 },
  { voice: 'awb', rate: 1.05 },
  { voice: 'kal16', rate: 0.95 },
  { voice: 'slt', rate: 1.15 },
  { voice: 'rms', rate: 0.88 },
];

/** A {@link Speaker} on Flite at `sampleRate` (one engine per talker, made on first use). */
export function createFliteSpeaker(sampleRate = 16000): Speaker {
  const engines = new Map<number, TextToSpeech>();
  return {
    sampleRate,
    async say(text, talker) {
      const index = ((talker % FLITE_TALKERS.length) + FLITE_TALKERS.length) % FLITE_TALKERS.length;
      let engine = engines.get(index);
      if (!engine) {
        const { voice, rate } = FLITE_TALKERS[index]!;
        engine = createFliteTextToSpeech({ voice, rate, sampleRate, workers: 1 });
        engines.set(index, engine);
      }
      return pcm16ToInt16(await synthesizeAll(engine, text));
    },
    async close() {
      await Promise.all([...engines.values()].map((engine) => engine.close()));
      engines.clear();
    },
  };
}

/** How much babble to make. */
export interface BabbleOptions {
  /** Talkers at once (default 6). */
  talkers?: number;
  /** Sentences each talker says before its part repeats (default 3). */
  sentencesPerTalker?: number;
  /** Length of the loop, seconds (default {@link LOOP_SECONDS}). */
  seconds?: number;
}

/** One talker's part: sentences in a seeded order with pauses between them. */
async function talkerPart(
  speaker: Speaker,
  talker: number,
  sentences: number,
  rng: Prng,
): Promise<Float64Array> {
  const parts: Float64Array[] = [];
  const order = [...BABBLE_SENTENCES];
  for (let i = 0; i < sentences && order.length > 0; i++) {
    const [sentence] = order.splice(rng.int(order.length), 1);
    parts.push(Float64Array.from(await speaker.say(sentence!, talker)));
    parts.push(new Float64Array(Math.round(rng.uniform(0.2, 0.8) * speaker.sampleRate)));
  }
  return concat(parts);
}

/** `people_talking` from real speech: talkers mixed at seeded levels, looped seamlessly. */
export async function speechBabble(
  speaker: Speaker,
  options: BabbleOptions = {},
): Promise<Int16Array> {
  const rng = new Prng(hashString('people_talking'), 'speech-babble');
  const seconds = options.seconds ?? LOOP_SECONDS;
  const talkers: Float64Array[] = [];
  for (let talker = 0; talker < (options.talkers ?? 6); talker++) {
    talkers.push(await talkerPart(speaker, talker, options.sentencesPerTalker ?? 3, rng));
  }
  const mix = mixTalkers(talkers, rng, Math.round(seconds * speaker.sampleRate));
  return toPcm(seamlessLoop(mix, 0.5, speaker.sampleRate));
}

/** `medium_size_room_tv_news_iphone_mic` from real speech: one talker on a TV across the room. */
export async function speechTelevision(speaker: Speaker, sentences = 6): Promise<Int16Array> {
  const rng = new Prng(hashString('medium_size_room_tv_news_iphone_mic'), 'speech-tv');
  const part = await talkerPart(speaker, 1, sentences, rng);
  return toPcm(seamlessLoop(television(part, speaker.sampleRate, rng), 0.5, speaker.sampleRate));
}

/** The caller's phrases, each said once by `talker`. */
export async function speechPhrases(
  speaker: Speaker,
  texts: readonly string[],
  talker = 0,
): Promise<Map<string, Int16Array>> {
  const phrases = new Map<string, Int16Array>();
  for (const text of new Set(texts)) phrases.set(text, await speaker.say(text, talker));
  return phrases;
}

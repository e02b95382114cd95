/**
 * Synthetic stand-ins for the recordings tau2-bench mixes into the caller's audio, under the
 * same names. They are not those recordings (which are not ours to ship) but sounds of the same
 * kind, made from noise, tones and a wordless "murmur" voice, the same on every run:
 *
 * - continuous (looped): `people_talking` (six murmur voices), `medium_size_room_tv_news_iphone_mic`
 *   (one steady talker through a small speaker in a reverberant room), `busy_street_iphone_mic`
 *   (traffic rumble with cars passing), `street_and_metro_station_iphone_mic` (deeper rumble, a
 *   train's wheel squeal, distant voices);
 * - bursts: `ringing_phone` (440 + 480 Hz, 2 s on, 4 s off, 2 s on), `dog_bark`, `car_horn`,
 *   `engine_idling`, `siren`, `door_slam`;
 * - vocal tics: `cough`, `sneeze`, `sniffle`.
 *
 * With a speech synthesizer at hand, `people_talking` and the TV are better made from real
 * words (see `babble.ts`); the murmur versions here need nothing.
 */
import { hashString, Prng } from './prng.js';
import {
  addAt,
  attackDecay,
  band,
  brown,
  buffer,
  fadeEdges,
  murmur,
  partials,
  pass,
  pink,
  seamlessLoop,
  toPcm,
  white,
} from './synth.js';
import type { MurmurVoice } from './synth.js';

/** Looped background sounds. */
export const CONTINUOUS_SOUNDS = [
  'people_talking',
  'medium_size_room_tv_news_iphone_mic',
  'busy_street_iphone_mic',
  'street_and_metro_station_iphone_mic',
] as const;
/** One-shot noise bursts. */
export const BURST_SOUNDS = [
  'ringing_phone',
  'dog_bark',
  'car_horn',
  'engine_idling',
  'siren',
  'door_slam',
] as const;
/** Vocal tic sounds (the tags of a tic such as `.[cough][cough]`). */
export const TIC_SOUNDS = ['cough', 'sneeze', 'sniffle'] as const;

export type ContinuousSound = (typeof CONTINUOUS_SOUNDS)[number];
export type BurstSound = (typeof BURST_SOUNDS)[number];
export type TicSound = (typeof TIC_SOUNDS)[number];
export type StandInName = ContinuousSound | BurstSound | TicSound;

/** Every stand-in name. */
export const STAND_IN_NAMES: readonly StandInName[] = [
  ...CONTINUOUS_SOUNDS,
  ...BURST_SOUNDS,
  ...TIC_SOUNDS,
];

/** Length of the continuous loops, seconds. */
export const LOOP_SECONDS = 30;

/** Murmur talkers of different pitch, pace and vocal tract. */
export const MURMUR_VOICES: readonly MurmurVoice[] = [
  { pitchHz: 110, syllableRate: 4.2, formantScale: 1 },
  { pitchHz: 205, syllableRate: 4.8, formantScale: 1.17 },
  { pitchHz: 130, syllableRate: 3.9, formantScale: 1.03 },
  { pitchHz: 180, syllableRate: 5.1, formantScale: 1.12 },
  { pitchHz: 95, syllableRate: 4.5, formantScale: 0.97 },
  { pitchHz: 230, syllableRate: 4.4, formantScale: 1.2 },
];

/** A small room: parallel feedback combs mixed under the dry sound. */
export function roomReverb(dry: Float64Array, sampleRate: number, wet = 0.35): Float64Array {
  const out = dry.slice();
  for (const ms of [29.7, 37.1, 41.1, 43.7]) {
    const delay = Math.round((ms * sampleRate) / 1000);
    const comb = new Float64Array(dry.length);
    for (let i = 0; i < dry.length; i++)
      comb[i] = dry[i]! + (i >= delay ? 0.72 * comb[i - delay]! : 0);
    for (let i = 0; i < dry.length; i++) out[i]! += (wet / 4) * comb[i]!;
  }
  return out;
}

/** Several talkers at once: `voices` summed at seeded levels and offsets. */
export function mixTalkers(
  voices: readonly Float64Array[],
  rng: Prng,
  length: number,
): Float64Array {
  const out = new Float64Array(length);
  for (const voice of voices) {
    if (voice.length === 0) continue;
    const gain = 10 ** (rng.uniform(-8, 0) / 20);
    const offset = rng.int(voice.length);
    for (let i = 0; i < length; i++) out[i]! += gain * voice[(offset + i) % voice.length]!;
  }
  return out;
}

/** Babble of the murmur voices (the synthetic `people_talking`). */
export function murmurBabble(seconds: number, sampleRate: number, rng: Prng): Float64Array {
  const length = Math.round(seconds * sampleRate);
  const voices = MURMUR_VOICES.map((voice) => murmur(seconds, voice, rng, sampleRate));
  return mixTalkers(voices, rng, length);
}

/** A television across the room: a talker band-limited to a small speaker, with reverb. */
export function television(talker: Float64Array, sampleRate: number, rng: Prng): Float64Array {
  const speaker = pass(
    pass(talker, 'highpass', 180, sampleRate, 4),
    'lowpass',
    5000,
    sampleRate,
    4,
  );
  const room = roomReverb(speaker, sampleRate, 0.5);
  const hiss = pass(white(room.length, rng), 'lowpass', 6000, sampleRate);
  addAt(room, hiss, 0, 0.004 * peakOf(room));
  return room;
}

const peakOf = (samples: Float64Array): number =>
  samples.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

function street(sampleRate: number, rng: Prng, metro: boolean): Float64Array {
  const length = Math.round(LOOP_SECONDS * sampleRate);
  const rumble = pass(brown(length, rng, sampleRate), 'lowpass', metro ? 250 : 400, sampleRate);
  const hiss = pass(pink(length, rng, sampleRate), 'lowpass', 3500, sampleRate);
  const out = new Float64Array(length);
  addAt(out, rumble, 0, 1 / Math.max(1e-9, peakOf(rumble)));
  addAt(out, hiss, 0, 0.25 / Math.max(1e-9, peakOf(hiss)));
  // Passing vehicles: band-limited noise under a bell-shaped swell.
  for (let t = rng.uniform(0, 3); t < LOOP_SECONDS; t += rng.uniform(2.5, 6)) {
    const pass_ = band(
      white(Math.round(3 * sampleRate), rng),
      rng.uniform(250, 700),
      0.7,
      sampleRate,
    );
    const swell = pass_.map((x, i) => x * Math.exp(-(((i / pass_.length - 0.5) * 4) ** 2)));
    addAt(out, swell, Math.round(t * sampleRate), rng.uniform(0.15, 0.4));
  }
  if (metro) {
    // A train's wheel squeal now and then, and people further away.
    for (let t = rng.uniform(2, 6); t < LOOP_SECONDS - 4; t += rng.uniform(9, 14)) {
      const squeal = partials([[rng.uniform(2200, 3200), 1]], 3, sampleRate);
      const wobble = squeal.map(
        (x, i) => x * (0.5 + 0.5 * Math.sin((2 * Math.PI * 5 * i) / sampleRate)),
      );
      addAt(out, fadeEdges(wobble, 1, sampleRate), Math.round(t * sampleRate), 0.08);
    }
    const crowd = murmurBabble(LOOP_SECONDS, sampleRate, rng);
    addAt(out, pass(crowd, 'lowpass', 2000, sampleRate), 0, 0.3 / Math.max(1e-9, peakOf(crowd)));
  }
  return out;
}

function ringingPhone(sampleRate: number): Float64Array {
  const ring = fadeEdges(
    partials(
      [
        [440, 1],
        [480, 1],
      ],
      2,
      sampleRate,
    ),
    0.01,
    sampleRate,
  );
  const out = buffer(8, sampleRate);
  addAt(out, ring, 0);
  addAt(out, ring, 6 * sampleRate);
  return out;
}

function dogBark(sampleRate: number, rng: Prng): Float64Array {
  const out = buffer(1.6, sampleRate);
  let at = 0.05;
  for (let k = 0; k < 3; k++) {
    const length = Math.round(rng.uniform(0.16, 0.24) * sampleRate);
    const bark = new Float64Array(length);
    let phase = 0;
    const f0 = rng.uniform(420, 560);
    for (let i = 0; i < length; i++) {
      phase += (f0 * (1 - 0.35 * (i / length))) / sampleRate;
      bark[i] = (phase % 1) * 2 - 1 + 0.5 * rng.gaussian();
    }
    const shaped = attackDecay(
      band(bark, rng.uniform(900, 1300), 1.2, sampleRate),
      0.008,
      0.15,
      sampleRate,
    );
    addAt(out, shaped, Math.round(at * sampleRate));
    at += length / sampleRate + rng.uniform(0.22, 0.35);
  }
  return out;
}

function carHorn(sampleRate: number): Float64Array {
  const tone = (seconds: number) =>
    fadeEdges(
      partials(
        [420, 520].flatMap((f) => [1, 2, 3, 4, 5].map((h) => [f * h, 1 / h] as const)),
        seconds,
        sampleRate,
      ),
      0.02,
      sampleRate,
    );
  const out = buffer(1.7, sampleRate);
  addAt(out, tone(0.45), 0);
  addAt(out, tone(0.9), Math.round(0.65 * sampleRate));
  return out;
}

function engineIdling(sampleRate: number, rng: Prng): Float64Array {
  const length = Math.round(4 * sampleRate);
  const pulses = new Float64Array(length);
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const before = phase;
    phase += (26 + 1.5 * Math.sin((2 * Math.PI * 0.7 * i) / sampleRate)) / sampleRate;
    if (Math.floor(phase) > Math.floor(before)) pulses[i] = rng.uniform(0.7, 1.3);
  }
  const body = pass(pass(pulses, 'lowpass', 180, sampleRate, 4), 'highpass', 20, sampleRate);
  const rattle = pass(white(length, rng), 'lowpass', 900, sampleRate);
  addAt(body, rattle, 0, 0.03 * peakOf(body));
  return fadeEdges(body, 0.3, sampleRate);
}

function siren(sampleRate: number): Float64Array {
  const out = buffer(4, sampleRate);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const hz = 1100 + 400 * Math.sin((2 * Math.PI * 0.5 * i) / sampleRate);
    phase += hz / sampleRate;
    const p = 2 * Math.PI * phase;
    out[i] = Math.sin(p) + 0.3 * Math.sin(2 * p) + 0.15 * Math.sin(3 * p);
  }
  return fadeEdges(out, 0.4, sampleRate);
}

function doorSlam(sampleRate: number, rng: Prng): Float64Array {
  const out = buffer(0.9, sampleRate);
  const thump = attackDecay(
    pass(white(out.length, rng), 'lowpass', 220, sampleRate, 4),
    0.002,
    0.35,
    sampleRate,
  );
  const panel = attackDecay(
    partials(
      [
        [118, 1],
        [237, 0.4],
      ],
      0.9,
      sampleRate,
    ),
    0.001,
    0.5,
    sampleRate,
  );
  const latch = attackDecay(
    band(white(Math.round(0.03 * sampleRate), rng), 2500, 1, sampleRate),
    0.0005,
    0.02,
    sampleRate,
  );
  addAt(out, thump, 0, 1 / Math.max(1e-9, peakOf(thump)));
  addAt(out, panel, 0, 0.5);
  addAt(out, latch, Math.round(0.004 * sampleRate), 0.4 / Math.max(1e-9, peakOf(latch)));
  return out;
}

function cough(sampleRate: number, rng: Prng): Float64Array {
  const length = Math.round(0.38 * sampleRate);
  const burst = band(white(length, rng), rng.uniform(500, 800), 0.8, sampleRate);
  const voice = murmur(
    0.38,
    { pitchHz: 140, syllableRate: 3, formantScale: 1 },
    rng,
    sampleRate,
    false,
  );
  addAt(burst, voice, 0, 0.6 * (peakOf(burst) / Math.max(1e-9, peakOf(voice))));
  return attackDecay(burst, 0.012, 0.28, sampleRate);
}

function sneeze(sampleRate: number, rng: Prng): Float64Array {
  const out = buffer(0.85, sampleRate);
  const inhale = band(white(Math.round(0.35 * sampleRate), rng), 1800, 1.5, sampleRate);
  const swell = inhale.map((x, i) => x * (i / inhale.length) ** 2 * 0.3);
  const burst = attackDecay(
    pass(white(Math.round(0.45 * sampleRate), rng), 'highpass', 1200, sampleRate),
    0.005,
    0.3,
    sampleRate,
  );
  addAt(out, swell, 0);
  addAt(out, burst, Math.round(0.4 * sampleRate));
  return out;
}

function sniffle(sampleRate: number, rng: Prng): Float64Array {
  const length = Math.round(0.18 * sampleRate);
  const air = band(white(length, rng), 3500, 1.2, sampleRate);
  return air.map((x, i) => x * Math.sin((Math.PI * i) / length) ** 2);
}

const rendered = new Map<string, Int16Array>();

/**
 * The stand-in `name` at `sampleRate` as 16-bit samples (peak at 70 % of full scale). Loops are
 * {@link LOOP_SECONDS} long minus a cross-fade and repeat seamlessly. Each sound is made once
 * per process and rate; callers get their own copy.
 */
export function standInSound(name: StandInName, sampleRate: number): Int16Array {
  const key = `${name}@${sampleRate}`;
  let samples = rendered.get(key);
  if (!samples) {
    samples = renderStandIn(name, sampleRate);
    rendered.set(key, samples);
  }
  return samples.slice();
}

/** Make the stand-in `name` (uncached; see {@link standInSound}). */
export function renderStandIn(name: StandInName, sampleRate: number): Int16Array {
  const rng = new Prng(hashString(name), 'stand-in');
  const loop = (samples: Float64Array) => toPcm(seamlessLoop(samples, 0.5, sampleRate));
  switch (name) {
    case 'people_talking':
      return loop(murmurBabble(LOOP_SECONDS, sampleRate, rng));
    case 'medium_size_room_tv_news_iphone_mic':
      return loop(
        television(murmur(LOOP_SECONDS, MURMUR_VOICES[2]!, rng, sampleRate), sampleRate, rng),
      );
    case 'busy_street_iphone_mic':
      return loop(street(sampleRate, rng, false));
    case 'street_and_metro_station_iphone_mic':
      return loop(street(sampleRate, rng, true));
    case 'ringing_phone':
      return toPcm(ringingPhone(sampleRate));
    case 'dog_bark':
      return toPcm(dogBark(sampleRate, rng));
    case 'car_horn':
      return toPcm(carHorn(sampleRate));
    case 'engine_idling':
      return toPcm(engineIdling(sampleRate, rng));
    case 'siren':
      return toPcm(siren(sampleRate));
    case 'door_slam':
      return toPcm(doorSlam(sampleRate, rng));
    case 'cough':
      return toPcm(cough(sampleRate, rng));
    case 'sneeze':
      return toPcm(sneeze(sampleRate, rng));
    case 'sniffle':
      return toPcm(sniffle(sampleRate, rng));
  }
}

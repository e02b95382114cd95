import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav, int16ToPcm16 } from '@scenaro/agent/voice';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmsOf, sameSamples, tone } from '../test-support/caller-signals.js';
import { createFliteSpeaker, speechBabble, speechPhrases } from './babble.js';
import { createStandInSounds, loadNoiseDir, NoiseDirError, soundName } from './sound-bank.js';
import type { CallerSounds } from './sound-bank.js';
import { renderStandIn, STAND_IN_NAMES, standInSound } from './stand-ins.js';
import { ticSounds } from './inserts.js';

const RATE = 16000;

/** Power of `samples` at `hz` (Goertzel), normalized by the total power. */
function toneShare(samples: Int16Array, hz: number): number {
  const w = (2 * Math.PI * hz) / RATE;
  let s1 = 0;
  let s2 = 0;
  let total = 0;
  for (const x of samples) {
    const s0 = x + 2 * Math.cos(w) * s1 - s2;
    s2 = s1;
    s1 = s0;
    total += x * x;
  }
  const power = s1 * s1 + s2 * s2 - 2 * Math.cos(w) * s1 * s2;
  return (2 * power) / (samples.length * total);
}

describe('stand-in sounds', () => {
  it('are the same on every call and none is silent', () => {
    for (const name of STAND_IN_NAMES) {
      const a = standInSound(name, RATE);
      expect(sameSamples(a, renderStandIn(name, RATE))).toBe(true);
      expect(rmsOf(a)).toBeGreaterThan(500);
    }
  });

  it('ring in a 440 + 480 Hz cadence: 2 s on, 4 s off, 2 s on', () => {
    const ring = standInSound('ringing_phone', RATE);
    expect(ring.length).toBe(8 * RATE);
    const on1 = ring.slice(0.1 * RATE, 1.9 * RATE);
    expect(rmsOf(on1)).toBeGreaterThan(5000);
    expect(rmsOf(ring, 2.05 * RATE, 5.95 * RATE)).toBe(0);
    expect(rmsOf(ring, 6.1 * RATE, 7.9 * RATE)).toBeCloseTo(rmsOf(on1), -1);
    expect(toneShare(on1, 440) + toneShare(on1, 480)).toBeGreaterThan(0.95);
    expect(toneShare(on1, 1000)).toBeLessThan(0.001);
  });

  it('make bursts of a few seconds at most, tics under a second and 30 s loops that wrap cleanly', () => {
    for (const name of ['dog_bark', 'car_horn', 'engine_idling', 'siren', 'door_slam'] as const) {
      expect(standInSound(name, RATE).length).toBeLessThanOrEqual(5 * RATE);
    }
    for (const name of ['cough', 'sneeze', 'sniffle'] as const) {
      expect(standInSound(name, RATE).length).toBeLessThan(RATE);
    }
    for (const name of ['people_talking', 'busy_street_iphone_mic'] as const) {
      const loop = standInSound(name, RATE);
      expect(loop.length).toBe(29.5 * RATE);
      let largest = 0;
      for (let i = 1; i < loop.length; i++)
        largest = Math.max(largest, Math.abs(loop[i]! - loop[i - 1]!));
      expect(Math.abs(loop[0]! - loop[loop.length - 1]!)).toBeLessThanOrEqual(largest);
    }
  });

  it('name tic sounds from the tags of a tic', () => {
    expect(ticSounds('.[cough][cough][cough]')).toEqual(['cough', 'cough', 'cough']);
    expect(ticSounds('.[Sneeze] [sniffle]')).toEqual(['sneeze', 'sniffle']);
    expect(ticSounds('.[hiccup]')).toEqual(['cough']);
    expect(ticSounds('um')).toEqual(['cough']);
    expect(soundName('dir/dog_bark.WAV')).toBe('dog_bark');
    expect(soundName('people_talking')).toBe('people_talking');
  });
});

describe('--noise-dir', () => {
  let dir: string;
  let base: CallerSounds;
  const wav = (samples: Int16Array, sampleRate = RATE, channels = 1) =>
    encodeWav({ pcm: int16ToPcm16(samples), sampleRate, channels });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'noise-dir-'));
    base = await createStandInSounds({
      sampleRate: RATE,
      names: ['dog_bark', 'people_talking', 'cough'],
    });
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function layout(name: string, files: Record<string, Uint8Array>): Promise<string> {
    const root = join(dir, name);
    for (const [path, bytes] of Object.entries(files)) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), bytes);
    }
    return root;
  }

  it('replaces sounds by name, resampling, in tau2 layout or flat', async () => {
    const root = await layout('good', {
      'bursts/dog_bark.wav': wav(tone(600, 1, 8000), 8000),
      'continuous/people_talking.wav': wav(tone(300, 2, RATE)),
      'siren.wav': wav(tone(900, 1, RATE)),
      'my_cat.wav': wav(tone(700, 1, RATE)),
    });
    const { sounds, loaded, ignored } = await loadNoiseDir(root, base);
    expect(loaded).toEqual(['dog_bark', 'people_talking', 'siren']);
    expect(ignored).toEqual([join(root, 'my_cat.wav')]);
    const bark = sounds.sounds.get('dog_bark')!;
    expect(bark).toMatchObject({ origin: 'file', path: join(root, 'bursts/dog_bark.wav') });
    expect(bark.samples.length).toBe(RATE);
    expect(sounds.sounds.get('cough')!.origin).toBe('stand-in');
    expect(base.sounds.get('dog_bark')!.origin).toBe('stand-in');
  });

  it('refuses bad files with the path and the reason', async () => {
    const eightBit = wav(tone(600, 1, RATE));
    new DataView(eightBit.buffer).setUint16(34, 8, true);
    const cases: [Record<string, Uint8Array>, RegExp][] = [
      [
        { 'dog_bark.wav': wav(tone(600, 1, RATE), RATE, 2) },
        /dog_bark\.wav: must be mono, has 2 channels/,
      ],
      [{ 'dog_bark.wav': eightBit }, /dog_bark\.wav: unsupported WAV bit depth 8/],
      [
        { 'dog_bark.wav': new TextEncoder().encode('not audio') },
        /dog_bark\.wav: not a RIFF\/WAVE file/,
      ],
      [{ 'dog_bark.wav': wav(new Int16Array(RATE)) }, /dog_bark\.wav: is silent/],
      [{ 'people_talking.wav': wav(tone(300, 0.5, RATE)) }, /at least 1 s/],
      [{ 'dog_bark.wav': wav(tone(300, 31, 8000), 8000) }, /at most 30 s/],
      [
        { 'dog_bark.wav': wav(tone(600, 1, RATE)), 'bursts/dog_bark.wav': wav(tone(600, 1, RATE)) },
        /dog_bark is also at/,
      ],
      [{ 'readme.txt': new Uint8Array(1) }, /holds no \.wav files/],
    ];
    for (const [i, [files, message]] of cases.entries()) {
      const root = await layout(`bad${i}`, files);
      const error = await loadNoiseDir(root, base).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NoiseDirError);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('sounds from our speech synthesizer', () => {
  it('makes the same babble and phrases on every run', async () => {
    const speaker = createFliteSpeaker(RATE);
    try {
      const options = { talkers: 2, sentencesPerTalker: 1, seconds: 4 };
      const a = await speechBabble(speaker, options);
      const b = await speechBabble(speaker, options);
      expect(a.length).toBe(3.5 * RATE);
      expect(sameSamples(a, b)).toBe(true);
      expect(rmsOf(a)).toBeGreaterThan(1000);
      const phrases = await speechPhrases(speaker, ['One second.']);
      expect(phrases.get('One second.')!.length).toBeGreaterThan(0.3 * RATE);
    } finally {
      await speaker.close();
    }
  });
});

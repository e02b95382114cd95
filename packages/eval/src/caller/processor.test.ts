import { beforeAll, describe, expect, it } from 'vitest';
import { powerFractionAbove, rmsOf, sameSamples } from '../test-support/caller-signals.js';
import { controlEffects } from './config.js';
import type { CallerEffects } from './config.js';
import { eventsOf } from './events.js';
import type { CallerEffectEvent } from './events.js';
import { presetEffects } from './presets.js';
import { CallerEffectsProcessor } from './processor.js';
import type { ChunkInfo } from './processor.js';
import { Prng } from './prng.js';
import { createStandInSounds } from './sound-bank.js';
import type { CallerSounds } from './sound-bank.js';
import { MURMUR_VOICES } from './stand-ins.js';
import { murmur, toPcm } from './synth.js';
import { telephonyBandLimit } from './telephony.js';

const RATE = 16000;
let bank: CallerSounds;

beforeAll(async () => {
  bank = await createStandInSounds({ sampleRate: RATE });
});

/** A caller: `talk` seconds of murmur speech, `pause` seconds of silence, repeated. */
function caller(seconds: number, talk = 2.5, pause = 2): { pcm: Int16Array; speaking: boolean[] } {
  const pcm = new Int16Array(seconds * RATE);
  const speaking: boolean[] = new Array<boolean>(pcm.length).fill(false);
  const rng = new Prng(5, 'caller');
  for (let t = 0.5; t + talk < seconds; t += talk + pause) {
    const voice = toPcm(murmur(talk, MURMUR_VOICES[1]!, rng, RATE, false), 0.3);
    pcm.set(voice, Math.round(t * RATE));
    speaking.fill(true, Math.round(t * RATE), Math.round((t + talk) * RATE));
  }
  return { pcm, speaking };
}

/** The control caller's effects without the telephone line: only the effect under test acts. */
function offTheLine(): CallerEffects {
  const effects = controlEffects();
  effects.telephony_enabled = false;
  return effects;
}

/** `effects` with frame drops on: 5% of the frames, in bursts of up to 100 ms (`config` adds to it). */
function withFrameDrops(
  effects: CallerEffects,
  config: Partial<CallerEffects['channel_effects_config']> = {},
): CallerEffects {
  Object.assign(effects.channel_effects_config, {
    enable_frame_drops: true,
    frame_drop_rate: 0.05,
    frame_drop_burst_duration_ms: 100,
    ...config,
  });
  return effects;
}

/** Run a whole input through a processor in chunks of the given sizes (cycled). */
function run(
  effects: CallerEffects,
  seed: number,
  input: Int16Array,
  sizes: readonly number[] = [256],
  speaking?: boolean[],
) {
  const processor = new CallerEffectsProcessor({ effects, seed, sounds: bank });
  const out = new Int16Array(input.length);
  const events: CallerEffectEvent[] = [];
  let at = 0;
  for (let k = 0; at < input.length; k++) {
    const size = Math.min(sizes[k % sizes.length]!, input.length - at);
    const info: ChunkInfo = speaking ? { speaking: speaking[at]! } : {};
    const result = processor.process(input.subarray(at, at + size), info);
    expect(result.pcm.length).toBe(size);
    out.set(result.pcm, at);
    events.push(...result.events);
    at += size;
  }
  events.push(...processor.finish());
  return { out, events, processor };
}

/** Everything on at high rates, so a minute holds many events of every kind. */
function busy(seed = 77): CallerEffects {
  const effects = presetEffects('regular', seed);
  effects.channel_effects_config.frame_drop_rate = 0.05;
  effects.source_effects_config.burst_noise_events_per_minute = 12;
  effects.speech_effects_config.muffle_probability = 1;
  effects.speech_effects_config.speech_insert_events_per_minute = 40;
  return effects;
}

const kinds = (events: CallerEffectEvent[]) => new Set(events.map((event) => event.kind));
const window = (event: CallerEffectEvent) =>
  [Math.round(event.start * RATE), Math.round(event.end * RATE)] as const;

describe('CallerEffectsProcessor', () => {
  it('gives byte-identical output and events for the same seed, and others for another seed', () => {
    const { pcm } = caller(60, 2.5, 3);
    const a = run(busy(), 1234, pcm);
    const b = run(busy(), 1234, pcm);
    expect(sameSamples(a.out, b.out)).toBe(true);
    expect(b.events).toEqual(a.events);
    expect(kinds(a.events)).toEqual(
      new Set([
        'noise_burst',
        'frame_drop',
        'muffled_segment',
        'non_directed_phrase',
        'vocal_tic',
        'background_noise',
        'telephony',
      ]),
    );
    // Every event lies within the stream, and they come in order of their end.
    for (const [i, event] of a.events.entries()) {
      expect(event.start).toBeGreaterThanOrEqual(0);
      expect(event.end).toBeGreaterThanOrEqual(event.start);
      expect(event.end).toBeLessThanOrEqual(60);
      if (i > 0) expect(event.end).toBeGreaterThanOrEqual(a.events[i - 1]!.end);
    }
    const c = run(busy(), 1235, pcm);
    expect(sameSamples(a.out, c.out)).toBe(false);
    expect(c.events).not.toEqual(a.events);
  });

  it('gives the same bytes and events in any chunking as at once', () => {
    const { pcm } = caller(40);
    const whole = run(busy(), 9, pcm, [pcm.length]);
    const rng = new Prng(3, 'sizes');
    const sizes = Array.from({ length: 97 }, () => 1 + rng.int(3000));
    const chunked = run(busy(), 9, pcm, sizes);
    expect(sameSamples(chunked.out, whole.out)).toBe(true);
    expect(chunked.events).toEqual(whole.events);
    expect(run(busy(), 9, pcm, [1, 2, 3, 511]).events).toEqual(whole.events);
  });

  it('under control does telephony only, exactly', () => {
    const { pcm } = caller(10);
    const { out, events, processor } = run(controlEffects(), 1, pcm, [256]);
    expect(sameSamples(out, telephonyBandLimit(pcm, RATE))).toBe(true);
    expect(events).toEqual([
      {
        kind: 'telephony',
        start: 0,
        end: 10,
        detail: {
          codec: 'G.711 mu-law',
          sampleRate: 8000,
          bandHz: [300, 3400],
          delayMs: (processor.delay * 1000) / RATE,
        },
      },
    ]);
  });

  it('silences exactly the frame-drop events (no telephony)', () => {
    const effects = withFrameDrops(offTheLine(), { frame_drop_duration_ms: 20 });
    const input = new Int16Array(RATE * 60).fill(1200);
    const { out, events } = run(effects, 4, input, [320, 17]);
    const drops = eventsOf(events, 'frame_drop');
    expect(drops.length).toBeGreaterThan(20);
    let silenced = 0;
    for (const drop of drops) {
      const [start, end] = window(drop);
      expect(out.subarray(start, end).every((x) => x === 0)).toBe(true);
      expect(end - start).toBe(drop.detail.frames * 320);
      silenced += end - start;
    }
    expect(out.filter((x) => x === 0).length).toBe(silenced);
    expect(out.filter((x) => x === 1200).length).toBe(input.length - silenced);
  });

  it('drops frames inside the telephone channel where the events say', () => {
    const effects = withFrameDrops(controlEffects());
    const { pcm } = caller(30, 29, 0);
    const { out, events, processor } = run(effects, 4, pcm);
    const drops = eventsOf(events, 'frame_drop');
    expect(drops.length).toBeGreaterThan(3);
    const edge = processor.delay;
    for (const drop of drops) {
      const [start, end] = window(drop);
      const inner = out.subarray(start + edge, end - edge);
      expect(rmsOf(inner)).toBeLessThan(20);
      expect(rmsOf(out, start - 2400, start - edge)).toBeGreaterThan(200);
    }
  });

  it('mixes bursts at their SNR, and nothing outside their events', () => {
    const effects = offTheLine();
    effects.burst_noise_files = ['siren.wav', 'engine_idling.wav', 'car_horn.wav', 'door_slam.wav'];
    Object.assign(effects.source_effects_config, {
      enable_burst_noise: true,
      burst_noise_events_per_minute: 10,
      burst_snr_range_db: [5, 10],
    });
    const { out, events } = run(effects, 21, new Int16Array(RATE * 120));
    const bursts = eventsOf(events, 'noise_burst');
    expect(bursts.length).toBeGreaterThan(8);
    let covered = 0;
    for (const burst of bursts) {
      const [start, end] = window(burst);
      const sound = bank.sounds.get(burst.detail.sound)!;
      if (end - start < sound.samples.length) continue; // cut by the stream's end
      const achieved = 20 * Math.log10(3000 / rmsOf(out, start, end));
      expect(Math.abs(achieved - burst.detail.snrDb)).toBeLessThan(0.5);
      expect(burst.detail.snrDb).toBeGreaterThanOrEqual(5);
      expect(burst.detail.snrDb).toBeLessThanOrEqual(10);
      covered += end - start;
    }
    expect(out.filter((x) => x !== 0).length).toBeLessThanOrEqual(covered + RATE * 5);
    for (let i = 1; i < bursts.length; i++)
      expect(bursts[i]!.start).toBeGreaterThanOrEqual(bursts[i - 1]!.end);
  });

  it('plays tics at speech level and phrases quieter and muffled, only in the caller’s silence', () => {
    const effects = presetEffects('control_behavior', 5);
    effects.telephony_enabled = false;
    effects.speech_effects_config.speech_insert_events_per_minute = 30;
    const { pcm, speaking } = caller(120, 3, 4);
    const { out, events } = run(effects, 8, pcm, [256], speaking);
    const tics = eventsOf(events, 'vocal_tic');
    const phrases = eventsOf(events, 'non_directed_phrase');
    expect(tics.length).toBeGreaterThan(3);
    expect(phrases.length).toBeGreaterThan(3);
    for (const event of [...tics, ...phrases]) {
      const [start] = window(event);
      expect(speaking[start]).toBe(false);
    }
    const whole = (event: CallerEffectEvent) => !('cut' in event.detail) || !event.detail.cut;
    const ticLevel = rmsOf(out, ...window(tics.find(whole)!));
    const phrase = phrases.find(
      (event) => whole(event) && !speaking.slice(...window(event)).includes(true),
    )!;
    const phraseAudio = out.slice(...window(phrase));
    expect(20 * Math.log10(rmsOf(phraseAudio) / ticLevel)).toBeLessThan(-8);
    expect(powerFractionAbove(phraseAudio, RATE, 2000)).toBeLessThan(0.02);
    expect(phrase.detail).toMatchObject({ gainDb: -10, cutoffHz: 1000, rendering: 'murmur' });
    // With the caller always talking, nothing is inserted.
    const always = run(effects, 8, pcm, [256], new Array<boolean>(pcm.length).fill(true));
    expect(
      eventsOf(always.events, 'vocal_tic').length +
        eventsOf(always.events, 'non_directed_phrase').length,
    ).toBe(0);
  });

  it('cuts a tic or phrase short when the caller starts talking', () => {
    const effects = presetEffects('control_behavior', 5);
    effects.telephony_enabled = false;
    effects.speech_effects_config.speech_insert_events_per_minute = 600;
    const { pcm, speaking } = caller(60, 0.8, 0.8);
    const { events } = run(effects, 2, pcm, [256], speaking);
    const inserts = [...eventsOf(events, 'vocal_tic'), ...eventsOf(events, 'non_directed_phrase')];
    const cut = inserts.filter((event) => event.detail.cut);
    expect(cut.length).toBeGreaterThan(0);
    for (const event of cut) {
      const [, end] = window(event);
      expect(speaking.slice(end - 800, end).includes(true)).toBe(true);
    }
  });

  it('muffles the start of utterances where the events say', () => {
    const effects = offTheLine();
    Object.assign(effects.speech_effects_config, {
      enable_dynamic_muffling: true,
      muffle_probability: 1,
    });
    const { pcm } = caller(60, 3, 1);
    const { out, events } = run(effects, 6, pcm);
    const segments = eventsOf(events, 'muffled_segment');
    expect(segments.length).toBeGreaterThan(8);
    for (const segment of segments) {
      const [start, end] = window(segment);
      expect(end - start).toBe(RATE * 0.7);
      const core = [start + RATE / 10, end - RATE / 10] as const;
      const before = powerFractionAbove(pcm.slice(...core), RATE, 2500);
      const after = powerFractionAbove(out.slice(...core), RATE, 2500);
      if (before > 0.01) expect(after).toBeLessThan(before / 10);
    }
    const outside = (i: number) =>
      segments.every((segment) => i < window(segment)[0] || i >= window(segment)[1]);
    for (let i = 0; i < pcm.length; i += 997) if (outside(i)) expect(out[i]).toBe(pcm[i]);
  });

  it('keeps each effect on its own random stream', () => {
    const { pcm } = caller(40);
    const all = run(busy(), 31, pcm);
    const noBursts = busy();
    noBursts.source_effects_config.enable_burst_noise = false;
    const without = run(noBursts, 31, pcm);
    const drops = (events: CallerEffectEvent[]) => eventsOf(events, 'frame_drop');
    expect(drops(without.events)).toEqual(drops(all.events));
    expect(eventsOf(without.events, 'noise_burst')).toEqual([]);
  });

  it('refuses a config naming a sound the bank lacks', () => {
    const effects = presetEffects('regular', 2);
    effects.background_noise_file = 'waterfall.wav';
    expect(() => new CallerEffectsProcessor({ effects, seed: 1, sounds: bank })).toThrow(
      /background_noise_file: sound "waterfall" is not in the sound bank/,
    );
  });
});

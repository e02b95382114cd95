import { afterAll, describe, expect, it } from 'vitest';
import { createFliteTextToSpeech } from '../engines/flite/flite-tts.js';
import { createWebRtcVad } from './fvad-vad.js';
import { PcmChunker } from './chunker.js';
import { concatBytes, msToSamples, pcm16ToInt16, silencePcm16 } from './pcm.js';
import { resamplePcm16 } from './resampler.js';
import { synthesizeAll } from '../tts.js';
import { SpeechSegmenter } from './vad.js';
import type { Vad, VadEvent } from './vad.js';

function feed(vad: Vad, stream: Uint8Array): VadEvent[] {
  const chunker = new PcmChunker(512); // 16 ms chunks, as they arrive from the client
  return [...chunker.push(stream), ...chunker.flush()].flatMap((chunk) => vad.process(chunk));
}

/** First and last sample louder than -40 dBFS: where the speech really is. */
function speechBounds(pcm: Uint8Array): { first: number; last: number } {
  const samples = pcm16ToInt16(pcm);
  const loud = (i: number) => Math.abs(samples[i]!) > 328;
  let first = 0;
  while (!loud(first)) first++;
  let last = samples.length - 1;
  while (!loud(last)) last--;
  return { first, last };
}

describe('SpeechSegmenter', () => {
  // 10 ms frames at 16 kHz: start window 50 ms at 80 % (4 of 5 frames), stop after 100 ms.
  const segmenter = () => new SpeechSegmenter(160, 16_000, { startMs: 50, stopMs: 100 });

  it('starts on dominant speech at its first speech frame and stops after the stop window', () => {
    const s = segmenter();
    const frames = '0000' + '11011' + '1111' + '00000' + '1' + '0000000000' + '00';
    const events = [...frames].map((f) => s.push(f === '1')).filter((e) => e !== undefined);
    expect(events).toEqual([
      { type: 'speech-start', sample: 4 * 160, detectedAt: 9 * 160 },
      { type: 'speech-stop', sample: 19 * 160, detectedAt: 29 * 160 },
    ]);
  });

  it('ignores isolated speech frames', () => {
    const s = segmenter();
    const events = [...'0100100010001'].map((f) => s.push(f === '1'));
    expect(events.every((e) => e === undefined)).toBe(true);
    expect(s.speaking).toBe(false);
  });

  it('validates its windows', () => {
    expect(() => new SpeechSegmenter(160, 16_000, { stopMs: 0 })).toThrow(RangeError);
    expect(() => new SpeechSegmenter(160, 16_000, { startRatio: 1.5 })).toThrow(RangeError);
  });
});

describe('WebRTC VAD', () => {
  const tts = createFliteTextToSpeech({ voice: 'rms' });
  afterAll(() => tts.close());

  it('hears nothing in silence or faint noise', async () => {
    const vad = await createWebRtcVad();
    expect(feed(vad, silencePcm16(msToSamples(3000, 16_000)))).toEqual([]);
    let seed = 7;
    const noise = new Int16Array(48_000).map(() => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed % 41) - 20; // about -64 dBFS
    });
    expect(feed(vad, new Uint8Array(noise.buffer))).toEqual([]);
    expect(vad.speaking).toBe(false);
    expect(vad.samples).toBe(96_000 + 256); // the last chunk padded to 16 ms
    vad.close();
  });

  it('finds a spoken sentence where it is, with the stop window after it', async () => {
    const speech = await resamplePcm16(
      await synthesizeAll(tts, 'I would like to change my flight to Boston please.'),
      24_000,
      16_000,
    );
    const lead = msToSamples(1000, 16_000);
    const { first, last } = speechBounds(speech);
    const vad = await createWebRtcVad({ stopMs: 1200 });
    const events = feed(vad, concatBytes([silencePcm16(lead), speech, silencePcm16(32_000)]));
    expect(events.map((e) => e.type)).toEqual(['speech-start', 'speech-stop']);
    const [start, stop] = events as [VadEvent, VadEvent];
    const window = msToSamples(100, 16_000);
    expect(Math.abs(start.sample - (lead + first))).toBeLessThanOrEqual(window);
    expect(Math.abs(stop.sample - (lead + last))).toBeLessThanOrEqual(window);
    expect(stop.detectedAt - stop.sample).toBeGreaterThanOrEqual(msToSamples(1200, 16_000));
    expect(stop.detectedAt - stop.sample).toBeLessThanOrEqual(msToSamples(1240, 16_000));

    vad.reset();
    expect(vad.samples).toBe(0);
    expect(feed(vad, concatBytes([speech, silencePcm16(32_000)])).length).toBe(2);
    vad.close();
    expect(() => vad.process(silencePcm16(256))).toThrow(/closed/);
  });
});

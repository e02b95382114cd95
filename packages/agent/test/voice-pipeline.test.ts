/**
 * The offline voice engines end to end: Flite speaks tau2-style user turns,
 * the audio goes at 16 kHz in 16 ms chunks (silence between turns, on the
 * fast clock) through the WebRTC VAD and one PocketSphinx session, and the
 * transcripts must match what was said (word error rate <= 10 %).
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  corpusWordErrors,
  createFliteTextToSpeech,
  createPocketsphinxSpeechToText,
  createWebRtcVad,
  FastAudioClock,
  INPUT_CHUNK_MS,
  INPUT_SAMPLE_RATE,
  msToSamples,
  PcmChunker,
  resamplePcm16,
  silencePcm16,
  synthesizeAll,
} from '@scenaro/agent/voice';
import type { Transcript } from '@scenaro/agent/voice';
import { SPOKEN_USER_TURNS } from '@scenaro/agent/testing';

const TURNS = SPOKEN_USER_TURNS;

const stt = createPocketsphinxSpeechToText();
const missing = await stt.check().then(
  () => undefined,
  (error: Error) => error,
);
if (missing && process.env['CI'] !== 'true') {
  console.warn(`\n!!! SKIPPING the PocketSphinx voice pipeline test: ${missing.message}\n`);
}

describe('voice engines end to end (flite -> VAD -> pocketsphinx)', () => {
  const tts = createFliteTextToSpeech({ voice: 'slt' });
  afterAll(() => tts.close());

  it.skipIf(missing !== undefined && process.env['CI'] !== 'true')(
    'transcribes 20 spoken user turns with a word error rate of at most 10 %',
    async () => {
      if (missing) throw missing; // under CI the engine must be installed
      const speech = await Promise.all(
        TURNS.map(async (text) =>
          resamplePcm16(await synthesizeAll(tts, text), tts.sampleRate, INPUT_SAMPLE_RATE),
        ),
      );
      // The stream: 1 s of silence, then each turn followed by 1.2 s of silence.
      const gap = silencePcm16(msToSamples(1200, INPUT_SAMPLE_RATE));
      const spans: Array<{ start: number; end: number }> = [];
      const parts: Uint8Array[] = [silencePcm16(INPUT_SAMPLE_RATE)];
      let position = INPUT_SAMPLE_RATE;
      for (const pcm of speech) {
        spans.push({ start: position, end: position + pcm.length / 2 });
        parts.push(pcm, gap);
        position += pcm.length / 2 + gap.length / 2;
      }

      const vad = await createWebRtcVad({ stopMs: 800 });
      const session = await stt.openSession();
      const heard: Transcript[] = [];
      session.onTranscript((t) => heard.push(t));
      const clock = new FastAudioClock(INPUT_SAMPLE_RATE);
      const chunker = PcmChunker.forDuration(INPUT_CHUNK_MS, INPUT_SAMPLE_RATE);
      const finals: Transcript[] = [];
      const feed = async (chunk: Uint8Array): Promise<void> => {
        await clock.advance(chunk.length / 2);
        await session.write(chunk);
        for (const event of vad.process(chunk)) {
          if (event.type === 'speech-start') session.startUtterance(event.sample);
          else finals.push(await session.endUtterance(event.sample));
        }
      };
      try {
        for (const part of parts) for (const chunk of chunker.push(part)) await feed(chunk);
        for (const chunk of chunker.flush()) await feed(chunk);
      } finally {
        await session.close();
        vad.close();
      }

      expect(clock.samples).toBe(Math.ceil(position / 256) * 256); // whole 16 ms chunks
      expect(finals).toHaveLength(TURNS.length);
      const pairs = finals.map((final, i) => ({ reference: TURNS[i]!, hypothesis: final.text }));
      const errors = corpusWordErrors(pairs);
      console.log(
        `PocketSphinx WER ${(errors.wer * 100).toFixed(1)} % over ${errors.referenceWords} words\n` +
          pairs.map((p) => `  ${p.reference}\n    -> ${p.hypothesis}`).join('\n'),
      );
      // Each utterance lies on its turn, give or take the VAD's frame and hangover (100 ms).
      const tolerance = msToSamples(100, INPUT_SAMPLE_RATE);
      finals.forEach((final, i) => {
        expect(final.startSample).toBeGreaterThanOrEqual(spans[i]!.start - tolerance);
        expect(final.endSample!).toBeLessThanOrEqual(spans[i]!.end + tolerance);
      });
      expect(errors.wer).toBeLessThanOrEqual(0.1);
      expect(heard.filter((t) => t.final)).toEqual(finals);
    },
    180_000,
  );
});

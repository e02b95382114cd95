import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  STAND_IN_READY,
  writeStandInRecognizer,
} from '../../../test-support/stand-in-recognizer.js';
import { SpeechEngineUnavailableError } from '../../engine-errors.js';
import { createNoneSpeechToText } from '../none/none-stt.js';
import { silencePcm16 } from '../../audio/pcm.js';
import { PocketsphinxOutputParser } from './pocketsphinx-output.js';
import { createPocketsphinxSpeechToText } from './pocketsphinx-stt.js';
import type { Transcript } from '../../stt.js';

describe('PocketsphinxOutputParser', () => {
  it('reads hypotheses with stream word times, dropping fillers and alternate markers', () => {
    const parser = new PocketsphinxOutputParser();
    const lines = [
      '',
      '<s> 0.000 0.170 0.999900',
      '</s> 0.180 1.140 1.000000',
      'i would like to change my flight',
      '<s> 6.110 6.210 1.000000',
      'i 6.220 6.360 0.996705',
      'to(3) 8.270 8.350 0.799854',
      '<sil> 8.360 8.400 0.9',
      '[NOISE] 8.400 8.500 0.9',
      'flight 8.500 8.900 1.000000',
      '</s> 9.480 9.790 1.000000',
      'half said',
      'half 10.000 10.200 0.5',
    ];
    const segments = lines.flatMap((line) => parser.push(line));
    expect(segments).toEqual([
      { text: '', words: [], end: 1.14 },
      {
        text: 'i would like to change my flight',
        words: [
          { word: 'i', start: 6.22, end: 6.36, confidence: 0.996705 },
          { word: 'to', start: 8.27, end: 8.35, confidence: 0.799854 },
          { word: 'flight', start: 8.5, end: 8.9, confidence: 1 },
        ],
        end: 9.79,
      },
    ]);
    expect(parser.finish()).toEqual([
      {
        text: 'half said',
        words: [{ word: 'half', start: 10, end: 10.2, confidence: 0.5 }],
        end: 10.2,
      },
    ]);
  });
});

describe('PocketSphinx adapter', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scenaro-ps-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A stand-in recognizer: a shell script with the real program's output protocol. */
  const fakeRecognizer = (name: string, body: string): Promise<string> =>
    writeStandInRecognizer(join(dir, name), [STAND_IN_READY, body]);

  it('names the Debian packages to install when the program or the model is missing', async () => {
    const stt = createPocketsphinxSpeechToText({ binary: 'no-such-pocketsphinx-program' });
    const error = await stt.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpeechEngineUnavailableError);
    expect((error as Error).message).toMatch(/apt-get install pocketsphinx pocketsphinx-en-us/);
    await expect(stt.openSession()).rejects.toThrow(/pocketsphinx-en-us/);
    const noModel = createPocketsphinxSpeechToText({
      binary: '/bin/sh',
      hmm: join(dir, 'missing-model'),
    });
    await expect(noModel.check()).rejects.toThrow(/model file .*missing-model is missing: install/);
  });

  it('assigns words to utterances by stream time; finals come once the recognizer passed their end', async () => {
    const binary = await fakeRecognizer(
      'words.sh',
      [
        'head -c 32000 > /dev/null', // after 1 s of audio
        "printf 'hello world\\n<s> 0.100 0.200 1.0\\nhello 0.300 0.500 1.0\\nworld 0.600 0.800 0.9\\n</s> 0.900 1.000 1.0\\n'",
        'cat > /dev/null',
      ].join('\n'),
    );
    const stt = createPocketsphinxSpeechToText({
      binary,
      hmm: dir,
      lm: binary,
      dict: binary,
      finalTimeoutMs: 300,
    });
    const session = await stt.openSession();
    const heard: Transcript[] = [];
    session.onTranscript((t) => heard.push(t));
    await session.write(silencePcm16(4000));
    session.startUtterance(4000);
    await session.write(silencePcm16(12_000));
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toEqual({
      utterance: 1,
      text: 'hello world',
      final: false,
      startSample: 4000,
    });
    const first = await session.endUtterance(13_600);
    expect(first).toEqual({
      utterance: 1,
      text: 'hello world',
      final: true,
      startSample: 4000,
      endSample: 13_600,
    });

    // Speech the recognizer never reports: the final comes, empty, after finalTimeoutMs.
    session.startUtterance();
    await session.write(silencePcm16(8000));
    const started = performance.now();
    await expect(session.endUtterance()).resolves.toMatchObject({
      utterance: 2,
      text: '',
      startSample: 16_000,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    await session.close();
    expect(() => session.write(silencePcm16(10))).toThrow(/closed/);
    await stt.close();
  });
});

describe('none STT', () => {
  it('gives an empty final per utterance', async () => {
    const session = await createNoneSpeechToText().openSession();
    await session.write(silencePcm16(512));
    session.startUtterance();
    await session.write(silencePcm16(512));
    await expect(session.endUtterance()).resolves.toEqual({
      utterance: 1,
      text: '',
      final: true,
      startSample: 512,
      endSample: 1024,
    });
  });
});

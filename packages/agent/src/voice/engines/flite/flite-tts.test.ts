import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createFliteTextToSpeech, FLITE_VOICES } from './flite-tts.js';
import {
  expectSpokenFrames,
  expectStopsWhenAbortedAndClosed,
} from '../../../test-support/tts-checks.js';
import { synthesizeAll } from '../../tts.js';

describe('Flite TTS', () => {
  const tts = createFliteTextToSpeech();
  afterAll(() => tts.close());

  it('speaks at 24 kHz in 40 ms chunks, longer text taking longer', async () => {
    const chunks = await expectSpokenFrames(tts, 'Your flight is confirmed.');
    const short = chunks.reduce((n, c) => n + c.length, 0) / 48; // ms
    expect(short).toBeGreaterThan(800);
    expect(short).toBeLessThan(4000);
    const long =
      (
        await synthesizeAll(
          tts,
          'Your flight is confirmed. The seat is by the window, and dinner is included.',
        )
      ).length / 48;
    expect(long).toBeGreaterThan(short * 2);
  });

  it('offers every compiled voice, and refuses others', async () => {
    for (const voice of FLITE_VOICES) {
      const engine = createFliteTextToSpeech({ voice });
      expect((await synthesizeAll(engine, 'Hello.')).length).toBeGreaterThan(24_000);
      await engine.close();
    }
    expect(() => createFliteTextToSpeech({ voice: 'nobody' as 'slt' })).toThrow(
      /unknown Flite voice/,
    );
  });

  it('yields nothing for blank text, speaks text that starts like an option', async () => {
    expect(await synthesizeAll(tts, '  \n ')).toEqual(new Uint8Array(0));
    expect((await synthesizeAll(tts, '-5 degrees outside.')).length).toBeGreaterThan(24_000);
  });

  it('speaks faster with a higher rate', async () => {
    const fast = createFliteTextToSpeech({ rate: 1.5 });
    const text = 'Please send the confirmation to my phone.';
    const normal = (await synthesizeAll(tts, text)).length;
    expect((await synthesizeAll(fast, text)).length).toBeLessThan(normal * 0.8);
    await fast.close();
  });

  it('stops when aborted and fails after close', async () => {
    await expectStopsWhenAbortedAndClosed(tts, createFliteTextToSpeech());
  });
});

describe('Flite TTS workers', () => {
  it('synthesizes sentences at once on up to `workers` threads, each as one worker would', async () => {
    const one = createFliteTextToSpeech({ workers: 1 });
    const two = createFliteTextToSpeech({ workers: 2 });
    const texts = [
      'Your flight is confirmed.',
      'The seat is by the window.',
      'Dinner is included.',
    ];
    const alone = await Promise.all(texts.map((t) => synthesizeAll(one, t)));
    const together = await Promise.all(texts.map((t) => synthesizeAll(two, t)));
    expect(together).toEqual(alone);
    await Promise.all([one.close(), two.close()]);
    expect(() => createFliteTextToSpeech({ workers: 0 })).toThrow(/positive integer/);
  });
});

const voiceDist = fileURLToPath(new URL('../../../../dist/voice/index.js', import.meta.url));
if (!existsSync(voiceDist))
  console.warn('\n!!! Flite --input-type=module test SKIPPED: run `npm run build` first !!!\n');

// A program run as `node --input-type=module -e ...`: its workers must not inherit the flag.
const SPEAK = `
const { createFliteTextToSpeech } = await import(process.argv[1]);
const tts = createFliteTextToSpeech({ voice: 'slt' });
let bytes = 0;
for await (const chunk of tts.synthesize('Hello there.')) bytes += chunk.length;
await tts.close();
console.log(bytes > 0 ? 'spoke' : 'silent');
`;

describe.skipIf(!existsSync(voiceDist))('Flite TTS in a program given as a module', () => {
  it('speaks under node --input-type=module', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SPEAK, voiceDist]);
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const code = await new Promise<number | null>((r) => child.once('close', r));
    expect({ code, out: out.trim() }, err).toEqual({ code: 0, out: 'spoke' });
  });
});

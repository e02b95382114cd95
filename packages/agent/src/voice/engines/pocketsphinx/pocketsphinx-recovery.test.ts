/**
 * The real PocketSphinx killed in the middle of an utterance: the session
 * says so once, starts another recognizer and transcribes what is said next.
 * And a long utterance after a long leading silence keeps its last words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pocketsphinxMissing, speak } from '../../../testing/voice-checks.js';
import { createFliteTextToSpeech } from '../flite/flite-tts.js';
import { silencePcm16 } from '../../audio/pcm.js';
import { PocketsphinxSession } from './pocketsphinx-session.js';
import { createPocketsphinxSpeechToText } from './pocketsphinx-stt.js';
import type { SpeechToText } from '../../stt.js';

const missing = await pocketsphinxMissing('the recognizer recovery test');
const runs = missing === undefined || process.env['CI'] === 'true';
const patient = { timeout: 30_000 };

describe.skipIf(!runs)('PocketSphinx recovery', () => {
  let stt: SpeechToText;
  let first: Uint8Array;
  let second: Uint8Array;
  let long: Uint8Array;
  beforeAll(async () => {
    if (missing) throw missing;
    stt = createPocketsphinxSpeechToText({ poolSize: 0 });
    const tts = createFliteTextToSpeech({ voice: 'kal16' });
    first = await speak(tts, 'I would like to book a table for two people tonight');
    second = await speak(tts, 'what time does the last train leave');
    long = await speak(
      tts,
      'I would like to change my flight to Boston next Tuesday morning please. ' +
        'I also need a window seat and a vegetarian meal. Thank you very much, goodbye.',
    );
  });
  afterAll(() => stt?.close());

  it('reports a recognizer killed mid-utterance once and transcribes the next utterance', async () => {
    const session = await stt.openSession();
    if (!(session instanceof PocketsphinxSession)) throw new Error('not a PocketSphinx session');
    const errors: unknown[] = [];
    /** Feed `pcm` in 16 ms frames, as a live stream, collecting what `write` throws. */
    const feed = async (pcm: Uint8Array): Promise<void> => {
      for (let at = 0; at < pcm.length; at += 512) {
        try {
          await session.write(pcm.subarray(at, at + 512));
        } catch (error) {
          errors.push(error);
        }
      }
    };
    const finals: Promise<unknown>[] = [];
    const end = (): Promise<string> => {
      const final = session.endUtterance();
      finals.push(final.catch((error: unknown) => errors.push(error)));
      return final.then((t) => t.text);
    };

    await feed(silencePcm16(8000));
    session.startUtterance();
    const half = (first.length >> 2) << 1;
    await feed(first.subarray(0, half));
    const killed = session.recognizerPid!;
    process.kill(killed, 'SIGKILL');
    await expect.poll(() => session.recognizerPid, patient).not.toBe(killed);
    await feed(first.subarray(half));
    await feed(silencePcm16(8000));
    void end();

    await feed(silencePcm16(8000));
    session.startUtterance();
    await feed(second);
    await feed(silencePcm16(12_000));
    const heard = await end();
    expect(heard).toMatch(/train/);
    expect(heard).toMatch(/time/);
    await Promise.all(finals);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(
      /PocketSphinx failed: it exited \(SIGKILL\).*a new recognizer takes over/,
    );
    await session.close();
  });

  it('hears the last words of a long utterance after a long leading silence', async () => {
    const session = await stt.openSession();
    const silence = silencePcm16(16_000 * 12);
    await session.write(silence);
    session.startUtterance();
    await session.write(long);
    await session.write(silencePcm16(8000));
    const final = session.endUtterance();
    await session.write(silencePcm16(16_000));
    const { text } = await final;
    expect(text).toMatch(/flight/);
    expect(text).toMatch(/goodbye/);
    await session.close();
  });
});

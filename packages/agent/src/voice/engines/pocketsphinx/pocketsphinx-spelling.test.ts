/**
 * Hearing a spelled answer: which prompts expect a spelling, the grammar, the audio kept for it,
 * and the real PocketSphinx hearing a caller spell in the spelling alphabet, with and without
 * the prompt (and with the grammar turned off).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pocketsphinxMissing, speak } from '../../../testing/voice-checks.js';
import { silencePcm16 } from '../../audio/pcm.js';
import { expectedSpeech } from '../../stt.js';
import type { SpeechToText } from '../../stt.js';
import { createFliteTextToSpeech } from '../flite/flite-tts.js';
import {
  alphabetWords,
  fitsSpellingGrammar,
  worthSpellingDecode,
  SpelledAudio,
  spellingGrammar,
} from './pocketsphinx-spelling.js';
import { createPocketsphinxSpeechToText } from './pocketsphinx-stt.js';

describe('prompts that expect a spelling', () => {
  it.each([
    ['Could you spell it for me, letter by letter?', 'spelling'],
    ['Sorry, I did not get your user id. Could you spell it for me?', 'spelling'],
    ['Can you spell your last name?', 'spelling'],
    ['Please say it letter by letter.', 'spelling'],
    ['Could you spell that again, please?', 'spelling'],
    ['Could you tell me your user id, please?', undefined],
    ['I will spell it out for you: M, zero, five.', undefined],
    ['Your booking is confirmed.', undefined],
    ['What is the spelling bee about?', undefined],
  ])('%s', (sentence, expected) => {
    expect(expectedSpeech(sentence)).toBe(expected);
  });
});

describe('the spelling grammar', () => {
  it('lists the alphabet (one spelling a letter), digits and separators the dictionary knows, after lead words', () => {
    const dictionary = new Set([
      'alpha',
      'alfa',
      'bravo',
      'zulu',
      'one',
      'underscore',
      'sure',
      'spelled',
    ]);
    const grammar = spellingGrammar(dictionary);
    expect(grammar).toContain('public <spelling> = <lead>* <item>+;');
    expect(grammar).toContain('<item> = alpha | bravo | zulu | one | underscore;');
    expect(grammar).toContain('<lead> = sure | spelled;');
    expect(grammar).not.toMatch(/charlie|\bb\b/);
  });

  it('says when the general model already heard a clean spelling', () => {
    expect(
      fitsSpellingGrammar('sure my user id is spelled romeo alpha juliet underscore five'),
    ).toBe(true);
    expect(fitsSpellingGrammar('c or oscar pop a hotel india alpha underscore')).toBe(false);
    expect(fitsSpellingGrammar('sure my user id is spelled')).toBe(false);
    expect(fitsSpellingGrammar('')).toBe(false);
  });

  it.each([
    // A short spelling the general model mostly misheard: one alphabet word, a separator, digits.
    [
      'sure my user id is spelled my country of alpha underscore why move into your three six six eight',
      true,
    ],
    ['c or oscar pop a hotel india alpha underscore', true],
    // Not a spelling: an id said in words, with no alphabet word.
    [
      "i'm sorry i don't have it my user id is raj underscore sanchez underscore seven three four zero",
      false,
    ],
    // Already a clean spelling: the general model's words stand.
    ['sure my user id is spelled romeo alpha juliet underscore five', false],
    ['alpha and omega', false],
  ])('decodes %j again with the grammar: %s', (heard, expected) => {
    expect(worthSpellingDecode(heard)).toBe(expected);
  });

  it('counts the alphabet words heard', () => {
    expect(alphabetWords('c or oscar pop a hotel india alpha underscore')).toBe(4);
    expect(alphabetWords('my user id is sophia')).toBe(0);
  });
});

describe('the audio kept for a spelled utterance', () => {
  const chunk = (value: number, samples: number): Uint8Array =>
    new Uint8Array(new Int16Array(samples).fill(value).buffer);

  it('starts in the recent past and stops at the end asked for', () => {
    const audio = new SpelledAudio(16_000);
    audio.push(chunk(1, 1600), 0);
    audio.push(chunk(2, 1600), 1600);
    audio.start(2400); // half-way into the second chunk
    audio.push(chunk(3, 1600), 3200);
    const pcm = new Int16Array(audio.take(4000).slice().buffer);
    expect(pcm.length).toBe(1600);
    expect([pcm[0], pcm[799], pcm[800], pcm[1599]]).toEqual([2, 2, 3, 3]);
    // Taken once: nothing is kept after.
    expect(audio.take(9999).length).toBe(0);
  });

  it('keeps only about a second from before the start', () => {
    const audio = new SpelledAudio(16_000);
    for (let at = 0; at < 16_000 * 5; at += 1600) audio.push(chunk(at / 1600, 1600), at);
    audio.start(0);
    const kept = audio.take(16_000 * 5).length / 2;
    expect(kept).toBeGreaterThanOrEqual(16_000);
    expect(kept).toBeLessThanOrEqual(16_000 + 1600);
  });
});

const missing = await pocketsphinxMissing('the PocketSphinx spelling tests');
const runs = missing === undefined || process.env['CI'] === 'true';

describe.skipIf(!runs)('PocketSphinx hearing a spelling', { timeout: 60_000 }, () => {
  let withGrammar: SpeechToText;
  let without: SpeechToText;
  let spelled: Uint8Array;
  const SAID =
    'Sure, my user id is spelled delta alpha india kilo india, underscore, one one one six.';
  beforeAll(async () => {
    if (missing) throw missing;
    withGrammar = createPocketsphinxSpeechToText({ poolSize: 0 });
    without = createPocketsphinxSpeechToText({ poolSize: 0, spellingGrammar: false });
    const tts = createFliteTextToSpeech({ voice: 'rms' });
    spelled = await speak(tts, SAID);
    await tts.close();
  });
  afterAll(async () => {
    await withGrammar?.close();
    await without?.close();
  });

  /** What `stt` heard of the spelling said twice in one session, the second time after the prompt. */
  const hear = async (stt: SpeechToText): Promise<[string, string]> => {
    const session = await stt.openSession();
    const say = async (): Promise<string> => {
      session.startUtterance();
      for (let at = 0; at < spelled.length; at += 512)
        await session.write(spelled.subarray(at, at + 512));
      const final = session.endUtterance();
      await session.write(silencePcm16(16_000));
      return (await final).text;
    };
    await session.write(silencePcm16(8000));
    const first = await say();
    session.expect?.('spelling');
    const second = await say();
    await session.close();
    return [first, second];
  };

  it('hears the alphabet after the prompt; as before without it, or with the grammar off', async () => {
    const [general, prompted] = await hear(withGrammar);
    const [offFirst, off] = await hear(without);
    expect(offFirst).toBe(general);
    // The general model hears some of the alphabet, and other words for the rest.
    expect(alphabetWords(off)).toBeGreaterThanOrEqual(3);
    expect(off).not.toContain('delta alpha india kilo india underscore one one one six');
    expect(prompted).toMatch(/delta alpha india kilo india underscore one one one six$/);
  });
});

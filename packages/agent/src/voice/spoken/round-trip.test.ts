import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeWords } from '../metrics/wer.js';
import { extractEntities } from './entities.js';
import * as read from './heard.js';
import { parseSpokenTime } from './heard-time.js';
import { isNumberWord } from './numbers.js';
import { toSpokenForm } from './spoken-form.js';

/** What a recognizer prints for `written` once spoken: lowercase words, no punctuation. */
function heard(written: string): string {
  return normalizeWords(toSpokenForm(written)).join(' ');
}

/** A word piece of an id that is not itself a number word. */
const idWord = fc
  .stringMatching(/^[a-z]{2,8}$/)
  .filter((w) => !isNumberWord(w) && !['double', 'triple', 'dash', 'hyphen', 'dot'].includes(w));
const idPiece = fc.oneof(
  idWord,
  fc.stringMatching(/^\d{1,5}$/),
  fc.tuple(idWord, fc.stringMatching(/^\d{1,3}$/)).map(([w, d]) => w + d),
);
const id = fc
  .tuple(idWord, fc.array(idPiece, { minLength: 1, maxLength: 3 }))
  .map(([head, rest]) => [head, ...rest].join('_'));

const code = fc.stringMatching(/^[A-Z0-9]{5,8}$/).filter((c) => /\d/.test(c) && /[A-Z]/.test(c));
const flight = fc.stringMatching(/^[A-Z]{2,3}[1-9]\d{0,3}$/);

const isoDate = fc
  .date({
    min: new Date('1900-01-01T00:00:00Z'),
    max: new Date('2099-12-31T00:00:00Z'),
    noInvalidDate: true,
  })
  .map((d) => d.toISOString().slice(0, 10));

const cents = fc.integer({ min: -10_000_000_00, max: 10_000_000_00 });

/** `HH:MM` clock times: hours 1-12 are said without AM/PM and read back as said, 0 and 13-23 with it. */
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

const email = fc
  .tuple(id, idWord, fc.constantFrom('com', 'org', 'io', 'co'))
  .map(([local, host, tld]) => `${local.replace(/_/g, '.')}@${host}.${tld}`);

/** Values read back exactly as written: what they are, how they are made and read, how many runs. */
const SAME_BACK: [string, fc.Arbitrary<string>, (heard: string) => string | undefined, number][] = [
  ['ids', id, read.parseSpokenId, 500],
  ['codes', code, read.parseSpokenCode, 500],
  ['flight numbers', flight, read.parseSpokenCode, 500],
  ['ISO dates', isoDate, (h) => read.parseSpokenDate(h), 500],
  ['clock times', time, parseSpokenTime, 300],
  ['emails', email, read.parseSpokenEmail, 300],
];

describe('round trips: written -> spoken -> heard -> written', () => {
  it.each(SAME_BACK)('%s', (_, values, read, numRuns) => {
    fc.assert(
      fc.property(values, (written) => {
        expect(read(heard(written))).toBe(written);
      }),
      { numRuns },
    );
  });

  it('dollar amounts with cents', () => {
    fc.assert(
      fc.property(cents, (total) => {
        const abs = Math.abs(total);
        const dollars = Math.floor(abs / 100).toLocaleString('en-US');
        const written = `${total < 0 ? '-' : ''}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
        expect(read.parseSpokenAmount(heard(written))).toEqual({ value: total / 100, unit: 'USD' });
      }),
      { numRuns: 500 },
    );
  });

  it('phone numbers', () => {
    const phone = fc.stringMatching(/^[2-9]\d{9}$/);
    fc.assert(
      fc.property(phone, (digits) => {
        const written = `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
        expect(read.parseSpokenCode(heard(written))).toBe(digits);
        expect(extractEntities(heard(`call me at ${written}`))).toMatchObject([
          { kind: 'phone', value: digits },
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['\u20ac5.50', { value: 5.5, unit: 'EUR' }],
    ['\u00a34.99', { value: 4.99, unit: 'GBP' }],
    ['\u00a5500', { value: 500, unit: 'JPY' }],
    ['$2.5 million', { value: 2_500_000, unit: 'USD' }],
    ['15%', { value: 15, unit: 'percent' }],
    ['-$0.75', { value: -0.75, unit: 'USD' }],
  ])('amount %s', (written, amount) => {
    expect(read.parseSpokenAmount(heard(written))).toEqual(amount);
  });

  it('values inside a sentence, found again by extractEntities', () => {
    fc.assert(
      fc.property(code, id, isoDate, flight, (c, i, d, f) => {
        const text = `Your code is ${c}, your user id is ${i}, you fly ${f} on ${d}.`;
        const found = extractEntities(heard(text));
        expect(found.map((e) => [e.kind, e.value])).toEqual(
          expect.arrayContaining([
            [/^[A-Z]{2,3}\d{1,4}$/.test(c) ? 'flight' : 'code', c],
            ['id', i],
            ['date', d],
            ['flight', f],
          ]),
        );
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['M05KNL', 'code'],
    ['aarav_garcia_1177', 'id'],
    ['2024-05-24', 'date'],
    ['HAT110', 'flight'],
  ])('%s', (written) => {
    const spoken = heard(written);
    const back =
      read.parseSpokenId(spoken) ??
      read.parseSpokenDate(spoken) ??
      read.parseSpokenCode(spoken) ??
      undefined;
    expect(back).toBe(written);
  });
});

import { describe, expect, it } from 'vitest';
import { wordErrors } from '../metrics/wer.js';
import { canonicalSpokenWords, normalizedWordErrors } from './spoken-wer.js';

/** [reference, hypothesis, errors] */
const CASES: Array<[string, string, number]> = [
  ['$2,580', 'two thousand five hundred eighty dollars', 0],
  ['$2,580', 'two thousand five hundred and eighty dollars', 0],
  ['Your code is M05KNL.', 'your code is m zero five k n l', 0],
  ['Your code is M05KNL.', 'your code is mike zero five kilo november lima', 0],
  ['Your code is M05KNL.', 'your code is m oh five k n l', 0],
  [
    'Flight HAT110 on 2024-05-24',
    'flight h a t one ten on may twenty fourth twenty twenty four',
    0,
  ],
  ['Meet at 9:05 am', 'meet at nine oh five a m', 0],
  ['It is 15% off', 'it is fifteen percent off', 0],
  ['user aarav_garcia_1177', 'user aarav underscore garcia underscore one one seven seven', 0],
  ['That is $12.50.', 'that is twelve dollars and fifty cents', 0],
  ['A $100 fee', 'a a hundred dollars fee', 0],
  ['A $100 fee', 'a two hundred dollars fee', 1],
  ['Code M55X', 'code m double five x', 0],
  ['Call (415) 555-0199', 'call four one five five five five zero one nine nine', 0],
  ['Call (415) 555-0199', 'call four one five five five five zero one nine', 1],
  ['**Yes**, it is `confirmed`.', 'yes it is confirmed', 0],
  ['$2,580', 'two thousand five hundred eighty', 1],
  ['2 bags', 'to bags', 1],
];

describe('normalizedWordErrors', () => {
  it.each(CASES)('%j vs %j: %i errors', (reference, hypothesis, errors) => {
    const e = normalizedWordErrors(reference, hypothesis);
    expect(e.substitutions + e.deletions + e.insertions).toBe(errors);
  });

  it('counts the reference in canonical spoken words', () => {
    expect(normalizedWordErrors('$2,580', 'two thousand five hundred eighty dollars')).toEqual({
      substitutions: 0,
      deletions: 0,
      insertions: 0,
      referenceWords: 6,
      wer: 0,
    });
    expect(wordErrors('$2,580', 'two thousand five hundred eighty dollars').wer).toBeGreaterThan(0);
  });

  it('puts spelled codes and clock words in one form', () => {
    expect(canonicalSpokenWords('mike oh double five a m').join(' ')).toBe('m zero five five am');
  });
});

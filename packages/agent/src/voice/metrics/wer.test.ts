import { describe, expect, it } from 'vitest';
import { corpusWordErrors, normalizeWords, wordErrorRate, wordErrors } from './wer.js';

describe('word error rate', () => {
  it('normalises case and punctuation, keeps apostrophes inside words', () => {
    expect(normalizeWords("Hi, I'd like a ONE-way ticket... to L.A.!").join(' ')).toBe(
      "hi i'd like a one way ticket to l a",
    );
    expect(wordErrorRate('Yes, that is correct.', 'yes that is correct')).toBe(0);
  });

  it('counts substitutions, deletions and insertions', () => {
    expect(
      wordErrors('i need to add one more checked bag', 'i need to add line or checked bag'),
    ).toEqual({
      substitutions: 2,
      deletions: 0,
      insertions: 0,
      referenceWords: 8,
      wer: 0.25,
    });
    expect(wordErrors('cancel my flight', 'cancel flight')).toMatchObject({
      deletions: 1,
      wer: 1 / 3,
    });
    expect(wordErrors('cancel my flight', 'please cancel my flight now')).toMatchObject({
      insertions: 2,
      wer: 2 / 3,
    });
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate('', 'noise')).toBe(1);
  });

  it('pools a corpus by words, not by averaging sentences', () => {
    const total = corpusWordErrors([
      { reference: 'a b c d e f g h i j', hypothesis: 'a b c d e f g h i j' },
      { reference: 'yes', hypothesis: 'no' },
    ]);
    expect(total).toMatchObject({ substitutions: 1, referenceWords: 11 });
    expect(total.wer).toBeCloseTo(1 / 11);
  });
});

/**
 * Word errors between two texts once both are in one canonical spoken form,
 * so a written reference ("$2,580") and what a recognizer heard ("two
 * thousand five hundred eighty dollars") agree. Built on {@link wordErrors}.
 */
import { normalizeWords, wordErrors, type WordErrors } from '../metrics/wer.js';
import { NATO_ALPHABET } from './heard.js';
import { isDigitWord, isNumberWord } from './numbers.js';
import { toSpokenForm, type SpokenFormOptions } from './spoken-form.js';

/**
 * The canonical spoken words of `text`: its spoken form ({@link toSpokenForm})
 * normalised like the WER does (lowercase, no punctuation, hyphens split),
 * then "oh" said as "zero", NATO words as their letters, "double x" as "x x",
 * "a hundred" as "one hundred", "a m"/"p m" as "am"/"pm", and an "and"
 * between number words dropped.
 */
export function canonicalSpokenWords(text: string, options?: SpokenFormOptions): string[] {
  const words = normalizeWords(toSpokenForm(text, options)).map((word) =>
    word === 'oh' ? 'zero' : (NATO_ALPHABET[word]?.toLowerCase() ?? word),
  );
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    const repeat = word === 'double' ? 2 : word === 'triple' ? 3 : 0;
    if (repeat > 0 && next !== undefined && (next.length === 1 || isDigitWord(next))) {
      out.push(...Array<string>(repeat).fill(next));
      i++;
    } else if (word === 'a' && (next === 'hundred' || next === 'thousand')) {
      out.push('one');
    } else if ((word === 'a' || word === 'p') && next === 'm') {
      out.push(`${word}m`);
      i++;
    } else if (
      word !== 'and' ||
      !isNumberWord(out[out.length - 1] ?? '') ||
      !isNumberWord(next ?? '')
    ) {
      out.push(word);
    }
  }
  return out;
}

/**
 * The word errors of `hypothesis` against `reference` after both are put in
 * their canonical spoken form ({@link canonicalSpokenWords}): "$2,580" and
 * "two thousand five hundred eighty dollars" are 0 errors. `referenceWords`
 * counts the canonical words of the reference.
 */
export function normalizedWordErrors(
  reference: string,
  hypothesis: string,
  options?: SpokenFormOptions,
): WordErrors {
  return wordErrors(
    canonicalSpokenWords(reference, options).join(' '),
    canonicalSpokenWords(hypothesis, options).join(' '),
  );
}

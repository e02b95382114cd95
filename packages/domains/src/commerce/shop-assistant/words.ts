/**
 * The words of shoppers' requests to the scripted shop assistant: normalized text, counts and
 * ordinals.
 *
 * @module
 */

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

/** Positions by ordinal word (`second`, `3rd`). */
export const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  '6th': 6,
  '7th': 7,
  '8th': 8,
  '9th': 9,
  '10th': 10,
};

/** A regular expression group matching a count: digits or a number word up to ten. */
export const NUMBER = String.raw`(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)`;
/** A regular expression group matching an amount of dollars (`$99.50`, `100 bucks`). */
export const PRICE = String.raw`\$?\s*(\d+(?:\.\d{1,2})?)\s*(?:dollars?|usd|bucks)?`;

/** The number a digit string or number word (`"two"`) stands for. */
export function toNumber(word: string): number {
  return NUMBER_WORDS[word] ?? Number(word);
}

/** Lower case, apostrophes dropped, `256 gb` joined, spaces collapsed. */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/(\d+)\s*(gb|tb)\b/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

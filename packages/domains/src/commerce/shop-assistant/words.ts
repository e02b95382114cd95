/**
 * The words of shoppers' requests to the scripted shop assistant: normalized text, counts,
 * ordinals, and amounts said in words (what a speech recognizer writes: "under one hundred
 * dollars").
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

const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  ...NUMBER_WORDS,
  zero: 0,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

const AMOUNT_WORD = `(?:${[...Object.keys(SMALL_NUMBERS), 'hundred', 'thousand', 'a', 'and'].join('|')})`;
const SPOKEN_AMOUNT = new RegExp(
  String.raw`\b(${AMOUNT_WORD}(?:[\s-]+${AMOUNT_WORD})*)\s+(dollars?|bucks)\b`,
  'g',
);

/** The number `words` say ("one hundred and fifty" is 150), or undefined. */
function wordsToNumber(words: string[]): number | undefined {
  let total = 0;
  let current = 0;
  let said = false;
  for (const word of words) {
    if (word === 'and') continue;
    if (word === 'a') {
      current ||= 1;
    } else if (word === 'hundred') {
      current = (current || 1) * 100;
      said = true;
    } else if (word === 'thousand') {
      total += (current || 1) * 1000;
      current = 0;
      said = true;
    } else {
      current += SMALL_NUMBERS[word] ?? 0;
      said = true;
    }
  }
  return said ? total + current : undefined;
}

/** Split a run of number words into numbers: an "and" not after hundred/thousand separates two. */
function splitNumbers(words: string[]): string[][] {
  const numbers: string[][] = [[]];
  words.forEach((word, i) => {
    const previous = words[i - 1];
    if (word === 'and' && previous !== 'hundred' && previous !== 'thousand') numbers.push([]);
    else numbers.at(-1)?.push(word);
  });
  return numbers;
}

/**
 * Amounts said in words written in digits: "under one hundred dollars" is "under 100 dollars",
 * "between fifty and one hundred and fifty dollars" is "between 50 and 150 dollars".
 */
export function amountsInDigits(text: string): string {
  return text.replace(SPOKEN_AMOUNT, (whole, amount: string, unit: string) => {
    const words = amount.split(/[\s-]+/);
    // A leading "a"/"and" that belongs to the sentence ("for a fifty dollars") stays.
    let start = 0;
    while (start < words.length - 1 && (words[start] === 'and' || words[start] === 'a')) {
      if (words[start] === 'a' && /^(hundred|thousand)$/.test(words[start + 1] ?? '')) break;
      start++;
    }
    const values = splitNumbers(words.slice(start)).map(wordsToNumber);
    if (values.some((v) => v === undefined)) return whole;
    return [...words.slice(0, start), values.join(' and '), unit].join(' ');
  });
}

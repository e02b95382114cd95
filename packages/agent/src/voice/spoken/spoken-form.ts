/**
 * `toSpokenForm`: written text (a bot's reply, possibly markdown with JSON or
 * tool calls in it) as a person would say it, for a text-to-speech engine.
 * Markup is removed first ({@link stripMarkup}), then written values are
 * rewritten into words, most specific first: web addresses, emails, phone
 * numbers, dates, times, money, percentages, ordinals, quantities, ids,
 * flight numbers, codes, years and plain numbers. Rewrites produce words
 * without digits; the rules run again (at most three more times) until the
 * text stops changing, so the result is its own spoken form.
 */
import { looksLikeLetterCode } from './letter-code.js';
import { stripMarkup } from './markup.js';
import { cardinalWords, digitWords, numberWords, ordinalWords, yearWords } from './numbers.js';
import {
  daysInMonth,
  monthNumber,
  sayCode,
  sayDate,
  sayEmail,
  sayFlightNumber,
  sayId,
  sayMoney,
  sayPhone,
  sayQuantity,
  sayTime,
  sayUrl,
} from './say.js';

/** Choices for {@link toSpokenForm}. */
export interface SpokenFormOptions {
  /**
   * How a slash date whose first two parts are both 12 or less is read
   * ("05/06/2024"). Unset, such a date is read as its numbers ("five slash
   * six slash twenty twenty-four"); a date with a part over 12 is always read
   * as a date.
   */
  slashDateOrder?: 'month-first' | 'day-first';
  /**
   * Whether an all-capital word of 5 to 8 letters is a code to spell
   * ("SDZQKO") rather than a word ("PLEASE"). Default: {@link looksLikeLetterCode}.
   */
  isLetterCode?: (word: string) => boolean;
}

/** Characters the spoken form never contains. */
export const UNSPOKEN_CHARACTERS = /[{}[\]_<>|#*`"\\~^]/g;

const MONTH =
  'Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?';
/** A written number: digits with optional thousands commas and decimals. */
const NUM = '\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|\\.\\d+';
const SCALE_WORDS: Record<string, string> = {
  k: 'thousand',
  K: 'thousand',
  M: 'million',
  m: 'million',
  mm: 'million',
  B: 'billion',
  bn: 'billion',
};

/** The plural of a number's words: "nineteen ninety" -> "nineteen nineties". */
function plural(words: string): string {
  if (words.endsWith('y')) return `${words.slice(0, -1)}ies`;
  if (words.endsWith('x')) return `${words}es`;
  return `${words}s`;
}

/** A rewrite: a pattern and what each match is said as. */
type Rule = [RegExp, (match: string, ...groups: Array<string | undefined>) => string];

/** Rules for ISO, slash and month-name dates. */
function dateRules(options: SpokenFormOptions): Rule[] {
  const valid = (y: number | undefined, m: number, d: number): boolean =>
    m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y ?? 2000, m);
  return [
    [
      /(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])/g,
      (all, y, m, d) => (valid(+y!, +m!, +d!) ? sayDate(+y!, +m!, +d!) : all),
    ],
    [
      /(?<![\w/])(\d{1,2})\/(\d{1,2})\/(\d{4})(?![\w/])/g,
      (all, a, b, y) => {
        const [x, z, year] = [+a!, +b!, +y!];
        const order = x > 12 ? 'day-first' : z > 12 ? 'month-first' : options.slashDateOrder;
        if (order === undefined) {
          return `${cardinalWords(a!)} slash ${cardinalWords(b!)} slash ${yearWords(year)}`;
        }
        const [m, d] = order === 'day-first' ? [z, x] : [x, z];
        return valid(year, m, d) ? sayDate(year, m, d) : all;
      },
    ],
    [
      new RegExp(
        `\\b(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?![\\w:.,]\\d|\\w)`,
        'g',
      ),
      (all, name, d, y) => {
        const m = monthNumber(name!)!;
        const year = y === undefined ? undefined : +y;
        return valid(year, m, +d!) ? sayDate(year, m, +d!) : all;
      },
    ],
    [
      new RegExp(
        `(?<![\\w.])(?:([Tt]he)\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\b\\.?(?:,?\\s+(\\d{4})(?!\\w))?`,
        'g',
      ),
      (all, the, d, name, y) => {
        const m = monthNumber(name!)!;
        const year = y === undefined ? undefined : +y;
        if (!valid(year, m, +d!)) return all;
        const said = `${the ?? 'the'} ${ordinalWords(+d!)} of ${sayDate(undefined, m, 1).split(' ')[0]!}`;
        return year === undefined ? said : `${said}, ${yearWords(year)}`;
      },
    ],
    [
      new RegExp(`\\b(${MONTH})\\.?\\s+(\\d{4})(?!\\w)`, 'g'),
      (_, name, y) => `${name!} ${yearWords(+y!)}`,
    ],
  ];
}

const MERIDIEM = '([AaPp])(?:\\.\\s?[Mm]\\.?|[Mm])(?!\\w)';

/** Rules for clock times, with or without AM/PM. */
function timeRules(): Rule[] {
  // "a.m." before a new sentence (or at the end) also ended the sentence: that period stays.
  const keepPeriod = (match: string, said: string, rest: string): string =>
    match.endsWith('.') && /^(\s*$|\s+[A-Z])/.test(rest) ? `${said}.` : said;
  return [
    [
      new RegExp(
        `(?<![\\w:.])([01]?\\d|2[0-3]):([0-5]\\d)(?::[0-5]\\d)?(?:\\s*${MERIDIEM})?(?![\\w:])`,
        'g',
      ),
      (all, h, m, ap, offset, input) => {
        const rest = String(input).slice(Number(offset) + all.length);
        return keepPeriod(all, sayTime(+h!, +m!, ap), rest);
      },
    ],
    [
      new RegExp(`(?<![\\w:.])(1[0-2]|0?[1-9])\\s*${MERIDIEM}`, 'g'),
      (all, h, ap, offset, input) => {
        const rest = String(input).slice(Number(offset) + all.length);
        return keepPeriod(all, sayTime(+h!, 0, ap), rest);
      },
    ],
  ];
}

/**
 * Rules for ranges: an en dash between two numbers or amounts ("$50–$100"),
 * or a hyphen between two numbers of at most four digits ("5-7"), is "to".
 */
function rangeRules(): Rule[] {
  return [
    [/(?<=\d%?)\s?[\u2013\u2014]\s?(?=[-\u2212]?[$\u20ac\u00a3\u00a5]?\d)/g, () => ' to '],
    [/(?<![\w.,-])(\d{1,4})-(?=\d{1,4}(?![\w-]|[.,]\d))/g, (_, n) => `${n!} to `],
  ];
}

/** Rules for money, percentages, ordinals, decades and quantities with units. */
function amountRules(): Rule[] {
  const money = (
    sign: string | undefined,
    symbol: string,
    amount: string,
    scale?: string,
  ): string =>
    sayMoney(symbol, amount, /[-\u2212]/.test(sign ?? ''), scale && (SCALE_WORDS[scale] ?? scale));
  return [
    [
      new RegExp(
        `(?<![\\w.])([-\\u2212]?)([$\\u20ac\\u00a3\\u00a5])\\s?([-\\u2212]?)(${NUM})(?:\\s?(thousand|million|billion|trillion)\\b|(bn|mm|[kKmMB])(?!\\w))?`,
        'g',
      ),
      (_, s1, symbol, s2, amount, word, letter) =>
        money(`${s1 ?? ''}${s2 ?? ''}`, symbol!, amount!, word ?? letter),
    ],
    [
      new RegExp(`(?<![\\w.])([-\\u2212]?)(${NUM})\\s?(USD|EUR|GBP|JPY)\\b`, 'g'),
      (_, sign, amount, code) => money(sign, code!, amount!),
    ],
    [
      new RegExp(`\\b(USD|EUR|GBP|JPY)\\s([-\\u2212]?)(${NUM})(?!\\w)`, 'g'),
      (_, code, sign, amount) => money(sign, code!, amount!),
    ],
    [
      new RegExp(`(?<![\\w.])([-\\u2212+]?)(${NUM})\\s?%`, 'g'),
      (_, sign, amount) => `${numberWords(`${sign === '+' ? '' : sign!}${amount!}`)} percent`,
    ],
    [/(?<![\w.])(\d+)(?:st|nd|rd|th)\b/g, (_, n) => ordinalWords(n!)],
    [
      /(?<![\w.])(\d{1,3}0)'?s\b/g,
      (_, n) => plural(n!.length === 4 ? yearWords(+n!) : cardinalWords(n!)),
    ],
    [
      new RegExp(
        `(?<![\\w.])([-\\u2212]?(?:${NUM}))\\s?(km/h|\\u00b0F|\\u00b0C|\\u00b0|kgs?|lbs?|oz|km|mi|cm|mm|ft|mph|kph|hrs?|h|mins?|secs?)(?![\\w/])`,
        'g',
      ),
      (_, amount, unit) => sayQuantity(amount!.replace(/,/g, ''), unit!),
    ],
  ];
}

/** Rules for ids with underscores, flight numbers and codes. */
function codeRules(options: SpokenFormOptions): Rule[] {
  const isCode = options.isLetterCode ?? looksLikeLetterCode;
  return [
    [/(?<![\w@.])[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+(?![\w@])/g, (id) => sayId(id)],
    [
      /\b([Ff]lights?\s+(?:number\s+)?)([A-Z]{2,3})\s(\d{1,4})(?![\w-])/g,
      (_, lead, letters, digits) => `${lead!}${sayFlightNumber(letters!, digits!)}`,
    ],
    [
      /(?<![\w.-])([A-Z]{2,3})(\d{1,4})(?![\w-])/g,
      (_, letters, digits) => sayFlightNumber(letters!, digits!),
    ],
    [
      /(?<![\w.-])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{2,}(?![\w-])/g,
      (code) => sayCode(code),
    ],
    [/(?<![\w.-])[A-Z]{5,8}(?![\w-])/g, (word) => (isCode(word) ? sayCode(word) : word)],
  ];
}

const YEAR_CUES =
  'in|since|by|from|until|till|of|year|before|after|during|through|circa|spring|summer|fall|autumn|winter';

/** Rules for years after a cue word, "#5", slashes between numbers, and plain numbers; any digit left is read alone. */
function numberRules(): Rule[] {
  return [
    [
      new RegExp(`\\b(${YEAR_CUES})(\\s+)(1[1-9]\\d\\d|20\\d\\d)(?![\\w,]|\\.\\d)`, 'gi'),
      (_, cue, space, y) => `${cue!}${space!}${yearWords(+y!)}`,
    ],
    [
      /\b(ending in|ends in|last four digits|last four|digits)(:?\s+)(\d{2,8})(?!\w)/gi,
      (_, cue, space, digits) => `${cue!}${space!}${digitWords(digits!)}`,
    ],
    [/#\s?(?=\d)/g, () => 'number '],
    [/(?<=\d)\/(?=\d)/g, () => ' slash '],
    [
      /(?<![\w.])([-\u2212+]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?!\w)/g,
      (_, sign, whole, fraction) => {
        const head = sign === '+' ? 'plus ' : sign ? 'minus ' : '';
        const plain = !whole!.includes(',');
        const digitsOnly =
          plain &&
          ((whole!.length > 1 && whole!.startsWith('0')) ||
            (whole!.length > 6 && !whole!.endsWith('000')));
        const wholeWords = digitsOnly ? digitWords(whole!) : cardinalWords(whole!);
        return `${head}${wholeWords}${fraction === undefined ? '' : ` point ${digitWords(fraction)}`}`;
      },
    ],
    [/(?<![\w.])\.(\d+)(?!\w)/g, (_, fraction) => `point ${digitWords(fraction!)}`],
    [/\d+/g, (digits) => ` ${digitWords(digits)} `],
  ];
}

const SYMBOL_RULES: Rule[] = [
  [/\s*[\u2192\u21d2\u27f6]\s*/g, () => ' to '],
  [/\s*\u00d7\s*/g, () => ' times '],
  [/\s*&\s*/g, () => ' and '],
  [/\s*@\s*/g, () => ' at '],
  [/\s*%/g, () => ' percent'],
  [/\s*\u00b0/g, () => ' degrees'],
  [/\s+\+\s+/g, () => ' plus '],
  [/\s+=\s+/g, () => ' equals '],
  [/(^|\s)~(?=\w)/g, (_, lead) => `${lead!}about `],
];

/** Every rule applied in order over the whole text. */
function applyRules(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const [pattern, say] of rules) {
    out = out.replace(pattern, (match: string, ...rest: unknown[]) =>
      say(match, ...rest.map((value) => (value === undefined ? undefined : String(value)))),
    );
  }
  return out;
}

/** Rewrites after the first, at most, when one frees a new token. */
const MAX_PASSES = 3;

/** Stray symbols removed and spacing and punctuation tidied. */
function tidy(text: string): string {
  return text
    .replace(UNSPOKEN_CHARACTERS, ' ')
    .replace(/\p{Extended_Pictographic}|[\u{1f3fb}-\u{1f3ff}]|\ufe0f|\u20e3/gu, ' ')
    .replace(/\+/g, ' plus ')
    .replace(/(?<=\p{L})\/(?=\p{L})/gu, ' or ')
    .replace(/\//g, ' ')
    .replace(/(?<![\p{L}\p{N}])-+|-+(?![\p{L}\p{N}])/gu, ' ')
    .replace(/\u2022/g, ' ')
    .replace(/[\u2013\u2014]/g, ', ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,!?;:])/g, '$1')
    .replace(/([,;:])(?=[A-Za-z])/g, '$1 ')
    .replace(/([.,;:!?])(?:\s*[,;:])+/g, '$1')
    .replace(/,(\s*[.!?])/g, '$1')
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.,;:!?)]+/, '')
    .trim();
}

/**
 * `text` as a person would say it, for a text-to-speech engine: markdown,
 * code, JSON and tool calls removed or described in words, and numbers,
 * money, dates, times, percentages, ordinals, phone numbers, emails, codes,
 * flight numbers and ids written out as words. Deterministic, never throws,
 * and its output is its own spoken form.
 */
export function toSpokenForm(text: string, options: SpokenFormOptions = {}): string {
  const plain = stripMarkup(String(text))
    .normalize('NFKC')
    .replace(/[\u200b-\u200d\ufeff]/g, '')
    .replace(/\s+/g, ' ');
  const rules: Rule[] = [
    [/\b(?:https?:\/\/|www\.)[^\s<>"'()]+?(?=[.,;:!?)]*(?:\s|$))/gi, (url) => sayUrl(url)],
    [
      /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g,
      (email) => sayEmail(email),
    ],
    [
      /(?<![\w-])(\+\d{1,3}[\s.-]?|1[\s.-])?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\w-])/g,
      (phone) => sayPhone(phone),
    ],
    ...dateRules(options),
    ...timeRules(),
    ...rangeRules(),
    ...amountRules(),
    ...codeRules(options),
    ...numberRules(),
    ...SYMBOL_RULES,
  ];
  // A rewrite can free a new token ("0.00SDZQKO" -> "zero. zero zero SDZQKO"): rewrite until nothing changes.
  let spoken = tidy(applyRules(plain, rules));
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const again = tidy(applyRules(spoken, rules));
    if (again === spoken) break;
    spoken = again;
  }
  return spoken;
}

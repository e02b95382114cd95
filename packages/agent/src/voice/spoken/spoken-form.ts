/**
 * `toSpokenForm`: written text (a bot's reply, possibly markdown with JSON or
 * tool calls in it) as a person would say it, for a text-to-speech engine.
 * Markup is removed first ({@link stripMarkup}), then written values are
 * rewritten into words, most specific first: web addresses, emails, phone
 * numbers, dates, times, money, percentages, ordinals, quantities, ids,
 * flight numbers, codes, years and plain numbers. Every rewrite produces words
 * without digits, so running it again changes nothing.
 */
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

/** All-capital words of 5-8 letters that are words, not codes. */
const CAPITAL_WORDS = new Set(
  (
    'ABOUT AFTER AGAIN AGENT ALERT ALWAYS ANSWER BASIC BEFORE BOOKED CABIN CANCEL CHANGE CHECK ' +
    'CLASS CLOSED DELAYED ECONOMY ERROR EXTRA FIRST FLIGHT GREAT HELLO HOTEL IMPORTANT LUGGAGE ' +
    'MEMBER NEVER NOTE NOTICE OFFER ORDER PLEASE POLICY REFUND RETURN SILVER SORRY STATUS STRICT ' +
    'STRENGTH SUCCESS TERMS THANK THANKS TICKET TODAY TOTAL UPDATE URGENT WARNING WORLD'
  ).split(' '),
);

/**
 * Whether an all-capital word looks like a code to spell: a known word
 * never does; otherwise it has no vowel, a run of four consonants, or a
 * letter pair English words hardly have ("DZ", "HX", "QK", a J, Q, V or Z
 * before a consonant).
 */
export function looksLikeLetterCode(word: string): boolean {
  const upper = word.toUpperCase();
  if (CAPITAL_WORDS.has(upper)) return false;
  if (!/[AEIOUY]/.test(upper)) return true;
  if (/[^AEIOUY]{4}/.test(upper)) return true;
  if (/Q(?!U)|[JVZ][^AEIOUYZ]|X[^AEIOUYTPCH]|[BCDFGHKMNPTW][JQXZ]|[HWK][BDFGKMPV]/.test(upper)) {
    return true;
  }
  return /(.)\1\1/.test(upper);
}

function plural(words: string): string {
  if (words.endsWith('y')) return `${words.slice(0, -1)}ies`;
  if (words.endsWith('x')) return `${words}es`;
  return `${words}s`;
}

/** A rewrite: a pattern and what each match is said as. */
type Rule = [RegExp, (match: string, ...groups: Array<string | undefined>) => string];

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
        `(?<![\\w.])(?:[Tt]he\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH})\\b\\.?(?:,?\\s+(\\d{4})(?!\\w))?`,
        'g',
      ),
      (all, d, name, y) => {
        const m = monthNumber(name!)!;
        const year = y === undefined ? undefined : +y;
        if (!valid(year, m, +d!)) return all;
        const said = `the ${ordinalWords(+d!)} of ${sayDate(undefined, m, 1).split(' ')[0]!}`;
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
      new RegExp(`\\b(USD|EUR|GBP|JPY)\\s?([-\\u2212]?)(${NUM})(?!\\w)`, 'g'),
      (_, code, sign, amount) => money(sign, code!, amount!),
    ],
    [
      new RegExp(`(?<![\\w.])([-\\u2212+]?)(${NUM})\\s?%`, 'g'),
      (_, sign, amount) => `${numberWords(`${sign === '+' ? '' : sign!}${amount!}`)} percent`,
    ],
    [/(?<![\w.])(\d+)(?:st|nd|rd|th)\b/gi, (_, n) => ordinalWords(n!)],
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

function codeRules(options: SpokenFormOptions): Rule[] {
  const isCode = options.isLetterCode ?? looksLikeLetterCode;
  return [
    [/(?<![\w@.])[A-Za-z0-9]+(?:_+[A-Za-z0-9]+)+(?![\w@])/g, (id) => sayId(id)],
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

function numberRules(): Rule[] {
  return [
    [
      new RegExp(`\\b(${YEAR_CUES})(\\s+)(1[1-9]\\d\\d|20\\d\\d)(?![\\w,]|\\.\\d)`, 'gi'),
      (_, cue, space, y) => `${cue!}${space!}${yearWords(+y!)}`,
    ],
    [/#\s?(?=\d)/g, () => 'number '],
    [/(?<=[A-Za-z])\/(?=[A-Za-z])/g, () => ' or '],
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
  [/\s*&\s*/g, () => ' and '],
  [/\s*@\s*/g, () => ' at '],
  [/\s*%/g, () => ' percent'],
  [/\s*\u00b0/g, () => ' degrees'],
  [/\s+\+\s+/g, () => ' plus '],
  [/\s+=\s+/g, () => ' equals '],
  [/(^|\s)~(?=\w)/g, (_, lead) => `${lead!}about `],
];

function applyRules(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const [pattern, say] of rules) {
    out = out.replace(pattern, (match: string, ...rest: unknown[]) =>
      say(match, ...rest.map((value) => (value === undefined ? undefined : String(value)))),
    );
  }
  return out;
}

/** Stray symbols removed and spacing and punctuation tidied. */
function tidy(text: string): string {
  return text
    .replace(UNSPOKEN_CHARACTERS, ' ')
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
    .replace(/[\u200b-\u200d\ufeff]/g, '');
  const rules: Rule[] = [
    [/\b(?:https?:\/\/|www\.)[^\s<>"'()]+?(?=[.,;:!?)]*(?:\s|$))/gi, (url) => sayUrl(url)],
    [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, (email) => sayEmail(email)],
    [
      /(?<![\w-])(\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)\s?|\d{3}[\s.-])\d{3}[\s.-]\d{4}(?![\w-])/g,
      (phone) => sayPhone(phone),
    ],
    ...dateRules(options),
    ...timeRules(),
    ...amountRules(),
    ...codeRules(options),
    ...numberRules(),
    ...SYMBOL_RULES,
  ];
  return tidy(applyRules(plain, rules));
}

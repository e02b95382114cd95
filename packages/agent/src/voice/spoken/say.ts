/**
 * How single written values are said: codes, flight numbers, ids, emails,
 * phone numbers, web addresses, dates, times and amounts. Each function
 * takes the written value and returns words only (letters, digits' words,
 * commas and hyphens), so the result is never rewritten again.
 */
import {
  cardinalWords,
  digitWords,
  numberWords,
  ordinalWords,
  pairedNumberWords,
  yearWords,
} from './numbers.js';

/** Month names, January first. */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The 1-based month of a name or abbreviation ("Sept", "sep", "September"), or undefined. */
export function monthNumber(name: string): number | undefined {
  const lower = name.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((m) => {
    const full = m.toLowerCase();
    return full === lower || (full.startsWith(lower) && (lower.length === 3 || lower === 'sept'));
  });
  return index < 0 ? undefined : index + 1;
}

/** Days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A code spelled character by character: `M05KNL` -> "M, zero, five, K, N, L". */
export function sayCode(code: string): string {
  return [...code]
    .filter((c) => /[A-Za-z0-9]/.test(c))
    .map((c) => (/\d/.test(c) ? digitWords(c) : c.toUpperCase()))
    .join(', ');
}

/** A flight number: letters spelled, number in pairs: `HAT110` -> "H A T one ten". */
export function sayFlightNumber(letters: string, digits: string): string {
  return `${[...letters.toUpperCase()].join(' ')} ${pairedNumberWords(digits)}`;
}

/**
 * One piece of an id, email or address: a word stays a word (lowercase), a
 * digit run is read digit by digit, and a piece mixing them is split:
 * `jo42` -> "jo four two".
 */
function sayPiece(piece: string): string {
  return (piece.match(/[A-Za-z\p{L}]+|\d+/gu) ?? [])
    .map((part) => (/^\d+$/.test(part) ? digitWords(part) : part.toLowerCase()))
    .join(' ');
}

/**
 * An id with underscores as a caller says it: each underscore is
 * "underscore", digits are read one by one: `aarav_garcia_1177` -> "aarav
 * underscore garcia underscore one one seven seven". Words come out
 * lowercase.
 */
export function sayId(id: string): string {
  return id
    .split(/(_+|-)/)
    .filter((part) => part !== '')
    .map((part) => (part === '-' ? 'dash' : /^_+$/.test(part) ? 'underscore' : sayPiece(part)))
    .join(' ');
}

const ADDRESS_SYMBOLS: Record<string, string> = {
  '.': 'dot',
  _: 'underscore',
  '-': 'dash',
  '+': 'plus',
  '@': 'at',
  '/': 'slash',
};

/** An address (email or host) with its symbols said as words. */
function sayAddress(text: string): string {
  return (text.match(/[.\-_+@/]|[^.\-_+@/]+/g) ?? [])
    .map((part) => ADDRESS_SYMBOLS[part] ?? sayPiece(part))
    .filter((part) => part !== '')
    .join(' ');
}

/** An email address: `jo.smith@example.com` -> "jo dot smith at example dot com". */
export function sayEmail(email: string): string {
  return sayAddress(email);
}

/** A web address by its host: `https://www.example.com/a` -> "example dot com". */
export function sayUrl(url: string): string {
  const host =
    url
      .replace(/^[a-z]+:\/\//i, '')
      .replace(/^www\./i, '')
      .split(/[/?#:]/)[0] ?? '';
  return sayAddress(host);
}

/** A phone number in groups, digits one by one: `(415) 555-0199` -> "four one five, five five five, zero one nine nine". */
export function sayPhone(phone: string): string {
  const groups = phone.match(/\d+/g) ?? [];
  const words = groups.map(digitWords);
  if (phone.trim().startsWith('+') && words.length > 0) words[0] = `plus ${words[0]!}`;
  return words.join(', ');
}

/** A date: (2024, 5, 24) -> "May twenty-fourth, twenty twenty-four"; no year, no year said. */
export function sayDate(year: number | undefined, month: number, day: number): string {
  const head = `${MONTHS[month - 1]!} ${ordinalWords(day)}`;
  return year === undefined ? head : `${head}, ${yearWords(year)}`;
}

/**
 * A clock time: (14, 30) -> "two thirty PM", (9, 5, "am") -> "nine oh five
 * AM", (9, 0) -> "nine o'clock". Without a meridiem, hours 0 and 13-23 get
 * AM/PM and 1-12 none.
 */
export function sayTime(hour: number, minute: number, meridiem?: string): string {
  let suffix = meridiem ? (/^a/i.test(meridiem) ? 'AM' : 'PM') : '';
  let h = hour;
  if (!meridiem && (hour === 0 || hour > 12)) {
    suffix = hour >= 12 ? 'PM' : 'AM';
  }
  if (h === 0) h = 12;
  else if (h > 12) h -= 12;
  const hourWords = cardinalWords(String(h));
  if (minute === 0) return suffix ? `${hourWords} ${suffix}` : `${hourWords} o'clock`;
  const minuteWords =
    minute < 10 ? `oh ${digitWords(String(minute))}` : cardinalWords(String(minute));
  return `${hourWords} ${minuteWords}${suffix ? ` ${suffix}` : ''}`;
}

/** Currencies by symbol or code: singular and plural names, and the minor unit. */
export const CURRENCIES: Record<string, { one: string; many: string; cent?: [string, string] }> = {
  $: { one: 'dollar', many: 'dollars', cent: ['cent', 'cents'] },
  USD: { one: 'dollar', many: 'dollars', cent: ['cent', 'cents'] },
  '\u20ac': { one: 'euro', many: 'euros', cent: ['cent', 'cents'] },
  EUR: { one: 'euro', many: 'euros', cent: ['cent', 'cents'] },
  '\u00a3': { one: 'pound', many: 'pounds', cent: ['penny', 'pence'] },
  GBP: { one: 'pound', many: 'pounds', cent: ['penny', 'pence'] },
  '\u00a5': { one: 'yen', many: 'yen' },
  JPY: { one: 'yen', many: 'yen' },
};

/**
 * An amount of money: ("$", "2,580") -> "two thousand five hundred eighty
 * dollars", ("$", "12.50") -> "twelve dollars and fifty cents", a negative
 * amount starts with "minus", a scale word ("million") comes before the
 * currency. More than two decimals are read as "point ...".
 */
export function sayMoney(symbol: string, amount: string, negative = false, scale?: string): string {
  const currency = CURRENCIES[symbol] ?? CURRENCIES.$!;
  const [whole = '0', fraction] = amount.replace(/,/g, '').split('.');
  const wholeDigits = whole === '' ? '0' : whole;
  const sign = negative ? 'minus ' : '';
  const many = (digits: string): string => (/^0*1$/.test(digits) ? currency.one : currency.many);
  if (scale) {
    return `${sign}${numberWords(amount.replace(/,/g, ''))} ${scale} ${currency.many}`;
  }
  if (fraction === undefined || fraction === '' || /^0+$/.test(fraction)) {
    return `${sign}${cardinalWords(wholeDigits)} ${many(wholeDigits)}`;
  }
  if (fraction.length > 2 || !currency.cent) {
    return `${sign}${numberWords(`${wholeDigits}.${fraction}`)} ${currency.many}`;
  }
  const cents = fraction.padEnd(2, '0');
  const centWords = `${cardinalWords(cents)} ${Number(cents) === 1 ? currency.cent[0] : currency.cent[1]}`;
  if (/^0+$/.test(wholeDigits)) return `${sign}${centWords}`;
  return `${sign}${cardinalWords(wholeDigits)} ${many(wholeDigits)} and ${centWords}`;
}

/** Unit abbreviations and their singular and plural names. */
export const UNITS: Record<string, [string, string]> = {
  kg: ['kilogram', 'kilograms'],
  kgs: ['kilogram', 'kilograms'],
  lb: ['pound', 'pounds'],
  lbs: ['pound', 'pounds'],
  oz: ['ounce', 'ounces'],
  km: ['kilometer', 'kilometers'],
  mi: ['mile', 'miles'],
  cm: ['centimeter', 'centimeters'],
  mm: ['millimeter', 'millimeters'],
  ft: ['foot', 'feet'],
  mph: ['mile per hour', 'miles per hour'],
  'km/h': ['kilometer per hour', 'kilometers per hour'],
  kph: ['kilometer per hour', 'kilometers per hour'],
  h: ['hour', 'hours'],
  hr: ['hour', 'hours'],
  hrs: ['hour', 'hours'],
  min: ['minute', 'minutes'],
  mins: ['minute', 'minutes'],
  sec: ['second', 'seconds'],
  secs: ['second', 'seconds'],
  '\u00b0F': ['degree Fahrenheit', 'degrees Fahrenheit'],
  '\u00b0C': ['degree Celsius', 'degrees Celsius'],
  '\u00b0': ['degree', 'degrees'],
};

/** A quantity with a unit abbreviation: ("3", "kg") -> "three kilograms", ("1", "kg") -> "one kilogram". */
export function sayQuantity(amount: string, unit: string): string {
  const names = UNITS[unit] ?? UNITS[unit.toLowerCase()];
  const words = numberWords(amount);
  if (!names) return `${words} ${unit}`;
  return `${words} ${/^0*1$/.test(amount) ? names[0] : names[1]}`;
}

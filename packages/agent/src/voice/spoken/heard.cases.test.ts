import { describe, expect, it } from 'vitest';
import {
  parseSpokenAmount,
  parseSpokenCode,
  parseSpokenDate,
  parseSpokenEmail,
  parseSpokenId,
  type SpokenAmount,
} from './heard.js';
import { parseSpokenTime } from './heard-time.js';
import { parseSpokenNumber } from './numbers.js';

const NUMBERS: Array<[string, number | undefined]> = [
  ['zero', 0],
  ['seven', 7],
  ['twelve', 12],
  ['forty two', 42],
  ['forty-two', 42],
  ['one hundred', 100],
  ['a hundred', 100],
  ['one hundred and five', 105],
  ['two thousand five hundred eighty', 2580],
  ['twenty five hundred eighty', 2580],
  ['twelve hundred', 1200],
  ['one thousand two hundred thirty four point five', 1234.5],
  ['one million', 1_000_000],
  ['three million four hundred thousand', 3_400_000],
  ['minus twenty', -20],
  ['negative five', -5],
  ['one point five', 1.5],
  ['point five', 0.5],
  ['zero point seven five', 0.75],
  ['three point one four', 3.14],
  ['one one seven seven', 1177],
  ['eleven seventy seven', 1177],
  ['twenty twenty four', 2024],
  ['nineteen oh five', 1905],
  ['double five', 55],
  ['1177', 1177],
  ['hello', undefined],
  ['five apples', undefined],
  ['', undefined],
];

const AMOUNTS: Array<[string, SpokenAmount | undefined]> = [
  ['one hundred dollars', { value: 100, unit: 'USD' }],
  ['two thousand five hundred eighty dollars', { value: 2580, unit: 'USD' }],
  ['twelve dollars and fifty cents', { value: 12.5, unit: 'USD' }],
  ['one dollar and one cent', { value: 1.01, unit: 'USD' }],
  ['fifty cents', { value: 0.5, unit: 'USD' }],
  ['minus twenty dollars', { value: -20, unit: 'USD' }],
  ['minus twelve dollars and fifty cents', { value: -12.5, unit: 'USD' }],
  ['five euros', { value: 5, unit: 'EUR' }],
  ['five pounds', { value: 5, unit: 'GBP' }],
  ['four pounds and ninety nine pence', { value: 4.99, unit: 'GBP' }],
  ['five hundred yen', { value: 500, unit: 'JPY' }],
  ['two point five million dollars', { value: 2_500_000, unit: 'USD' }],
  ['three million dollars', { value: 3_000_000, unit: 'USD' }],
  ['twenty bucks', { value: 20, unit: 'USD' }],
  ['fifteen percent', { value: 15, unit: 'percent' }],
  ['two point five percent', { value: 2.5, unit: 'percent' }],
  ['ten per cent', { value: 10, unit: 'percent' }],
  ['two bags', { value: 2, unit: 'bags' }],
  ['three kilograms', { value: 3, unit: 'kilograms' }],
  ['forty two', { value: 42 }],
  ['100 dollars', { value: 100, unit: 'USD' }],
  ['dollars', undefined],
];

const CODES: Array<[string, string | undefined]> = [
  ['m zero five k n l', 'M05KNL'],
  ['M, zero, five, K, N, L', 'M05KNL'],
  ['mike zero five kilo november lima', 'M05KNL'],
  ['m oh five k n l', 'M05KNL'],
  ['zulu foxtrot alpha zero four yankee', 'ZFA04Y'],
  ['eight j x two w o', '8JX2WO'],
  ['s d z q k o', 'SDZQKO'],
  ['double five', '55'],
  ['triple seven', '777'],
  ['double e', 'EE'],
  ['a b double c', 'ABCC'],
  ['h a t one ten', 'HAT110'],
  ['h a t twelve thirty four', 'HAT1234'],
  ['h a t three oh five', 'HAT305'],
  ['h a t one hundred', 'HAT100'],
  ['h a t one one zero', 'HAT110'],
  ['hotel alpha tango one ten', 'HAT110'],
  ['m as in mike zero five', 'M05'],
  ['bee dee zed', 'BDZ'],
  ['x-ray one two three four', 'X1234'],
  ['em en', 'MN'],
  ['m05knl', 'M05KNL'],
  ['not a code', undefined],
  ['', undefined],
];

const DATES: Array<[string, number | undefined, string | undefined]> = [
  ['may twenty fourth', 2024, '2024-05-24'],
  ['may twenty fourth twenty twenty four', undefined, '2024-05-24'],
  ['may twenty fourth twenty twenty four', 2020, '2024-05-24'],
  ['May twenty-fourth, twenty twenty-four', undefined, '2024-05-24'],
  ['may twenty four', 2024, '2024-05-24'],
  ['january first', 2025, '2025-01-01'],
  ['december thirty first nineteen ninety nine', undefined, '1999-12-31'],
  ['march second two thousand five', undefined, '2005-03-02'],
  ['the third of june', 2024, '2024-06-03'],
  ['the twenty fourth of may twenty twenty four', undefined, '2024-05-24'],
  ['third of june two thousand and five', undefined, '2005-06-03'],
  ['february twenty ninth', 2024, '2024-02-29'],
  ['february twenty ninth', 2023, undefined],
  ['may twenty fourth', undefined, undefined],
  ['june thirty first', 2024, undefined],
  ['may', 2024, undefined],
  ['tomorrow', 2024, undefined],
  ['november ninth nineteen oh five', undefined, '1905-11-09'],
];

const IDS: Array<[string, string | undefined]> = [
  ['aarav underscore garcia underscore one one seven seven', 'aarav_garcia_1177'],
  ['aarav underscore garcia underscore eleven seventy seven', 'aarav_garcia_1177'],
  ['mia underscore li underscore three six six eight', 'mia_li_3668'],
  ['user underscore id', 'user_id'],
  ['user underscore a one b', 'user_a1b'],
  ['Aarav underscore Garcia underscore one one seven seven', 'aarav_garcia_1177'],
  ['aarav underscore garcia dash one', 'aarav_garcia-1'],
  ['aarav garcia', undefined],
];

const EMAILS: Array<[string, string | undefined]> = [
  ['jo dot smith at example dot com', 'jo.smith@example.com'],
  ['jo four two at mail dot example dot org', 'jo42@mail.example.org'],
  ['a underscore b dash c at x dot io', 'a_b-c@x.io'],
  ['john plus travel at gmail dot com', 'john+travel@gmail.com'],
  ['jo dot smith at example', undefined],
  ['at example dot com', undefined],
  ['meet me at noon', undefined],
  ['aa dot aa at at dot com', 'aa.aa@at.com'],
  ['at dot aa at x dot com', 'at.aa@x.com'],
];

const TIMES: Array<[string, string | undefined]> = [
  ['two thirty p m', '14:30'],
  ['two thirty pm', '14:30'],
  ['nine oh five a m', '09:05'],
  ["nine o'clock", '09:00'],
  ['twelve fifteen a m', '00:15'],
  ['twelve p m', '12:00'],
  ['eleven forty five pm', '23:45'],
  ['seven', '07:00'],
  ['noon', '12:00'],
  ['midnight', '00:00'],
  ['thirteen pm', undefined],
  ['nine sixty', undefined],
  ['lunch time', undefined],
];

/** A table of one reader of heard text: `read(heard)` gives `value`. */
function reads<T>(read: (heard: string) => T, cases: Array<[string, T]>): void {
  it.each(cases)(`${read.name}(%j) = %j`, (heard, value) => {
    expect(read(heard)).toEqual(value);
  });
}

describe('reading heard values', () => {
  reads(parseSpokenTime, TIMES);
  reads(parseSpokenNumber, NUMBERS);
  reads(parseSpokenAmount, AMOUNTS);
  reads(parseSpokenCode, CODES);
  it.each(DATES)('parseSpokenDate(%j, %j) = %j', (heard, year, iso) => {
    expect(parseSpokenDate(heard, year)).toBe(iso);
  });
  reads(parseSpokenId, IDS);
  reads(parseSpokenEmail, EMAILS);
});

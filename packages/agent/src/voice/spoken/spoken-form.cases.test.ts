import { describe, expect, it } from 'vitest';
import { toSpokenForm } from './spoken-form.js';

/** [written, spoken] */
type Case = [string, string];

const NUMBERS: Case[] = [
  ['0', 'zero'],
  ['7', 'seven'],
  ['13', 'thirteen'],
  ['42', 'forty-two'],
  ['100', 'one hundred'],
  ['101', 'one hundred one'],
  ['999', 'nine hundred ninety-nine'],
  ['1000', 'one thousand'],
  ['1,234.5', 'one thousand two hundred thirty-four point five'],
  ['2580', 'two thousand five hundred eighty'],
  ['12,000', 'twelve thousand'],
  ['1,000,000', 'one million'],
  ['1000000', 'one million'],
  ['3.14', 'three point one four'],
  ['0.75', 'zero point seven five'],
  ['.5', 'point five'],
  ['-5', 'minus five'],
  ['-3.5', 'minus three point five'],
  ['+5', 'plus five'],
  ['007', 'zero zero seven'],
  ['1234567', 'one two three four five six seven'],
  ['I have 2 bags.', 'I have two bags.'],
  ['2 bags', 'two bags'],
  ['1 bag and 3 suitcases', 'one bag and three suitcases'],
  ['3 kg', 'three kilograms'],
  ['1 kg', 'one kilogram'],
  ['23kg', 'twenty-three kilograms'],
  ['50 lbs', 'fifty pounds'],
  ['10 km', 'ten kilometers'],
  ['2 h', 'two hours'],
  ['45 min', 'forty-five minutes'],
  ['70°F', 'seventy degrees Fahrenheit'],
  ['20 °C', 'twenty degrees Celsius'],
  ['1,2,3', 'one, two, three'],
  ['1/2', 'one slash two'],
  ['#5', 'number five'],
  ['Gate 5-7', 'Gate five-seven'],
  ['the 1990s', 'the nineteen nineties'],
  ['in the 80s', 'in the eighties'],
];

const ORDINALS_AND_YEARS: Case[] = [
  ['1st', 'first'],
  ['2nd', 'second'],
  ['3rd', 'third'],
  ['4th', 'fourth'],
  ['11th', 'eleventh'],
  ['12th', 'twelfth'],
  ['20th', 'twentieth'],
  ['22nd', 'twenty-second'],
  ['31st', 'thirty-first'],
  ['100th', 'one hundredth'],
  ['in 2024', 'in twenty twenty-four'],
  ['since 1999', 'since nineteen ninety-nine'],
  ['by 2005', 'by two thousand five'],
  ['2005', 'two thousand five'],
  ['in 1905', 'in nineteen oh five'],
  ['in 1900', 'in nineteen hundred'],
  ['in 2010', 'in twenty ten'],
  ['in 2000', 'in two thousand'],
  ['summer 2023', 'summer twenty twenty-three'],
];

const MONEY: Case[] = [
  ['$2,580', 'two thousand five hundred eighty dollars'],
  ['$12.50', 'twelve dollars and fifty cents'],
  ['$12.5', 'twelve dollars and fifty cents'],
  ['$1', 'one dollar'],
  ['$1.01', 'one dollar and one cent'],
  ['$0.50', 'fifty cents'],
  ['$100.00', 'one hundred dollars'],
  ['-$20', 'minus twenty dollars'],
  ['$-20', 'minus twenty dollars'],
  ['\u2212$20', 'minus twenty dollars'],
  ['\u20ac5', 'five euros'],
  ['\u20ac1', 'one euro'],
  ['\u00a35', 'five pounds'],
  ['\u00a34.99', 'four pounds and ninety-nine pence'],
  ['\u00a5500', 'five hundred yen'],
  ['$2.5 million', 'two point five million dollars'],
  ['$3M', 'three million dollars'],
  ['$40k', 'forty thousand dollars'],
  ['$0.125', 'zero point one two five dollars'],
  ['$ 15', 'fifteen dollars'],
  ['20 USD', 'twenty dollars'],
  ['EUR 30', 'thirty euros'],
  [
    'The refund is $1,234.56.',
    'The refund is one thousand two hundred thirty-four dollars and fifty-six cents.',
  ],
  ['It costs $1.01 or $0.50.', 'It costs one dollar and one cent or fifty cents.'],
  ['15%', 'fifteen percent'],
  ['2.5%', 'two point five percent'],
  ['-3%', 'minus three percent'],
  ['100 %', 'one hundred percent'],
];

const DATES_AND_TIMES: Case[] = [
  ['2024-05-24', 'May twenty-fourth, twenty twenty-four'],
  ['2024-01-01', 'January first, twenty twenty-four'],
  ['2023-12-31', 'December thirty-first, twenty twenty-three'],
  ['2005-03-02', 'March second, two thousand five'],
  ['2024-02-30', 'two thousand twenty-four-zero two-thirty'],
  ['05/24/2024', 'May twenty-fourth, twenty twenty-four'],
  ['24/05/2024', 'May twenty-fourth, twenty twenty-four'],
  ['05/06/2024', 'five slash six slash twenty twenty-four'],
  ['May 24, 2024', 'May twenty-fourth, twenty twenty-four'],
  ['May 24', 'May twenty-fourth'],
  ['on May 24th', 'on May twenty-fourth'],
  ['Jan 5', 'January fifth'],
  ['Sept 3, 2025', 'September third, twenty twenty-five'],
  ['24 May 2024', 'the twenty-fourth of May, twenty twenty-four'],
  ['on the 3rd of June 2024', 'on the third of June, twenty twenty-four'],
  ['May 2024', 'May twenty twenty-four'],
  ['14:30', 'two thirty PM'],
  ['9:05 am', 'nine oh five AM'],
  ['9:05am', 'nine oh five AM'],
  ['9:00', "nine o'clock"],
  ['9:00 PM', 'nine PM'],
  ['12:00', "twelve o'clock"],
  ['00:15', 'twelve fifteen AM'],
  ['23:45', 'eleven forty-five PM'],
  ['10:10 a.m.', 'ten ten AM.'],
  ['at 9 a.m. tomorrow', 'at nine AM tomorrow'],
  ['at 5pm', 'at five PM'],
  ['7 PM', 'seven PM'],
  [
    'Flight HAT110 departs at 9:00 am on May 24, 2024.',
    'Flight H A T one ten departs at nine AM on May twenty-fourth, twenty twenty-four.',
  ],
];

const CONTACTS_AND_CODES: Case[] = [
  ['(415) 555-0199', 'four one five, five five five, zero one nine nine'],
  ['415-555-0199', 'four one five, five five five, zero one nine nine'],
  ['415.555.0199', 'four one five, five five five, zero one nine nine'],
  ['+1 415 555 0199', 'plus one, four one five, five five five, zero one nine nine'],
  ['Call 415-555-0199.', 'Call four one five, five five five, zero one nine nine.'],
  ['jo.smith@example.com', 'jo dot smith at example dot com'],
  ['Email jo42@mail.example.org.', 'Email jo four two at mail dot example dot org.'],
  ['a_b-c@x.io', 'a underscore b dash c at x dot io'],
  ['https://www.example.com/help', 'example dot com'],
  ['Visit www.airline.com.', 'Visit airline dot com.'],
  ['M05KNL', 'M, zero, five, K, N, L'],
  ['ZFA04Y', 'Z, F, A, zero, four, Y'],
  ['8JX2WO', 'eight, J, X, two, W, O'],
  ['Your code is m05knl.', 'Your code is M, zero, five, K, N, L.'],
  ['SDZQKO', 'S, D, Z, Q, K, O'],
  ['HXDUBJ', 'H, X, D, U, B, J'],
  ['PLEASE', 'PLEASE'],
  ['THANKS', 'THANKS'],
  ['HELLO there', 'HELLO there'],
  ['NASA', 'NASA'],
  ['HAT110', 'H A T one ten'],
  ['HAT1234', 'H A T twelve thirty-four'],
  ['HAT5', 'H A T five'],
  ['HAT100', 'H A T one hundred'],
  ['HAT305', 'H A T three oh five'],
  ['AA1200', 'A A twelve hundred'],
  ['UA12', 'U A twelve'],
  ['HAT012', 'H A T zero one two'],
  ['aarav_garcia_1177', 'aarav underscore garcia underscore one one seven seven'],
  ['user_id', 'user underscore id'],
  ['mia_li_3668', 'mia underscore li underscore three six six eight'],
  ['A320', 'A, three, two, zero'],
];

const MARKUP: Case[] = [
  ['**Your** reservation is *confirmed*.', 'Your reservation is confirmed.'],
  ['__bold__ and _italic_', 'bold and italic'],
  ['~~old~~ new', 'old new'],
  ['# Summary', 'Summary.'],
  ['## Your trip ##', 'Your trip.'],
  ['Use `M05KNL` now', 'Use M, zero, five, K, N, L now'],
  ['See [the docs](https://x.com/a).', 'See the docs.'],
  ['![a plane](plane.png) Boarding', 'a plane Boarding'],
  ['<b>Bold</b> text<br/>here', 'Bold text here'],
  ['> quoted line', 'quoted line'],
  ['Options:\n- economy\n- business\n- first', 'Options: economy, business, and first.'],
  ['Pick:\n* window\n* aisle', 'Pick: window and aisle.'],
  [
    'Steps:\n1. Check the reservation status now.\n2. Confirm the new date with the user',
    'Steps: Check the reservation status now. Confirm the new date with the user.',
  ],
  ['Line one\nLine two', 'Line one. Line two'],
  ['Done.\n\n---\n\nNext', 'Done. Next'],
  [
    '| Flight | Date |\n|---|---|\n| HAT110 | 2024-05-24 |',
    'Flight, Date. H A T one ten, May twenty-fourth, twenty twenty-four.',
  ],
  ['Here:\n```json\n{"a": 1}\n```\nDone', 'Here: Done'],
  ['```\ncode only\n```', ''],
  ['Before ```x = [1, 2]``` after', 'Before after'],
  [
    '{"reservation_id": "M05KNL", "total": 2580}',
    'reservation id M, zero, five, K, N, L, total two thousand five hundred eighty',
  ],
  ['[1, 2, 3]', 'one, two, three'],
  ['{"ok": true, "note": null}', 'ok yes, note none'],
  [
    'update_reservation_flights(reservation_id="M05KNL", cabin="economy", flights=[{"flight_number": "HAT110", "date": "2024-05-24"}])',
    'update reservation flights: reservation id M, zero, five, K, N, L; cabin economy; flights flight number H A T one ten, date May twenty-fourth, twenty twenty-four',
  ],
  [
    'get_user_details(user_id="aarav_garcia_1177")',
    'get user details: user id aarav underscore garcia underscore one one seven seven',
  ],
  ["cancel_reservation('M05KNL')", 'cancel reservation: M, zero, five, K, N, L'],
  ['list_all_airports()', 'list all airports'],
  ['think(thought="check the policy")', 'think: thought check the policy'],
  ['item(s)', 'item(s)'],
  ['a | b', 'a b'],
  ['Price {unknown', 'Price unknown'],
  ['Tom & Jerry', 'Tom and Jerry'],
  ['and/or', 'and or or'],
  ['see @support', 'see at support'],
  ['~5 minutes', 'about five minutes'],
  ['"quoted"', 'quoted'],
  ['', ''],
  ['   ', ''],
];

describe('toSpokenForm cases', () => {
  const tables: Array<[string, Case[]]> = [
    ['numbers and quantities', NUMBERS],
    ['ordinals and years', ORDINALS_AND_YEARS],
    ['money and percentages', MONEY],
    ['dates and times', DATES_AND_TIMES],
    ['contacts, codes, flights and ids', CONTACTS_AND_CODES],
    ['markup, JSON and calls', MARKUP],
  ];
  for (const [name, cases] of tables) {
    it.each(cases)(`${name}: %j -> %j`, (written, spoken) => {
      expect(toSpokenForm(written)).toBe(spoken);
    });
  }

  it('reads an ambiguous slash date in the order asked for', () => {
    expect(toSpokenForm('05/06/2024', { slashDateOrder: 'month-first' })).toBe(
      'May sixth, twenty twenty-four',
    );
    expect(toSpokenForm('05/06/2024', { slashDateOrder: 'day-first' })).toBe(
      'June fifth, twenty twenty-four',
    );
  });

  it('lets the caller decide which capital words are codes', () => {
    expect(toSpokenForm('HELLO', { isLetterCode: () => true })).toBe('H, E, L, L, O');
    expect(toSpokenForm('SDZQKO', { isLetterCode: () => false })).toBe('SDZQKO');
  });
});

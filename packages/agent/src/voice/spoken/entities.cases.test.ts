import { describe, expect, it } from 'vitest';
import { extractEntities } from './entities.js';

/** [heard, [kind, value, unit?][]] */
type Case = [string, Array<[string, string | number, string?]>];

const CASES: Case[] = [
  ['my reservation is m zero five k n l', [['code', 'M05KNL']]],
  ['the code is mike zero five kilo november lima thanks', [['code', 'M05KNL']]],
  ['confirmation s d z q k o', [['code', 'SDZQKO']]],
  ['eight j x two w o please', [['code', '8JX2WO']]],
  ['i am on flight h a t one ten', [['flight', 'HAT110']]],
  ['flight h a t twelve thirty four tomorrow', [['flight', 'HAT1234']]],
  [
    'my user id is aarav underscore garcia underscore one one seven seven',
    [['id', 'aarav_garcia_1177']],
  ],
  ['id mia underscore li underscore three six six eight and nothing else', [['id', 'mia_li_3668']]],
  ['email jo dot smith at example dot com', [['email', 'jo.smith@example.com']]],
  ['i want to fly on may twenty fourth', [['date', '2024-05-24']]],
  ['on the third of june twenty twenty five', [['date', '2025-06-03']]],
  ['it cost two thousand five hundred eighty dollars', [['amount', 2580, 'USD']]],
  ['twelve dollars and fifty cents', [['amount', 12.5, 'USD']]],
  ['a refund of minus twenty dollars', [['amount', -20, 'USD']]],
  ['fifteen percent off', [['amount', 15, 'percent']]],
  ['i have two bags', [['number', 2]]],
  [
    'three passengers and two bags',
    [
      ['number', 3],
      ['number', 2],
    ],
  ],
  ['call me at four one five five five five zero one nine nine', [['phone', '4155550199']]],
  ['my pin is one two three four', [['number', 1234]]],
  ['i need a one way ticket', [['number', 1]]],
  ['yes that is correct', []],
  ['i would like to cancel please', []],
  ['at nine', [['number', 9]]],
  ['meet at nine oh five a m', [['time', '09:05']]],
  [
    "at seven o'clock with two bags",
    [
      ['time', '07:00'],
      ['number', 2],
    ],
  ],
  ['my code is m05knl', [['code', 'M05KNL']]],
  ['code one a m zero zero zero a', [['code', '1AM000A']]],
  ['at nine a m i will call', [['time', '09:00']]],
  ['i have 2 bags', [['number', 2]]],
  [
    'reservation m zero five k n l for aarav underscore garcia underscore one one seven seven on may twenty fourth',
    [
      ['code', 'M05KNL'],
      ['id', 'aarav_garcia_1177'],
      ['date', '2024-05-24'],
    ],
  ],
  [
    'change h a t one ten to h a t two oh five',
    [
      ['flight', 'HAT110'],
      ['flight', 'HAT205'],
    ],
  ],
];

describe('extractEntities cases', () => {
  it.each(CASES)('%j', (heard, expected) => {
    const found = extractEntities(heard, { referenceYear: 2024 });
    expect(
      found.map((e): [string, string | number, string?] =>
        e.unit === undefined ? [e.kind, e.value] : [e.kind, e.value, e.unit],
      ),
    ).toEqual(expected);
  });

  it('says where each value was heard', () => {
    const heard = 'my code is m zero five k n l ok';
    const [entity] = extractEntities(heard);
    expect(entity).toMatchObject({ start: 3, end: 9, text: 'm zero five k n l' });
  });

  it('finds no date without a year when no reference year is given', () => {
    expect(extractEntities('on may twenty fourth').map((e) => e.kind)).not.toContain('date');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toSpokenForm } from './spoken-form.js';

const FORBIDDEN = /[{}[\]_<>|#*`"\\]/;

/** Pieces of text a bot's reply is made of. */
const piece = fc.oneof(
  fc.constantFrom(
    'Your',
    'reservation',
    'is',
    'confirmed',
    'PLEASE',
    'SDZQKO',
    'M05KNL',
    'HAT110',
    'aarav_garcia_1177',
    'jo.smith@example.com',
    '(415) 555-0199',
    '2024-05-24',
    '05/24/2024',
    'May 24, 2024',
    '14:30',
    '9:05 am',
    '15%',
    '22nd',
    'in 2024',
    '$2,580',
    '-$20',
    '\u20ac5',
    '3 kg',
    '**bold**',
    '# Heading',
    '- item',
    '1. first',
    '| a | b |',
    '`code`',
    '```',
    '{"a": [1, 2]}',
    'update_reservation(reservation_id="M05KNL")',
    '[link](https://x.com)',
    'https://www.example.com/a',
    '.',
    ',',
    '!',
    '?',
    ':',
    '(',
    ')',
    '-',
    '/',
    '\n',
  ),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => n.toFixed(2)),
  fc.integer({ min: 0, max: 1_000_000 }).map((n) => `$${n.toLocaleString('en-US')}`),
  fc.stringMatching(/^[A-Z0-9]{5,8}$/),
  fc.stringMatching(/^[A-Z]{2,3}\d{1,4}$/),
  fc.stringMatching(/^[a-z]{1,6}(_[a-z0-9]{1,6}){1,3}$/),
  fc.stringMatching(/^[a-zA-Z]{1,10}$/),
);

/** Text made of those pieces, joined by spaces or nothing. */
const replyText = fc
  .array(fc.tuple(piece, fc.constantFrom(' ', ' ', '', '\n')), { maxLength: 16 })
  .map((parts) => parts.map(([p, sep]) => p + sep).join(''));

describe('toSpokenForm properties', () => {
  it('never throws and never says symbols, whatever the string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), replyText), (text) => {
        const spoken = toSpokenForm(text);
        expect(typeof spoken).toBe('string');
        expect(spoken).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 2000 },
    );
  });

  it('says digits as words', () => {
    fc.assert(
      fc.property(replyText, (text) => {
        expect(toSpokenForm(text)).not.toMatch(/\d/);
      }),
      { numRuns: 1000 },
    );
  });

  it('is its own spoken form', () => {
    fc.assert(
      fc.property(fc.oneof(replyText, fc.string()), (text) => {
        const once = toSpokenForm(text);
        expect(toSpokenForm(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(replyText, (text) => {
        expect(toSpokenForm(text)).toBe(toSpokenForm(text));
      }),
      { numRuns: 200 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { SentenceSplitter } from './sentences.js';

/** Feed `text` in pieces of `size` characters; every sentence handed out, then the rest. */
function split(text: string, size: number): string[] {
  const splitter = new SentenceSplitter();
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...splitter.push(text.slice(i, i + size)));
  return [...out, ...splitter.flush()];
}

describe('SentenceSplitter', () => {
  const reply =
    'Your flight is booked! It leaves at 3.45 pm from gate B. Dr. Smith, Mr. Jones and Ms. Lee are ' +
    'on it, e.g. the U.S. team. Would you like a seat?\nAnything else?';
  const sentences = [
    'Your flight is booked!',
    'It leaves at 3.45 pm from gate B.',
    'Dr. Smith, Mr. Jones and Ms. Lee are on it, e.g. the U.S. team.',
    'Would you like a seat?',
    'Anything else?',
  ];

  it.each([1, 2, 3, 7, 1000])(
    'splits the same way whatever the streamed piece size (%i)',
    (size) => {
      expect(split(reply, size)).toEqual(sentences);
    },
  );

  it('hands out a sentence only once what follows it shows it ended', () => {
    const splitter = new SentenceSplitter();
    expect(splitter.push('It costs 3.')).toEqual([]);
    expect(splitter.pending).toBe(true);
    expect(splitter.push('5 dollars.')).toEqual([]);
    expect(splitter.push(' Okay')).toEqual(['It costs 3.5 dollars.']);
    expect(splitter.push('?" She left. ')).toEqual(['Okay?"', 'She left.']);
    expect(splitter.pending).toBe(false);
    expect(splitter.flush()).toEqual([]);
  });

  it('keeps closing quotes and brackets with their sentence and drops blank pieces', () => {
    expect(split('He said "yes." (Really!) \n\n  Done', 4)).toEqual([
      'He said "yes."',
      '(Really!)',
      'Done',
    ]);
    const splitter = new SentenceSplitter();
    splitter.push('half a sentence');
    splitter.reset();
    expect(splitter.flush()).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { RecognizedSegment } from './pocketsphinx-output.js';
import { placeSegment, utteranceAt } from './pocketsphinx-placement.js';
import type { PlacementContext } from './pocketsphinx-placement.js';
import type { TrackedUtterance } from '../../utterance-session.js';

const RATE = 16_000;
const s = (seconds: number): number => Math.round(seconds * RATE);

/** A segment of `count` half-second words from `start` (seconds), shifted by `offset`. */
function segment(start: number, count: number, offset = 0): RecognizedSegment {
  const words = Array.from({ length: count }, (_, i) => ({
    word: `w${i}`,
    start: start + offset + i * 0.5,
    end: start + offset + i * 0.5 + 0.4,
    confidence: 1,
  }));
  return { text: words.map((w) => w.word).join(' '), words, end: words.at(-1)!.end + 0.3 };
}

/** Where the words of `segment` land when placed in `context`: their utterances. */
function owners(seg: RecognizedSegment, context: PlacementContext): (number | undefined)[] {
  const offset = placeSegment(seg, context);
  return seg.words.map(
    (w) =>
      utteranceAt(
        context.base + s((w.start + w.end) / 2) + offset,
        context.utterances,
        context.margin,
      )?.utterance,
  );
}

describe('placing PocketSphinx segments', () => {
  // The caller's utterance: speech from 10.4 s to 43.8 s, its final waiting.
  const spoken: TrackedUtterance = { utterance: 1, startSample: s(10.4), endSample: s(43.8) };
  const context = (fed: number, base = 0): PlacementContext => ({
    base,
    fed: s(fed),
    rate: RATE,
    margin: s(0.3),
    utterances: [spoken],
    awaiting: [spoken],
  });
  const heard = (offset: number) => segment(10.5, 66, offset); // 10.5 s to 43.4 s, as spoken

  it('keeps stamps consistent with the audio fed and the utterances', () => {
    expect(placeSegment(heard(0), context(44.5))).toBe(0);
    expect(owners(heard(0), context(44.5))).toEqual(heard(0).words.map(() => 1));
  });

  it('moves a segment stamped past the audio fed onto the utterance waiting for it', () => {
    const late = heard(14.6); // stamped 25.1 s to 58.3 s, with 44.5 s fed
    expect(owners(late, context(44.5))).toEqual(late.words.map(() => 1));
    // Centred on the utterance: within the VAD's padding of the true 14.6 s.
    expect(Math.abs(placeSegment(late, context(44.5)) + s(14.6))).toBeLessThanOrEqual(s(0.3));
  });

  it('moves a segment leaving seconds of words outside every utterance while a final waits', () => {
    const late = heard(14.6); // the recognizer was given 70 s already: its stamps fit the fed audio
    expect(owners(late, context(70))).toEqual(late.words.map(() => 1));
    const early = heard(-6);
    expect(owners(early, context(70))).toEqual(early.words.map(() => 1));
  });

  it('counts stamps from the sample its recognizer started at', () => {
    // A replacement recognizer started at 5 s of the session: its stamps are 5 s less.
    expect(placeSegment(heard(-5), context(39.5, s(5)))).toBe(0);
    expect(owners(heard(-5 + 14.6), context(39.5, s(5)))).toEqual(heard(0).words.map(() => 1));
  });

  it('leaves a stray word after the speech where it was stamped', () => {
    const word = { word: 'uh', start: 44.4, end: 44.6, confidence: 0.5 };
    const seg = heard(0);
    const withStray = { ...seg, words: [...seg.words, word], end: 44.8 };
    expect(placeSegment(withStray, context(45))).toBe(0);
  });

  it('moves a segment with no words back to the audio fed when stamped past it', () => {
    const empty: RecognizedSegment = { text: '', words: [], end: 60 };
    expect(placeSegment(empty, context(45))).toBe(s(45) - s(60));
    expect(placeSegment({ ...empty, end: 44 }, context(45))).toBe(0);
  });
});

// Entity accuracy and normalized word errors of audio mode, on hand-built segments whose answers
// are known: which values were said, which were heard as said, and what was heard instead.
import { describe, expect, it } from 'vitest';
import { entityAccuracySide, joinSpelledPieces, nameValues } from './audio-entities.js';
import { audioMetrics, speechFigures } from './audio-metrics.js';
import type { AudioSegmentMetrics } from './types.js';

function segment(role: 'agent' | 'user', said: string, heard: string): AudioSegmentMetrics {
  return { role, start: 0, end: 1, said, heard, wer: 0 };
}

describe('entityAccuracySide', () => {
  it('reads ids, codes, dates, amounts and names back from their spoken forms', () => {
    const segments = [
      segment(
        'user',
        'My user id is anya underscore garcia underscore five nine zero one.',
        'my user id is anya garcia underscore five nine zero one',
      ),
      segment(
        'user',
        'My reservation id is three, R, K, two, T, nine.',
        'my reservation id is three r k two t nine',
      ),
      segment(
        'agent',
        'I will move Anya Garcia to May twenty-fourth for one hundred twenty-five dollars.',
        'i will move anya garcia to may twenty fourth for one hundred twenty five dollars',
      ),
    ];
    // The id lost its first underscore: heard as garcia_5901. The code was heard as said.
    expect(entityAccuracySide(segments, 'user')).toEqual({
      said: 2,
      heard_right: 1,
      accuracy: 0.5,
      misheard: [{ kind: 'id', said: 'anya_garcia_5901', heard: 'garcia_5901', turn: 0 }],
    });
    // A date said without a year is kept without one; the name is heard word for word.
    expect(entityAccuracySide(segments, 'agent')).toEqual({
      said: 3,
      heard_right: 3,
      accuracy: 1,
      misheard: [],
    });
  });

  it('names what was heard in place of a value, or null when nothing of its kind was', () => {
    const segments = [
      segment(
        'agent',
        'Your flight is H A T one ten on May twenty-fourth, Mister Garcia.',
        'your flight is h a t one eleven on may twenty fourth mister gracia',
      ),
      segment('agent', 'You have two bags.', 'you have bags'),
      segment(
        'agent',
        'You fly on May twenty-fourth and were born on April fifth, nineteen ninety.',
        'you fly on may twenty fifth and were born on april fifth nineteen ninety',
      ),
    ];
    // A date said without a year is shown without one (`--05-24`), one said with a year with it.
    expect(entityAccuracySide(segments, 'agent')).toEqual({
      said: 6,
      heard_right: 2,
      accuracy: 2 / 6,
      misheard: [
        { kind: 'flight', said: 'HAT110', heard: 'HAT111', turn: 0 },
        { kind: 'name', said: 'Mister Garcia', heard: null, turn: 0 },
        { kind: 'number', said: '2', heard: null, turn: 1 },
        { kind: 'date', said: '--05-24', heard: '--05-25', turn: 2 },
      ],
    });
  });

  it('reads a spelled id, matches each value heard once, and keeps sentences apart', () => {
    const spelled =
      'Sure, my user id is spelled alpha november yankee alpha, underscore, golf alpha romeo charlie india alpha, underscore, five nine zero one.';
    const segments = [
      segment('user', spelled, spelled.toLowerCase().replace(/,/g, '')),
      // said twice, heard once
      segment(
        'user',
        'It is E H G L P three. That is echo hotel golf lima papa three.',
        'it is e h g l p three that is something else',
      ),
      // a sentence end the recognizer does not print: "one i could" is still 5901
      segment(
        'agent',
        'The user id ends in five nine zero one. I could not find it.',
        'the user id ends in five nine zero one i could not find it',
      ),
    ];
    expect(entityAccuracySide(segments, 'user')).toEqual({
      said: 3,
      heard_right: 2,
      accuracy: 2 / 3,
      misheard: [{ kind: 'code', said: 'EHGLP3', heard: null, turn: 1 }],
    });
    expect(entityAccuracySide(segments, 'agent')).toMatchObject({ said: 1, heard_right: 1 });
    expect(entityAccuracySide([], 'agent')).toEqual({
      said: 0,
      heard_right: 0,
      accuracy: null,
      misheard: [],
    });
  });
});

describe('the readers behind it', () => {
  it('joins letters spelled next to an underscore or in an email, and no others', () => {
    expect(joinSpelledPieces('a n y a underscore g a r c i a'.split(' '))).toEqual([
      'anya',
      'underscore',
      'garcia',
    ]);
    expect(joinSpelledPieces('j o dot s m i t h at example dot com'.split(' '))).toEqual([
      'jo',
      'dot',
      'smith',
      'at',
      'example',
      'dot',
      'com',
    ]);
    expect(joinSpelledPieces('m zero five k n l at nine'.split(' '))).toEqual(
      'm zero five k n l at nine'.split(' '),
    );
  });

  it('takes capitalised word runs inside a sentence as names', () => {
    expect(
      nameValues(
        'Anya Garcia flies from San Francisco on Monday. Thank you, Anya. I am sure. Reservation R K.',
      ).map((v) => v.value),
    ).toEqual(['San Francisco', 'Anya']);
  });
});

describe('speechFigures', () => {
  it('gives normalized word errors per side beside the raw ones', () => {
    const segments = [
      segment('user', 'It costs $20.', 'it costs twenty dollars'),
      segment('user', 'Cancel it.', 'cancel'),
      segment('agent', 'Done.', 'done'),
    ];
    const figures = speechFigures(segments);
    // "twenty dollars" is "$20" in spoken form; the missing "it" stays an error.
    expect(figures.normalized_wer.agent_stt).toEqual({
      wer: 1 / 6,
      substitutions: 0,
      deletions: 1,
      insertions: 0,
      reference_words: 6,
    });
    expect(figures.normalized_wer.user_stt.wer).toBe(0);
    expect(figures.entity_accuracy.agent_stt).toMatchObject({ said: 1, heard_right: 1 });
    expect(figures.clarifications.total).toBe(0);

    const metrics = audioMetrics({
      clock: 'fast',
      sampleRate: 16000,
      userToAgent: [],
      agentToUser: [],
      segments: segments.map(({ role, start, end, said, heard }) => ({
        role,
        start,
        end,
        said,
        heard,
      })),
      ttfb: { agent: {}, user: {} },
    });
    // The raw rate keeps counting the written "$20" against the spoken words.
    expect(metrics.wer.agent_stt).toMatchObject({ reference_words: 5 });
    expect(metrics.wer.agent_stt.wer).toBeCloseTo(3 / 5, 12);
    expect(metrics.normalized_wer).toEqual(figures.normalized_wer);
    expect(metrics.entity_accuracy).toEqual(figures.entity_accuracy);
    expect(metrics.clarifications).toEqual(figures.clarifications);
  });
});

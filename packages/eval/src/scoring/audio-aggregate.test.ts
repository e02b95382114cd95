// Run-level audio numbers (pooled entity accuracy and word error rates, clarification turns,
// failures traced to a misheard entity) and their lines in all_summary.txt; a text-mode run
// gets none of them.
import { describe, expect, it } from 'vitest';
import { makeMetrics } from '../test-support/scoring-fixtures.js';
import { aggregateRun, coerceMetrics } from './aggregate.js';
import { audioAggregate } from './audio-aggregate.js';
import { formatSummary } from './summary.js';
import type { AudioMetrics, ScenarioMetrics, StoredWordErrors } from './types.js';

function errors(errs: number, words: number): StoredWordErrors {
  return {
    wer: words === 0 ? 0 : errs / words,
    substitutions: errs,
    deletions: 0,
    insertions: 0,
    reference_words: words,
  };
}

function audio(figures: {
  wer: [number, number, number, number];
  normalized: [number, number, number, number];
  entities: [number, number, number, number];
  clarifications: AudioMetrics['clarifications'];
  misheard?: AudioMetrics['entity_accuracy']['agent_stt']['misheard'];
  bargeIns?: number;
}): AudioMetrics {
  const [aw, an, uw, un] = figures.wer;
  const [naw, nan, nuw, nun] = figures.normalized;
  const [as, ar, us, ur] = figures.entities;
  return {
    clock: 'fast',
    wav: 'conversation_log.wav',
    audio_seconds: 30,
    segments: [],
    barge_ins: figures.bargeIns ?? 0,
    wer: { agent_stt: errors(aw, an), user_stt: errors(uw, un) },
    normalized_wer: { agent_stt: errors(naw, nan), user_stt: errors(nuw, nun) },
    entity_accuracy: {
      agent_stt: {
        said: as,
        heard_right: ar,
        accuracy: as ? ar / as : null,
        misheard: figures.misheard ?? [],
      },
      user_stt: { said: us, heard_right: ur, accuracy: us ? ur / us : null, misheard: [] },
    },
    clarifications: figures.clarifications,
    ttfb: { agent: {}, user: {} },
  };
}

const misheard = makeMetrics({
  scenario_name: 'tau2_airline__1',
  is_successful: false,
  failure_attribution: {
    class: 'mishearing',
    kind: 'code',
    summary: 'mishearing: the user said code EHGLP3, the agent heard EHGLP',
  },
  audio: audio({
    wer: [2, 10, 1, 20],
    normalized: [1, 10, 0, 20],
    entities: [4, 3, 2, 2],
    misheard: [{ kind: 'code', said: 'EHGLP3', heard: 'EHGLP', turn: 3 }],
    clarifications: {
      total: 3,
      agent: 2,
      user: 1,
      turns: [
        { turn: 2, role: 'agent', kind: 'spell', at: 8 },
        { turn: 4, role: 'agent', kind: 'confirm', at: 12 },
        { turn: 5, role: 'user', kind: 'correct', at: 14 },
      ],
    },
    bargeIns: 1,
  }),
});
const clean = makeMetrics({
  scenario_name: 'tau2_airline__2',
  audio: audio({
    wer: [3, 10, 1, 30],
    normalized: [2, 10, 1, 30],
    entities: [0, 0, 3, 1],
    clarifications: { total: 0, agent: 0, user: 0, turns: [] },
  }),
});
const textOnly = makeMetrics({
  scenario_name: 'tau2_airline__3',
  is_successful: false,
  failure_attribution: { class: 'mishearing', kind: 'code', summary: 'not an audio result' },
});

describe('audioAggregate', () => {
  it('pools values and words over the audio results, not their rates', () => {
    expect(audioAggregate([misheard, clean, textOnly])).toEqual({
      scenarios: 2,
      entity_accuracy: {
        agent_stt: { said: 4, heard_right: 3, accuracy: 0.75 },
        user_stt: { said: 5, heard_right: 3, accuracy: 0.6 },
      },
      clarifications: { total: 3, agent: 2, user: 1, per_scenario: 1.5 },
      wer: {
        agent_stt: { wer: 0.25, errors: 5, reference_words: 20 },
        user_stt: { wer: 0.04, errors: 2, reference_words: 50 },
      },
      normalized_wer: {
        agent_stt: { wer: 0.15, errors: 3, reference_words: 20 },
        user_stt: { wer: 0.02, errors: 1, reference_words: 50 },
      },
      barge_ins: 1,
      misheard_failures: 1,
    });
  });

  it('is left out of a text-mode run', () => {
    expect(audioAggregate([textOnly])).toBeUndefined();
    expect('audio' in aggregateRun([textOnly])).toBe(false);
    expect(aggregateRun([misheard, textOnly]).audio?.scenarios).toBe(1);
  });

  it('completes audio metrics written without the figures from their segments', () => {
    const said = 'My user id is emma underscore kim underscore nine nine five seven.';
    const old = {
      scenario_name: 'tau2_airline__9',
      audio: {
        ...audio({
          wer: [0, 0, 0, 0],
          normalized: [0, 0, 0, 0],
          entities: [0, 0, 0, 0],
          clarifications: { total: 0, agent: 0, user: 0, turns: [] },
        }),
        normalized_wer: undefined,
        entity_accuracy: undefined,
        clarifications: undefined,
        segments: [
          { role: 'user', start: 1, end: 2, said, heard: 'my user id is emma kim', wer: 0.5 },
          { role: 'agent', start: 3, end: 4, said: 'Could you repeat that?', heard: '', wer: 1 },
        ],
      },
    };
    const m = coerceMetrics(JSON.parse(JSON.stringify(old)));
    expect(m.audio?.entity_accuracy.agent_stt).toMatchObject({ said: 1, heard_right: 0 });
    expect(m.audio?.clarifications.turns).toEqual([
      { turn: 1, role: 'agent', kind: 'repeat', at: 3 },
    ]);
    expect(m.audio?.normalized_wer.agent_stt.reference_words).toBe(12);
    expect('audio' in coerceMetrics({ scenario_name: 'commerce__1' })).toBe(false);
  });
});

describe('formatSummary with audio', () => {
  const lines = (metrics: ScenarioMetrics[]) => formatSummary(aggregateRun(metrics), metrics);

  it('adds the run figures and each scenario figures', () => {
    const text = lines([misheard, clean]);
    for (const line of [
      'Audio (2 scenario(s)):',
      '  Entity accuracy, agent heard:         75.00% (3/4 values)',
      '  Entity accuracy, user heard:          60.00% (3/5 values)',
      '  WER agent heard (raw / normalized):   25.00% / 15.00%',
      '  WER user heard (raw / normalized):    4.00% / 2.00%',
      '  Clarification turns:                  3 (1.50 per scenario; agent 2, user 1)',
      '  1 failure(s) trace to a misheard entity.',
      '  Audio: entity accuracy, agent heard 75.00% (3/4 values), user heard 100.00% (2/2 values)',
      '    WER agent heard 20.00% (normalized 10.00%), user heard 5.00% (normalized 0.00%)',
      '    Clarification turns: 3 (agent spell (turn 2), agent confirm (turn 4), user correct (turn 5))',
      '    Misheard: the user said code EHGLP3, the agent heard EHGLP (turn 3)',
      '  Audio: entity accuracy, agent heard N/A (0/0 values), user heard 33.33% (1/3 values)',
    ])
      expect(text.split('\n')).toContain(line);
  });

  it('adds nothing to a text-mode run', () => {
    const text = lines([textOnly]);
    expect(text).not.toMatch(/Audio|Entity accuracy|Clarification|normalized/);
  });
});

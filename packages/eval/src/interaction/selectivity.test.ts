import { describe, expect, it } from 'vitest';
import { interactionMetrics, NA } from './panel.js';
import type { CallerEvent, CallerEventKind, InteractionTimeline } from './types.js';

const ev = (kind: CallerEventKind, start: number, end: number, text?: string): CallerEvent =>
  text === undefined ? { kind, start, end } : { kind, start, end, text };

/** The agent speaks from 0 to `stop`; one caller event during it; the recording runs to 20 s. */
function whileSpeaking(kind: CallerEventKind, stop: number): InteractionTimeline {
  return { caller: [], agent: [{ start: 0, end: stop }], events: [ev(kind, 5, 5.3)], end: 20 };
}

/** The agent is silent; one caller event from 10 to 10.3, the agent starts at `start`. */
function whileSilent(kind: CallerEventKind, start: number): InteractionTimeline {
  return {
    caller: [],
    agent: [
      { start: 0, end: 2 },
      { start, end: start + 1 },
    ],
    events: [ev(kind, 10, 10.3)],
    end: 30,
  };
}

function outcomes(t: InteractionTimeline) {
  return interactionMetrics(t)
    .events.filter((e) => e.category !== 'response')
    .map((e) => [e.category, e.outcome, e.agent]);
}

describe('selectivity while the agent speaks: stopping within 1.0 s is an error', () => {
  it('counts the errors that cut the agent short apart from speech that ended on its own', () => {
    const t = (cutShort: boolean): InteractionTimeline => ({
      caller: [],
      agent: [{ start: 0, end: 5.5, cutShort }],
      events: [ev('backchannel', 5, 5.3)],
      end: 20,
    });
    const finished = interactionMetrics(t(false));
    const yielded = interactionMetrics(t(true));
    for (const p of [finished, yielded])
      expect(p.selectivity_backchannel).toMatchObject({ numerator: 0, denominator: 1 });
    expect(finished.counts.selectivity_errors_cut_short).toEqual({});
    expect(yielded.counts.selectivity_errors_cut_short).toEqual({ backchannel: 1 });
    expect(yielded.events.find((e) => e.category === 'backchannel')?.cut_short).toBe(true);
  });

  it.each(['backchannel', 'vocal_tic', 'non_directed'] as const)(
    '%s: stop 0.99 s after is an error, 1.01 s after is correct',
    (kind) => {
      expect(outcomes(whileSpeaking(kind, 5.99))).toEqual([[kind, 'error', 'speaking']]);
      expect(outcomes(whileSpeaking(kind, 6.01))).toEqual([[kind, 'correct', 'speaking']]);
    },
  );

  it('reports correct-rates with their counts', () => {
    const p = interactionMetrics({
      caller: [],
      agent: [
        { start: 0, end: 10 },
        { start: 12, end: 20 },
        { start: 22, end: 30 },
      ],
      events: [
        ev('backchannel', 2, 2.3, 'mm-hmm'),
        ev('backchannel', 9.5, 9.8),
        ev('backchannel', 13, 13.2),
        ev('backchannel', 23, 23.2),
      ],
      end: 40,
    });
    // Only the one at 9.5 s is followed by a stop within 1 s (at 10).
    expect(p.selectivity_backchannel).toMatchObject({
      value: 0.75,
      numerator: 3,
      denominator: 4,
      count: 4,
      shown: false,
      reason: 'fewer than 10 events',
    });
    expect(p.events[0]).toMatchObject({ category: 'backchannel', text: 'mm-hmm' });
    expect(p.selectivity_vocal_tic).toMatchObject({ value: null, reason: NA.noTics });
    expect(p.selectivity_non_directed).toMatchObject({ value: null, reason: NA.noNonDirected });
  });

  it('does not score an event the recording ends inside the window of', () => {
    const p = interactionMetrics({
      caller: [],
      agent: [{ start: 0, end: 10 }],
      events: [ev('backchannel', 9.5, 9.7)],
    });
    expect(p.events).toMatchObject([
      { outcome: 'unscored', reason: 'the recording ended inside the window' },
    ]);
    expect(p.selectivity_backchannel.reason).toBe(NA.noBackchannels);
  });
});

describe('selectivity while the agent is silent: answering within 2.0 s is an error', () => {
  it.each(['vocal_tic', 'non_directed'] as const)(
    '%s: an answer 1.99 s after the end is an error, 2.01 s after is correct',
    (kind) => {
      expect(outcomes(whileSilent(kind, 12.29))).toEqual([[kind, 'error', 'silent']]);
      expect(outcomes(whileSilent(kind, 12.31))).toEqual([[kind, 'correct', 'silent']]);
    },
  );

  it('an agent starting during the event is an error', () => {
    expect(outcomes(whileSilent('vocal_tic', 10.1))).toEqual([['vocal_tic', 'error', 'silent']]);
  });

  it('is unscored when the recording ends inside the window', () => {
    const p = interactionMetrics({
      caller: [],
      agent: [{ start: 0, end: 2 }],
      events: [ev('non_directed', 10, 10.3, 'one sec, honey')],
      end: 12,
    });
    expect(p.events).toEqual([
      {
        category: 'non_directed',
        outcome: 'unscored',
        at: 10,
        agent: 'silent',
        text: 'one sec, honey',
        reason: 'the recording ended inside the window',
      },
    ]);
  });

  it('does not score backchannels while the agent is silent', () => {
    const p = interactionMetrics(whileSilent('backchannel', 20));
    expect(p.events).toMatchObject([
      {
        category: 'backchannel',
        outcome: 'unscored',
        reason: 'backchannel while the agent was silent',
      },
    ]);
    expect(p.selectivity_backchannel.count).toBe(0);
    expect(p.counts.unscored).toEqual({ 'backchannel while the agent was silent': 1 });
  });

  it('uses the windows given in the options', () => {
    const p = interactionMetrics(whileSilent('vocal_tic', 13.5), {
      vocal_tic_response_window_sec: 3.5,
    });
    expect(p.events.map((e) => e.outcome)).toEqual(['error']);
  });
});

describe('priority when events overlap: backchannel > vocal tic > non-directed > interruption', () => {
  const speaking = (events: CallerEvent[], stop = 10): InteractionTimeline => ({
    caller: [],
    agent: [{ start: 0, end: stop }],
    events,
    end: 20,
  });

  it('an overlapping backchannel and tic count once, as a backchannel', () => {
    const p = interactionMetrics(speaking([ev('vocal_tic', 3.1, 3.2), ev('backchannel', 3, 3.4)]));
    expect(p.selectivity_backchannel).toMatchObject({ numerator: 1, denominator: 1 });
    expect(p.selectivity_vocal_tic.count).toBe(0);
    expect(p.events).toHaveLength(1);
  });

  it('a tic overlapping non-directed speech counts as a tic', () => {
    const p = interactionMetrics(speaking([ev('non_directed', 3, 4), ev('vocal_tic', 3.5, 4.5)]));
    expect(p.events.map((e) => [e.category, e.at])).toEqual([['vocal_tic', 3]]);
  });

  it('non-directed speech overlapping an interruption counts as non-directed, not a yield', () => {
    const p = interactionMetrics(
      speaking([ev('interruption', 3, 4), ev('non_directed', 3.8, 5)], 4),
    );
    // The agent stopped 1 s after: an error for non-directed speech, no yield event.
    expect(p.events.map((e) => [e.category, e.outcome])).toEqual([['non_directed', 'error']]);
    expect(p.yield_rate.count).toBe(0);
  });

  it('events that only touch still form one utterance; ones apart do not', () => {
    const touching = interactionMetrics(
      speaking([ev('backchannel', 3, 3.5), ev('non_directed', 3.5, 4)]),
    );
    expect(touching.events.map((e) => e.category)).toEqual(['backchannel']);
    const apart = interactionMetrics(
      speaking([ev('backchannel', 3, 3.5), ev('non_directed', 3.6, 4)]),
    );
    expect(apart.events.map((e) => e.category)).toEqual(['backchannel', 'non_directed']);
  });

  it('caller speech carrying a backchannel is not a turn or an interruption', () => {
    const p = interactionMetrics({
      caller: [
        { start: 3, end: 3.4, text: 'mm-hmm' },
        { start: 12, end: 13 },
      ],
      agent: [{ start: 0, end: 10 }],
      events: [ev('backchannel', 3, 3.4)],
      end: 20,
    });
    expect(p.events.map((e) => [e.category, e.outcome])).toEqual([
      ['backchannel', 'correct'],
      ['response', 'unscored'],
    ]);
    expect(p.yield_rate.count).toBe(0);
  });

  it('an interruption event on caller speech is one interruption', () => {
    const p = interactionMetrics({
      caller: [{ start: 3, end: 4, text: 'sorry, wrong date' }],
      agent: [
        { start: 0, end: 3.6 },
        { start: 4.5, end: 6 },
      ],
      events: [ev('interruption', 3, 3.9)],
      end: 20,
    });
    expect(p.yield_rate).toMatchObject({ numerator: 1, denominator: 1 });
    expect(p.yield_latency_mean.value).toBeCloseTo(0.6, 9);
    expect(p.events.find((e) => e.category === 'yield')?.text).toBe('sorry, wrong date');
  });

  it('noise bursts are counted but never scored', () => {
    const p = interactionMetrics(speaking([ev('noise_burst', 9.5, 9.7)]));
    expect(p.events).toEqual([]);
    expect(p.counts.caller_events).toEqual({ noise_burst: 1 });
  });
});

describe('composite selectivity', () => {
  function many(kinds: Record<'backchannel' | 'vocal_tic' | 'non_directed', number>) {
    const events: CallerEvent[] = [];
    let t = 1;
    for (const [kind, n] of Object.entries(kinds))
      for (let i = 0; i < n; i++, t += 2) events.push(ev(kind as CallerEventKind, t, t + 0.2));
    return interactionMetrics({
      caller: [],
      agent: [{ start: 0, end: t + 5 }],
      events,
      end: t + 10,
    });
  }

  it('is the mean of the three rates when each is backed by 10 events', () => {
    const p = many({ backchannel: 10, vocal_tic: 10, non_directed: 10 });
    expect(p.selectivity).toEqual({ unit: 'ratio', value: 1, count: 30, shown: true });
  });

  it('is hidden when one part has fewer than 10 events, and N/A when one is missing', () => {
    const low = many({ backchannel: 10, vocal_tic: 10, non_directed: 9 });
    expect(low.selectivity).toMatchObject({
      value: 1,
      shown: false,
      reason: 'fewer than 10 events',
    });
    const missing = many({ backchannel: 10, vocal_tic: 10, non_directed: 0 });
    expect(missing.selectivity).toMatchObject({
      value: null,
      shown: false,
      reason: 'needs all three selectivity rates',
    });
  });
});

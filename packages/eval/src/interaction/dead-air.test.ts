import { describe, expect, it } from 'vitest';
import { silentGaps } from './dead-air.js';
import { interactionMetrics } from './panel.js';
import type { InteractionTimeline } from './types.js';

/** Spans of speech from `[start, end]` pairs, in seconds. */
function spans(...pairs: [number, number][]): { start: number; end: number }[] {
  return pairs.map(([start, end]) => ({ start, end }));
}

// Speech 1–2 (caller), 2.5–4 (agent), 8–9 (caller), 9.2–10 (agent) in a 12 s call.
// Gaps: 0–1, 2–2.5 (response), 4–8, 9–9.2 (response), 10–12.
const call: InteractionTimeline = {
  caller: spans([1, 2], [8, 9]),
  agent: spans([2.5, 4], [9.2, 10]),
  start: 0,
  end: 12,
};

describe('dead air', () => {
  it('totals every silent gap of the conversation', () => {
    const { dead_air: d } = interactionMetrics(call);
    expect(d.conversation_seconds).toBe(12);
    expect(d.all.total_seconds).toEqual({ unit: 'seconds', value: 7.7, count: 5, shown: true });
    expect(d.all.fraction).toMatchObject({ numerator: 7.7, denominator: 12, count: 5 });
    expect(d.all.fraction.value).toBeCloseTo(7.7 / 12, 6);
    expect(d.all.longest_seconds.value).toBe(4);
    expect(d.all.long_gaps).toEqual({ unit: 'count', value: 1, count: 5, shown: true });
  });

  it('leaves out the response gaps when asked', () => {
    const { dead_air: d } = interactionMetrics(call);
    expect(d.excluding_response_gaps.total_seconds).toMatchObject({ value: 7, count: 3 });
    expect(d.excluding_response_gaps.fraction.value).toBeCloseTo(7 / 12, 6);
    expect(d.excluding_response_gaps.longest_seconds.value).toBe(4);
    expect(d.excluding_response_gaps.long_gaps.value).toBe(1);
  });

  it('keeps a no-response gap: the caller had to speak again', () => {
    const p = interactionMetrics({
      caller: spans([0, 1], [5, 6]),
      agent: spans([6.5, 7]),
      end: 7,
    });
    // 1–5 is dead air the agent left; 6–6.5 is a response gap.
    expect(p.dead_air.all.total_seconds.value).toBe(4.5);
    expect(p.dead_air.excluding_response_gaps.total_seconds.value).toBe(4);
  });

  it('counts gaps over 3 s strictly: 3.0 s is not long, 3.01 s is', () => {
    const gaps = (silence: number) =>
      interactionMetrics({
        caller: spans([0, 1], [1 + silence, 2 + silence]),
        agent: [],
      }).dead_air.all;
    expect(gaps(3).long_gaps.value).toBe(0);
    expect(gaps(3.01).long_gaps.value).toBe(1);
    expect(gaps(3.01).longest_seconds.value).toBe(3.01);
  });

  it('counts caller events as speech and noise bursts as silence', () => {
    const withNoise = interactionMetrics({
      ...call,
      events: [{ kind: 'noise_burst', start: 5, end: 6 }],
    });
    expect(withNoise.dead_air).toEqual(interactionMetrics(call).dead_air);
    const withTic = interactionMetrics({
      ...call,
      events: [{ kind: 'vocal_tic', start: 5, end: 6 }],
    });
    // 4–8 splits into 4–5 and 6–8: one second less, no gap over 3 s.
    expect(withTic.dead_air.all.total_seconds).toMatchObject({ value: 6.7, count: 6 });
    expect(withTic.dead_air.all.long_gaps.value).toBe(0);
  });

  it('a response gap interrupted by a tic stays a response gap on both sides', () => {
    const p = interactionMetrics({
      caller: spans([0, 1], [8, 9]),
      agent: spans([3, 4]),
      events: [{ kind: 'vocal_tic', start: 1.5, end: 1.7 }],
      end: 9,
    });
    // Gaps 1–1.5 and 1.7–3 lie inside the response gap 1–3; 4–8 does not.
    expect(p.dead_air.all.total_seconds.value).toBe(5.8);
    expect(p.dead_air.excluding_response_gaps.total_seconds).toMatchObject({ value: 4, count: 1 });
  });

  it('is all dead air when a recording has no speech, and N/A when it has no length', () => {
    const silent = interactionMetrics({ caller: [], agent: [], end: 30 });
    expect(silent.dead_air.all.total_seconds).toMatchObject({ value: 30, count: 1 });
    expect(silent.dead_air.all.fraction.value).toBe(1);
    const none = interactionMetrics({ caller: [], agent: [] });
    for (const f of Object.values(none.dead_air.all))
      expect(f).toMatchObject({
        value: null,
        shown: false,
        reason: 'the conversation has no length',
      });
  });

  it('never hides dead air for a low count', () => {
    const { dead_air: d } = interactionMetrics(call);
    expect(Object.values(d.all).every((f) => f.shown)).toBe(true);
  });
});

describe('silentGaps', () => {
  it('finds the gaps around overlapping speech, clipped to the conversation', () => {
    expect(silentGaps(spans([2, 5], [1, 3], [7, 12]), 0, 10)).toEqual(spans([0, 1], [5, 7]));
    expect(silentGaps([], 0, 2)).toEqual(spans([0, 2]));
    expect(silentGaps(spans([0, 2]), 0, 2)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { aggregateInteraction, interactionMetrics, NA } from './panel.js';
import type { AgentSpeech, CallerSpeech, InteractionTimeline } from './types.js';

/** `n` answered caller turns (answered after `latency`), then a closing caller turn. */
function exchanges(n: number, latency = 0.5): InteractionTimeline {
  const caller: CallerSpeech[] = [];
  const agent: AgentSpeech[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    caller.push({ start: t, end: t + 1 });
    agent.push({ start: t + 1 + latency, end: t + 2 + latency });
    t += 3 + latency;
  }
  caller.push({ start: t, end: t + 1 });
  return { caller, agent };
}

// One answered turn of two (1 s latency), and a no-response.
const halfAnswered: InteractionTimeline = {
  caller: [
    { start: 0, end: 1 },
    { start: 3, end: 4 },
    { start: 7, end: 8 },
  ],
  agent: [{ start: 5, end: 6 }],
  end: 10,
};

describe('aggregateInteraction', () => {
  it('pools counts instead of averaging rates', () => {
    const a = interactionMetrics(halfAnswered); // R_R 1/2, L_R 1.0 over 1
    const b = interactionMetrics(exchanges(3, 2)); // R_R 3/3, L_R 2.0 over 3
    const run = aggregateInteraction([a, b]);
    expect(run.response_rate).toMatchObject({ value: 0.8, numerator: 4, denominator: 5 });
    expect(run.response_latency_mean).toMatchObject({ value: 1.75, total: 7, count: 4 });
    expect(run.counts.scenarios).toBe(2);
  });

  it('shows a run figure once the pooled events reach 10, though no scenario does', () => {
    const five = interactionMetrics(exchanges(5));
    expect(five.response_rate.shown).toBe(false);
    const run = aggregateInteraction([five, five]);
    expect(run.response_rate).toMatchObject({ numerator: 10, denominator: 10, shown: true });
    expect(run.response_rate.reason).toBeUndefined();
    const short = aggregateInteraction([five, interactionMetrics(exchanges(4))]);
    expect(short.response_rate).toMatchObject({
      count: 9,
      shown: false,
      reason: 'fewer than 10 events',
    });
  });

  it('pools selectivity, recomputing the composite from the pooled parts', () => {
    const speaking = (kind: 'backchannel' | 'vocal_tic' | 'non_directed', stopAt: number) =>
      interactionMetrics({
        caller: [],
        agent: [{ start: 0, end: stopAt }],
        events: Array.from({ length: 5 }, (_, i) => ({ kind, start: 1 + i, end: 1.2 + i })),
        end: 20,
      });
    // Events at 1..5 s; stopping at 5.5 s is within 1 s of the last one only.
    const panels = [
      speaking('backchannel', 10),
      speaking('backchannel', 5.5),
      speaking('vocal_tic', 10),
      speaking('vocal_tic', 10),
      speaking('non_directed', 10),
      speaking('non_directed', 10),
    ];
    const run = aggregateInteraction(panels);
    expect(run.selectivity_backchannel).toMatchObject({
      value: 0.9,
      numerator: 9,
      denominator: 10,
    });
    expect(run.selectivity_vocal_tic).toMatchObject({ value: 1, shown: true });
    expect(run.selectivity.value).toBeCloseTo((0.9 + 1 + 1) / 3, 6);
    expect(run.selectivity).toMatchObject({ count: 30, shown: true });
  });

  it('pools dead air: seconds and gaps summed, the longest gap the longest', () => {
    const a = interactionMetrics({ caller: [{ start: 1, end: 2 }], agent: [], end: 4 });
    const b = interactionMetrics({ caller: [{ start: 0, end: 1 }], agent: [], end: 6 });
    const run = aggregateInteraction([a, b]);
    expect(run.dead_air.conversation_seconds).toBe(10);
    expect(run.dead_air.all.total_seconds).toMatchObject({ value: 8, count: 3 });
    expect(run.dead_air.all.fraction).toMatchObject({ value: 0.8, numerator: 8, denominator: 10 });
    expect(run.dead_air.all.longest_seconds.value).toBe(5);
    expect(run.dead_air.all.long_gaps.value).toBe(1);
  });

  it('sums caller events, cut-short yields and unscored events', () => {
    const a = interactionMetrics({
      caller: [{ start: 3, end: 4 }],
      agent: [{ start: 0, end: 3.5, cutShort: true }],
      events: [{ kind: 'noise_burst', start: 1, end: 1.1 }],
    });
    const b = interactionMetrics({
      caller: [],
      agent: [],
      events: [
        { kind: 'vocal_tic', start: 1, end: 1.1 },
        { kind: 'backchannel', start: 2, end: 2.1 },
      ],
    });
    const run = aggregateInteraction([a, b]);
    expect(run.counts.caller_events).toEqual({ backchannel: 1, noise_burst: 1, vocal_tic: 1 });
    expect(run.counts.yields_cut_short).toBe(1);
    expect(run.counts.unscored).toEqual({
      'backchannel while the agent was silent': 1,
      'no agent speech': 1,
      'the conversation ended before anyone spoke again': 1,
    });
  });

  it('says why a pooled figure is N/A', () => {
    const empty = aggregateInteraction([]);
    expect(empty.response_rate).toMatchObject({ value: null, reason: NA.noScenarios });
    expect(empty.counts.scenarios).toBe(0);
    const run = aggregateInteraction([
      interactionMetrics({ caller: [], agent: [] }),
      interactionMetrics({ caller: [{ start: 0, end: 1 }], agent: [{ start: 2, end: 3 }] }),
    ]);
    expect(run.yield_rate.reason).toBe('no agent speech; no caller interruptions');
  });

  it('accepts run panels and stored JSON, and refuses mixed windows', () => {
    const a = interactionMetrics(exchanges(4));
    const b = interactionMetrics(halfAnswered);
    const stored = JSON.parse(JSON.stringify([a, b])) as (typeof a)[];
    expect(aggregateInteraction(stored)).toEqual(aggregateInteraction([a, b]));
    const nested = aggregateInteraction([aggregateInteraction([a]), aggregateInteraction([b])]);
    expect(nested).toEqual(aggregateInteraction([a, b]));
    const other = interactionMetrics(exchanges(2), { no_yield_window_sec: 3 });
    expect(() => aggregateInteraction([a, other])).toThrow(/different versions or windows/);
  });
});

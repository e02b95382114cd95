import { describe, expect, it } from 'vitest';
import { interactionMetrics, NA } from './panel.js';
import type { AgentSpeech, CallerSpeech, InteractionTimeline } from './types.js';

const c = (start: number, end: number, text?: string): CallerSpeech =>
  text === undefined ? { start, end } : { start, end, text };
const a = (start: number, end: number, cutShort = false): AgentSpeech =>
  cutShort ? { start, end, cutShort } : { start, end };

/** `n` answered caller turns (1 s each, answered after `latency`), then a closing caller turn. */
function exchanges(n: number, latency = 0.5): InteractionTimeline {
  const caller: CallerSpeech[] = [];
  const agent: AgentSpeech[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    caller.push(c(t, t + 1));
    agent.push(a(t + 1 + latency, t + 2 + latency));
    t += 3 + latency;
  }
  caller.push(c(t, t + 1));
  return { caller, agent };
}

describe('response rate and latency (R_R, L_R)', () => {
  it('measures from the end of each caller turn to the start of the answer', () => {
    const p = interactionMetrics({
      caller: [c(0, 2, 'hello'), c(6, 8), c(11, 12, 'bye')],
      agent: [a(2.5, 5), a(9, 10)],
      end: 15,
    });
    expect(p.response_rate).toMatchObject({ value: 1, numerator: 2, denominator: 2, count: 2 });
    expect(p.response_latency_mean).toMatchObject({ value: 0.75, total: 1.5, count: 2 });
    const responses = p.events.filter((e) => e.category === 'response');
    expect(responses.map((e) => [e.outcome, e.at, e.latency])).toEqual([
      ['response', 2, 0.5],
      ['response', 8, 1],
      ['unscored', 12, undefined],
    ]);
    expect(responses[0]!.text).toBe('hello');
    expect(responses[2]!.reason).toBe('the conversation ended before anyone spoke again');
    expect(p.counts.unscored).toEqual({ 'the conversation ended before anyone spoke again': 1 });
  });

  it('is a no-response when the caller speaks again first; a tie goes to the agent', () => {
    const p = interactionMetrics({
      caller: [c(0, 1), c(3, 4), c(7, 8), c(10, 11)],
      agent: [a(5, 6), a(10, 10.5)],
      end: 12,
    });
    const outcomes = p.events
      .filter((e) => e.category === 'response')
      .map((e) => [e.at, e.outcome]);
    // 1 → caller at 3 before agent at 5; 4 → agent at 5; 8 → agent and caller both at 10.
    expect(outcomes).toEqual([
      [1, 'no_response'],
      [4, 'response'],
      [8, 'response'],
      [11, 'unscored'],
    ]);
    expect(p.response_rate).toMatchObject({ numerator: 2, denominator: 3 });
    expect(p.response_rate.value).toBeCloseTo(2 / 3, 6);
    expect(p.response_latency_mean.value).toBe(1.5);
  });

  it('leaves out caller turns the agent is still talking over at their end', () => {
    const p = interactionMetrics({
      caller: [c(0, 2), c(4, 5), c(7, 8)],
      agent: [a(1, 3), a(6, 6.5)],
      end: 10,
    });
    expect(p.events.filter((e) => e.category === 'response').map((e) => e.at)).toEqual([5, 8]);
    expect(p.response_rate).toMatchObject({ numerator: 1, denominator: 1 });
  });

  it('answers starting exactly at the caller turn end have zero latency', () => {
    const p = interactionMetrics({ caller: [c(0, 1), c(3, 4)], agent: [a(1, 2)], end: 5 });
    expect(p.response_latency_mean).toMatchObject({ value: 0, count: 1 });
    expect(p.agent_interruption_rate.numerator).toBe(0);
  });
});

describe('hiding figures backed by fewer than 10 events', () => {
  it('shows ten events and hides nine, keeping the value and saying why', () => {
    for (const n of [10, 9]) {
      const shown = n >= 10 ? { shown: true } : { shown: false, reason: 'fewer than 10 events' };
      const p = interactionMetrics(exchanges(n));
      expect(p.response_rate).toEqual({
        unit: 'ratio',
        value: 1,
        numerator: n,
        denominator: n,
        count: n,
        ...shown,
      });
      expect(p.response_latency_mean).toMatchObject({ value: 0.5, count: n, ...shown });
    }
  });

  it('counts L_R by answered turns, not by scored turns', () => {
    // Ten scored turns, nine answered: the rate is shown, the latency is not.
    const t = exchanges(10);
    const agent = t.agent.slice(1);
    const p = interactionMetrics({ ...t, agent, caller: t.caller });
    expect(p.response_rate).toMatchObject({ numerator: 9, denominator: 10, shown: true });
    expect(p.response_latency_mean).toMatchObject({ count: 9, shown: false });
  });

  it('takes the threshold from the options', () => {
    const p = interactionMetrics(exchanges(3), { min_events: 3 });
    expect(p.response_rate.shown).toBe(true);
    expect(p.windows.min_events).toBe(3);
  });
});

describe('yield rate and latency (R_Y, L_Y) and recovery', () => {
  it('yields when the agent stops within 2 s of the caller cutting in', () => {
    const p = interactionMetrics({
      caller: [c(3, 4, 'wait')],
      agent: [a(0, 3.5, true), a(5, 7)],
      events: [{ kind: 'interruption', start: 3, end: 4 }],
      end: 8,
    });
    const y = p.events.filter((e) => e.category === 'yield');
    expect(y).toEqual([
      {
        category: 'yield',
        outcome: 'yield',
        at: 3,
        latency: 0.5,
        cut_short: true,
        recovery: 1,
        text: 'wait',
      },
    ]);
    expect(p.yield_rate).toMatchObject({ value: 1, numerator: 1, denominator: 1 });
    expect(p.yield_latency_mean).toMatchObject({ value: 0.5, count: 1 });
    expect(p.recovery_latency_mean).toMatchObject({ value: 1, count: 1 });
    expect(p.counts.yields_cut_short).toBe(1);
    // The interruption is also a caller turn: answered 1 s after it ended.
    expect(p.response_latency_mean).toMatchObject({ value: 1, count: 1 });
  });

  it('treats caller speech that starts while the agent speaks as an interruption', () => {
    const p = interactionMetrics({ caller: [c(3, 4)], agent: [a(0, 10)], end: 12 });
    expect(p.events.filter((e) => e.category === 'yield').map((e) => e.outcome)).toEqual([
      'no_yield',
    ]);
    expect(p.yield_rate).toMatchObject({ value: 0, numerator: 0, denominator: 1 });
    expect(p.yield_latency_mean).toMatchObject({ value: null, reason: NA.noYields });
    expect(p.recovery_latency_mean).toMatchObject({ value: null, reason: NA.noYields });
  });

  it('puts the 2 s window edge between 1.99 s and 2.01 s', () => {
    const at = (stop: number) =>
      interactionMetrics({ caller: [c(3, 3.5)], agent: [a(0, 3 + stop)], end: 10 }).events.find(
        (e) => e.category === 'yield',
      )?.outcome;
    expect(at(1.99)).toBe('yield');
    expect(at(2)).toBe('yield');
    expect(at(2.01)).toBe('no_yield');
  });

  it('does not score an interruption the recording ends inside of', () => {
    const p = interactionMetrics({ caller: [c(9, 9.5)], agent: [a(0, 10)], end: 10 });
    expect(p.events.find((e) => e.category === 'yield')).toMatchObject({
      outcome: 'unscored',
      reason: 'the recording ended inside the window',
    });
    expect(p.yield_rate).toMatchObject({ value: null, reason: NA.noInterruptions });
    // With the window inside the recording, an agent speaking to the end did not yield.
    const later = interactionMetrics({ caller: [c(7, 7.5)], agent: [a(0, 10)], end: 10 });
    expect(later.events.find((e) => e.category === 'yield')?.outcome).toBe('no_yield');
  });

  it('recovers from the later of the caller ending and the agent stopping', () => {
    // The caller says "stop" for 0.3 s; the agent stops 1 s in and speaks again at 5.
    const p = interactionMetrics({ caller: [c(3, 3.3), c(9, 10)], agent: [a(0, 4), a(5, 6)] });
    expect(p.events.find((e) => e.category === 'yield')).toMatchObject({
      latency: 1,
      recovery: 1,
      cut_short: false,
    });
    expect(p.counts.yields_cut_short).toBe(0);
  });

  it('has no recovery when the caller speaks again before the agent', () => {
    const p = interactionMetrics({ caller: [c(3, 4), c(5, 6)], agent: [a(0, 3.5), a(7, 8)] });
    expect(p.yield_rate.numerator).toBe(1);
    expect(p.recovery_latency_mean).toMatchObject({ value: null, reason: NA.noRecovery });
  });
});

describe('agent interruptions (I_A)', () => {
  it('counts agent starts inside real caller speech per scored caller turn', () => {
    const p = interactionMetrics({
      caller: [c(0, 2), c(4, 6), c(9, 11), c(13, 14)],
      agent: [a(1, 3), a(6.5, 8), a(9.5, 10), a(11.5, 12)],
      end: 20,
    });
    // Turns scored: 4–6 and 9–11 (the agent talks over the end of 0–2; 13–14 is last).
    expect(p.agent_interruption_rate).toMatchObject({
      value: 1,
      numerator: 2,
      denominator: 2,
    });
    expect(p.events.filter((e) => e.category === 'agent_interruption').map((e) => e.at)).toEqual([
      1, 9.5,
    ]);
  });

  it('can exceed 1 when the agent cuts into the same turn twice', () => {
    const p = interactionMetrics({
      caller: [c(0, 5), c(8, 9)],
      agent: [a(1, 1.5), a(2, 2.5), a(6, 7)],
    });
    expect(p.agent_interruption_rate).toMatchObject({ value: 2, numerator: 2, denominator: 1 });
  });

  it('does not count starts during backchannels or tics', () => {
    const p = interactionMetrics({
      caller: [c(0, 1), c(4, 5)],
      agent: [a(2.2, 3), a(6, 7)],
      events: [{ kind: 'vocal_tic', start: 2, end: 2.5 }],
      end: 10,
    });
    expect(p.agent_interruption_rate.numerator).toBe(0);
  });
});

describe('tool-turn and plain-turn latency', () => {
  const base: InteractionTimeline = {
    caller: [c(0, 2), c(6, 7), c(9, 10)],
    agent: [a(4, 5), a(7.5, 8)],
  };

  it('splits answers by a tool call between the caller turn and the answer', () => {
    const p = interactionMetrics({ ...base, toolCalls: [{ at: 2.5, name: 'lookup' }] });
    expect(p.tool_turn_latency_mean).toMatchObject({ value: 2, count: 1 });
    expect(p.plain_turn_latency_mean).toMatchObject({ value: 0.5, count: 1 });
    expect(p.events.filter((e) => e.category === 'response').map((e) => e.tool_turn)).toEqual([
      true,
      false,
      undefined,
    ]);
  });

  it('includes a call made at the very start of the answer, not one made after it', () => {
    expect(
      interactionMetrics({ ...base, toolCalls: [{ at: 4 }] }).tool_turn_latency_mean.count,
    ).toBe(1);
    expect(
      interactionMetrics({ ...base, toolCalls: [{ at: 4.1 }] }).tool_turn_latency_mean.count,
    ).toBe(0);
  });

  it('is N/A when tool calls were not recorded, or none preceded an answer', () => {
    const unknown = interactionMetrics(base);
    expect(unknown.tool_turn_latency_mean).toMatchObject({ value: null, reason: NA.noToolRecord });
    expect(unknown.plain_turn_latency_mean).toMatchObject({ value: null, reason: NA.noToolRecord });
    const none = interactionMetrics({ ...base, toolCalls: [] });
    expect(none.tool_turn_latency_mean).toMatchObject({ value: null, reason: NA.noToolTurns });
    expect(none.plain_turn_latency_mean).toMatchObject({ value: 1.25, count: 2 });
  });
});

describe('N/A cases', () => {
  it('an empty timeline says there is no speech', () => {
    const p = interactionMetrics({ caller: [], agent: [] });
    expect(p.response_rate).toMatchObject({ value: null, shown: false, reason: NA.noSpeech });
    expect(p.yield_rate.reason).toBe(NA.noAgent);
    expect(p.dead_air.all.total_seconds).toMatchObject({ value: null, shown: false });
    expect(p.events).toEqual([]);
  });

  it('no agent speech: the caller went unanswered, and agent behaviour is N/A', () => {
    const p = interactionMetrics({
      caller: [c(0, 1), c(3, 4), c(6, 7)],
      agent: [],
      events: [{ kind: 'vocal_tic', start: 10, end: 10.2 }],
      end: 20,
    });
    expect(p.response_rate).toMatchObject({ value: 0, numerator: 0, denominator: 2 });
    for (const f of [
      p.response_latency_mean,
      p.yield_rate,
      p.yield_latency_mean,
      p.agent_interruption_rate,
      p.selectivity_backchannel,
      p.selectivity_vocal_tic,
      p.selectivity_non_directed,
      p.recovery_latency_mean,
    ])
      expect(f).toMatchObject({ value: null, count: 0, shown: false, reason: NA.noAgent });
    expect(p.selectivity.reason).toBe('needs all three selectivity rates');
    expect(p.counts.unscored['no agent speech']).toBe(1);
  });

  it('no caller turns to score: only one turn, at the end', () => {
    const p = interactionMetrics({ caller: [c(5, 6)], agent: [a(0, 4)] });
    expect(p.response_rate).toMatchObject({ value: null, reason: NA.noTurns });
    expect(p.response_latency_mean.reason).toBe(NA.noTurns);
    expect(p.agent_interruption_rate.reason).toBe(NA.noTurns);
    expect(p.yield_rate.reason).toBe(NA.noInterruptions);
  });

  it('the agent never answered', () => {
    const p = interactionMetrics({ caller: [c(1, 2), c(3, 4)], agent: [a(0, 0.5)] });
    expect(p.response_rate.value).toBe(0);
    expect(p.response_latency_mean.reason).toBe(NA.noResponses);
  });
});

describe('input checks and determinism', () => {
  it('refuses spans that end before they start and non-finite times', () => {
    expect(() => interactionMetrics({ caller: [c(2, 1)], agent: [] })).toThrow(RangeError);
    expect(() => interactionMetrics({ caller: [], agent: [a(0, NaN)] })).toThrow(RangeError);
    expect(() => interactionMetrics({ caller: [], agent: [], end: Infinity })).toThrow(RangeError);
    expect(() =>
      interactionMetrics({ caller: [], agent: [] }, { no_yield_window_sec: -1 }),
    ).toThrow(RangeError);
  });

  it('gives the same JSON whatever the input order', () => {
    const t: InteractionTimeline = {
      caller: [c(0, 1, 'a'), c(3, 4, 'b'), c(6, 7, 'c')],
      agent: [a(1.5, 2.5), a(3.5, 5, true), a(8, 9)],
      events: [
        { kind: 'backchannel', start: 2, end: 2.2 },
        { kind: 'noise_burst', start: 7.5, end: 7.6 },
      ],
      toolCalls: [{ at: 7.2 }, { at: 1.2 }],
    };
    const reversed: InteractionTimeline = {
      caller: [...t.caller].reverse(),
      agent: [...t.agent].reverse(),
      events: [...t.events!].reverse(),
      toolCalls: [...t.toolCalls!].reverse(),
    };
    const p = interactionMetrics(t);
    expect(JSON.stringify(interactionMetrics(reversed))).toBe(JSON.stringify(p));
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
    expect(p.counts.caller_events).toEqual({ backchannel: 1, noise_burst: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import type { SpeechSegment } from '../bridge/types.js';
import { interactionMetrics } from './panel.js';
import { agentSpans, callerUtterances, normaliseTimeline, timelineFromAudio } from './timeline.js';

describe('agentSpans', () => {
  it('merges touching and overlapping segments; the last one decides cut short', () => {
    expect(
      agentSpans([
        { start: 4, end: 5, cutShort: true },
        { start: 0, end: 1 },
        { start: 1, end: 2, cutShort: true },
        { start: 1.5, end: 1.8 },
        { start: 2.5, end: 3 },
      ]),
    ).toEqual([
      { start: 0, end: 2, cutShort: true },
      { start: 2.5, end: 3, cutShort: false },
      { start: 4, end: 5, cutShort: true },
    ]);
  });

  it('treats touching agent segments as no stop: the agent did not yield', () => {
    const p = interactionMetrics({
      caller: [{ start: 1, end: 2 }],
      agent: [
        { start: 0, end: 1.5 },
        { start: 1.5, end: 8 },
      ],
      end: 10,
    });
    expect(p.yield_rate).toMatchObject({ numerator: 0, denominator: 1 });
  });
});

describe('callerUtterances', () => {
  it('classifies by the highest-priority event and keeps the caller words', () => {
    expect(
      callerUtterances(
        [
          { start: 0, end: 2, text: 'my booking' },
          { start: 5, end: 6, text: 'uh-huh' },
        ],
        [
          { kind: 'interruption', start: 0, end: 1 },
          { kind: 'backchannel', start: 5.2, end: 5.4, text: 'mm' },
          { kind: 'non_directed', start: 8, end: 9, text: 'not now' },
          { kind: 'noise_burst', start: 10, end: 11 },
        ],
      ),
    ).toEqual([
      { start: 0, end: 2, kind: 'interruption', text: 'my booking' },
      { start: 5, end: 6, kind: 'backchannel', text: 'uh-huh' },
      { start: 8, end: 9, kind: 'non_directed', text: 'not now' },
    ]);
  });

  it('a caller turn with no event on it is a turn', () => {
    expect(callerUtterances([{ start: 1, end: 2 }], [])).toEqual([
      { start: 1, end: 2, kind: 'turn', text: '' },
    ]);
  });
});

describe('normaliseTimeline', () => {
  it('extends the conversation to cover all speech and events', () => {
    const tl = normaliseTimeline({
      caller: [{ start: 1, end: 2 }],
      agent: [{ start: 3, end: 4 }],
      events: [{ kind: 'noise_burst', start: 5, end: 6 }],
      end: 5.5,
    });
    expect([tl.start, tl.end]).toEqual([0, 6]);
    expect(tl.toolCalls).toBeUndefined();
  });
});

describe('timelineFromAudio', () => {
  const segment = (
    role: 'agent' | 'user',
    start: number,
    end: number,
    said: string,
    interrupted = false,
  ): SpeechSegment => ({ role, start, end, said, heard: said, interrupted });

  it('maps user segments to caller speech and interrupted agent segments to cut short', () => {
    const timeline = timelineFromAudio(
      {
        sampleRate: 16_000,
        // 10 s of 16 kHz PCM16 in two chunks.
        userToAgent: [new Uint8Array(160_000), new Uint8Array(160_000)],
        segments: [
          segment('agent', 0, 2, 'Hello, how can I help?'),
          segment('user', 2.5, 4, 'My flight'),
          segment('agent', 4.4, 6, 'Sure', true),
        ],
      },
      { events: [{ kind: 'vocal_tic', start: 7, end: 7.2 }], toolCalls: [{ at: 4.2 }] },
    );
    expect(timeline).toEqual({
      caller: [{ start: 2.5, end: 4, text: 'My flight' }],
      agent: [
        { start: 0, end: 2, text: 'Hello, how can I help?', cutShort: false },
        { start: 4.4, end: 6, text: 'Sure', cutShort: true },
      ],
      events: [{ kind: 'vocal_tic', start: 7, end: 7.2 }],
      toolCalls: [{ at: 4.2 }],
      start: 0,
      end: 10,
    });
    const p = interactionMetrics(timeline);
    expect(p.tool_turn_latency_mean).toMatchObject({ count: 1 });
    expect(p.tool_turn_latency_mean.value).toBeCloseTo(0.4, 9);
    expect(p.dead_air.conversation_seconds).toBe(10);
  });
});

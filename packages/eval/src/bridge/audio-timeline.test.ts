// The audio timeline on a fake wall clock: where speech lands on the timeline does not depend on
// how long anything took (a slow synthesizer leaves no gap on the fast clock, a segment's last
// partial chunk follows its audio on the real-time clock), and bursts start on the grid.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AudioFrameValue } from '@scenaro/sdk/protocol';
import {
  AudioTimeline,
  CHUNK_SAMPLES,
  GRID_MS,
  RELAY_SAMPLE_RATE,
  SILENCE_CHUNK,
} from './audio-timeline.js';
import type { AudioTimelineOptions, RelayClock } from './audio-timeline.js';
import type { StepFilter } from './step-filter.js';
import type { BotRole } from './types.js';

const GRID_CHUNKS = (GRID_MS * RELAY_SAMPLE_RATE) / 1000 / CHUNK_SAMPLES;

/** `ms` of 16 kHz speech (a constant non-zero sample), as a bot's audio frame. */
function speech(ms: number): AudioFrameValue {
  const samples = (ms * RELAY_SAMPLE_RATE) / 1000;
  const audio = new Uint8Array(samples * 2);
  for (let i = 0; i < samples; i++) audio[i * 2] = 100;
  return {
    kind: 'audio',
    id: 1n,
    name: 'OutputAudioRawFrame',
    audio,
    sampleRate: RELAY_SAMPLE_RATE,
    numChannels: 1,
  };
}

/** A timeline on `clock`, started at 0, and the chunks of the agent's segments it reported sent. */
function timeline(clock: RelayClock, more: Partial<AudioTimelineOptions> = {}) {
  const sent: number[] = [];
  const drained: number[] = [];
  const line = new AudioTimeline({
    clock,
    tailMs: 1600,
    ...more,
    send: () => undefined,
    listener: {
      arrived: () => undefined,
      sent: (role: BotRole, _tag, position) => {
        if (role === 'agent') sent.push(position / CHUNK_SAMPLES);
      },
      drained: (_role, tag) => drained.push(tag),
      moved: () => undefined,
    },
  });
  line.start(0);
  return { line, sent, drained };
}

/** Is `positions` a run of consecutive chunk positions? */
const contiguous = (positions: number[]) =>
  positions.every((p, i) => i === 0 || p === (positions[i - 1] as number) + 1);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AudioTimeline', () => {
  it('fast: waits for a slow speaker, however long, with no silence in its speech', async () => {
    const { line, sent, drained } = timeline('fast');
    line.startSegment('agent', 0);
    line.audio('agent', speech(1000));
    await vi.advanceTimersByTimeAsync(5);
    const before = line.position;
    expect(sent.length).toBe(62);
    // The next sentence takes a minute to synthesize: the timeline stands still meanwhile.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(line.position).toBe(before);
    line.audio('agent', speech(500));
    line.endSegment('agent');
    await vi.advanceTimersByTimeAsync(5);
    expect(drained).toEqual([0]);
    // 1.5 s of speech: 93 whole chunks and a padded partial one, back to back.
    expect(sent).toHaveLength(94);
    expect(contiguous(sent)).toBe(true);
    // Then the listener's silence, up to the grid.
    expect(line.position / CHUNK_SAMPLES).toBe(Math.ceil((94 + 100) / GRID_CHUNKS) * GRID_CHUNKS);
    line.stop();
  });

  it('fast: a burst starts on the grid, after the other side has had its silence', async () => {
    const { line, sent } = timeline('fast');
    line.startSegment('user', 0);
    line.audio('user', speech(160));
    line.endSegment('user');
    await vi.advanceTimersByTimeAsync(5);
    // The agent answers at once; its speech waits for the user's 1.6 s of silence and the grid.
    line.startSegment('agent', 1);
    line.audio('agent', speech(320));
    line.endSegment('agent');
    await vi.advanceTimersByTimeAsync(5);
    expect(sent[0]).toBe(Math.ceil((10 + 100) / GRID_CHUNKS) * GRID_CHUNKS);
    expect(sent).toHaveLength(20);
    line.stop();
  });

  it("real time: a segment's last partial chunk follows its audio, not the end of its speech", async () => {
    const { line, sent, drained } = timeline('realtime');
    line.startSegment('agent', 0);
    // 200 ms of speech (12.5 chunks), all at once; the bot reports the end of its speech later.
    line.audio('agent', speech(200));
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toHaveLength(13);
    expect(contiguous(sent)).toBe(true);
    expect((sent[0] as number) % GRID_CHUNKS).toBe(0);
    line.endSegment('agent');
    await vi.advanceTimersByTimeAsync(100);
    expect(drained).toEqual([0]);
    expect(sent).toHaveLength(13);
    line.stop();
  });

  it.each(['fast', 'realtime'] as const)(
    '%s: whenRelayed calls back right after the chunk that ends the audio sent so far',
    async (clock) => {
      const events: string[] = [];
      const line = new AudioTimeline({
        clock,
        tailMs: 1600,
        send: (listener, pcm) => {
          if (listener === 'user') events.push(pcm.some((b) => b !== 0) ? 'speech' : 'silence');
        },
        listener: { arrived: () => {}, sent: () => {}, drained: () => {}, moved: () => {} },
      });
      line.start(0);
      line.startSegment('agent', 0);
      // Two sentences: 200 ms (12.5 chunks) then 100 ms; the first is told after its audio.
      line.audio('agent', speech(200));
      line.whenRelayed('agent', () => events.push('first told'));
      line.audio('agent', speech(100));
      line.whenRelayed('agent', () => events.push('second told'));
      line.endSegment('agent');
      await vi.advanceTimersByTimeAsync(3000);
      const speechOf = (told: string) =>
        events.slice(0, events.indexOf(told)).filter((e) => e === 'speech').length;
      // The chunk holding the first sentence's last half chunk goes out, then the call.
      expect(speechOf('first told')).toBe(13);
      expect(events[events.indexOf('first told') - 1]).toBe('speech');
      expect(speechOf('second told')).toBe(19);
      expect(events.filter((e) => e === 'speech')).toHaveLength(19);
      // Once everything has gone out, at once.
      let late = false;
      line.whenRelayed('agent', () => (late = true));
      await vi.advanceTimersByTimeAsync(1);
      expect(late).toBe(true);
      line.stop();
    },
  );

  /**
   * A filter that keeps the timeline going until chunk `until` (a bot's ears on hold) and says
   * the agent's next speech answers a turn whose place is there.
   */
  const holding = (until: number): StepFilter => ({
    holds: (source, position) => source === 'agent' && position < until * CHUNK_SAMPLES,
    step: (_p, user, agent) => ({
      toAgent: user?.pcm ?? SILENCE_CHUNK,
      toUser: agent?.pcm ?? SILENCE_CHUNK,
      agentRecord: agent?.pcm ?? SILENCE_CHUNK,
    }),
    mayStep: () => true,
    mayStart: () => true,
    busy: (position) => position < until * CHUNK_SAMPLES,
  });

  it('fast at real-time pace: speech lands where it lands at full speed, never ahead of real time', async () => {
    /** The agent answers `afterMs` of wall time in; where its speech went, and the wall time then. */
    async function answer(pace: 'free' | 'realtime', afterMs: number) {
      const { line, sent } = timeline('fast', { pace, filter: holding(70) });
      await vi.advanceTimersByTimeAsync(afterMs);
      const early = line.position;
      line.startSegment('agent', 0);
      line.audio('agent', speech(500));
      line.endSegment('agent');
      await vi.advanceTimersByTimeAsync(5000);
      line.stop();
      return { sent, early, wall: performance.now() };
    }
    // At full speed the timeline is held to chunk 70 before the answer comes; at real-time
    // pace the answer comes 100 ms in, with the timeline a few chunks along.
    const full = await answer('free', 100);
    const paced = await answer('realtime', 100);
    expect(full.early).toBe(Math.ceil(70 / GRID_CHUNKS) * GRID_CHUNKS * CHUNK_SAMPLES);
    expect(paced.early).toBeLessThanOrEqual((100 / 16 + 3) * CHUNK_SAMPLES);
    expect(paced.sent).toEqual(full.sent);
    expect(paced.sent[0]).toBe(Math.ceil(70 / GRID_CHUNKS) * GRID_CHUNKS);
    // An answer after the hold: the same place again.
    expect((await answer('realtime', 3000)).sent).toEqual(full.sent);
  });

  it('fast at real-time pace: an early answer waits for its turn, not for the end of the line', async () => {
    // The line stays busy to chunk 300 (a noisy listener), the turn's place is at chunk 70.
    const { line, sent } = timeline('fast', {
      pace: 'realtime',
      filter: {
        ...holding(300),
        holds: (source, p) => source === 'agent' && p < 70 * CHUNK_SAMPLES,
      },
    });
    await vi.advanceTimersByTimeAsync(100);
    line.startSegment('agent', 0);
    line.audio('agent', speech(500));
    line.endSegment('agent');
    await vi.advanceTimersByTimeAsync(8000);
    line.stop();
    expect(sent[0]).toBe(Math.ceil(70 / GRID_CHUNKS) * GRID_CHUNKS);
  });

  it('fast at full speed: an early answer waits for its turn while other speech moves the timeline on', async () => {
    // The other side keeps the timeline going to chunk 300; the answer to a turn placed at chunk
    // 70 is in before the first step: it starts where an answer that came late would.
    const results: number[] = [];
    for (const early of [true, false]) {
      const { line, sent } = timeline('fast', {
        filter: {
          ...holding(300),
          holds: (source, p) => source === 'agent' && p < 70 * CHUNK_SAMPLES,
          // Held at the turn's place until the answer is in (the bot's ears wait there).
          mayStep: (p, queued) => queued.agent || p < 70 * CHUNK_SAMPLES,
        },
      });
      if (!early) await vi.advanceTimersByTimeAsync(1000);
      line.startSegment('agent', 0);
      line.audio('agent', speech(500));
      line.endSegment('agent');
      await vi.advanceTimersByTimeAsync(8000);
      line.stop();
      results.push(sent[0]!);
    }
    expect(results).toEqual([80, 80]);
  });

  it('fast at real-time pace: a step is never taken before its time, a wait is not made up for', async () => {
    const { line } = timeline('fast', { pace: 'realtime' });
    line.startSegment('agent', 0);
    line.audio('agent', speech(1000));
    const start = performance.now();
    for (let ms = 100; ms <= 800; ms += 100) {
      await vi.advanceTimersByTimeAsync(100);
      const audioMs = (line.position * 1000) / RELAY_SAMPLE_RATE;
      expect(audioMs).toBeLessThanOrEqual(performance.now() - start + 2 * 16);
      expect(audioMs).toBeGreaterThanOrEqual(performance.now() - start - 2 * 16);
    }
    // The bot is slow with the rest: the timeline waits, then goes on at real-time pace.
    await vi.advanceTimersByTimeAsync(10_000);
    const held = line.position;
    line.audio('agent', speech(1000));
    line.endSegment('agent');
    await vi.advanceTimersByTimeAsync(200);
    expect(((line.position - held) * 1000) / RELAY_SAMPLE_RATE).toBeLessThanOrEqual(200 + 16);
    line.stop();
  });
});

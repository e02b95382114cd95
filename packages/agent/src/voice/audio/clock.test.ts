import { describe, expect, it } from 'vitest';
import { FastAudioClock, RealtimeAudioClock } from './clock.js';

/** A monotonic clock and a sleep that only advance it, recording each wait. */
function fakeTime() {
  let now = 1_000;
  const waits: number[] = [];
  return {
    now: () => now,
    sleep: (ms: number) => {
      waits.push(ms);
      now += ms + 3; // every timer fires 3 ms late
      return Promise.resolve();
    },
    waits,
    pass: (ms: number) => {
      now += ms;
    },
  };
}

describe('FastAudioClock', () => {
  it('never waits; time is the samples counted', async () => {
    const clock = new FastAudioClock(24_000);
    const started = performance.now();
    for (let i = 0; i < 1_500; i++) await clock.advance(960); // 60 s of 40 ms chunks
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(clock.samples).toBe(1_440_000);
    expect(clock.nowMs()).toBe(60_000);
    clock.reset();
    expect(clock.nowMs()).toBe(0);
  });
});

describe('RealtimeAudioClock', () => {
  it('schedules from a monotonic start, so late timers do not accumulate drift', async () => {
    const time = fakeTime();
    const clock = new RealtimeAudioClock(24_000, { now: time.now, sleep: time.sleep });
    for (let i = 0; i < 10; i++) await clock.advance(960);
    // The first chunk goes at once; each later one waits for its slot minus the 3 ms the last timer was late.
    expect(time.waits).toEqual([40, 37, 37, 37, 37, 37, 37, 37, 37]);
    expect(time.now()).toBe(1_000 + 9 * 40 + 3);
    expect(clock.nowMs()).toBe(400);
  });

  it('restarts its schedule after a pause instead of bursting', async () => {
    const time = fakeTime();
    const clock = new RealtimeAudioClock(16_000, { now: time.now, sleep: time.sleep });
    await clock.advance(256);
    time.pass(5_000); // nothing to send for 5 s
    await clock.advance(256);
    await clock.advance(256);
    expect(time.waits).toEqual([16]);
  });

  it('sends a chunk leadMs early and stops waiting when aborted', async () => {
    const time = fakeTime();
    const clock = new RealtimeAudioClock(16_000, { now: time.now, sleep: time.sleep, leadMs: 10 });
    await clock.advance(1_600);
    await clock.advance(1_600);
    expect(time.waits).toEqual([90]);

    const real = new RealtimeAudioClock(16_000);
    await real.advance(16_000); // the next chunk is due in 1 s
    const controller = new AbortController();
    const waiting = real.advance(256, controller.signal);
    controller.abort(new Error('barge-in'));
    await expect(waiting).rejects.toThrow('barge-in');
    expect(real.samples).toBe(16_000);
  });

  it('paces real chunks in real time', async () => {
    const clock = new RealtimeAudioClock(24_000);
    const started = performance.now();
    for (let i = 0; i < 6; i++) await clock.advance(960);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(195); // five 40 ms slots before the sixth chunk
    expect(elapsed).toBeLessThan(2_000);
  });
});

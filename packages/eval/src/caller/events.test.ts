import { describe, expect, it } from 'vitest';
import { EventQueue, eventsOf } from './events.js';
import type { CallerEffectEvent } from './events.js';

const fill = (queue: EventQueue) => {
  queue.add('noise_burst', 100, 900, { sound: 'siren', snrDb: 5 });
  queue.add('frame_drop', 300, 400, { frames: 1, frameMs: 150 });
  queue.add('vocal_tic', 500, 900, { text: '.[cough]', sounds: ['cough'], cut: false });
  queue.add('frame_drop', 1200, 1600, { frames: 2, frameMs: 150 });
  queue.add('telephony', 2000, 2100, {
    codec: 'G.711 mu-law',
    sampleRate: 8000,
    bandHz: [300, 3400],
    delayMs: 0,
  });
};

describe('EventQueue', () => {
  it('releases events in order of their end, however the positions advance', () => {
    const whole = new EventQueue(1000);
    fill(whole);
    const atOnce = [...whole.release(1600), ...whole.release(1800, true)];
    const stepped = new EventQueue(1000);
    fill(stepped);
    const inSteps: CallerEffectEvent[] = [];
    for (const position of [350, 400, 899, 900, 1500, 1600])
      inSteps.push(...stepped.release(position));
    inSteps.push(...stepped.release(1800, true));
    expect(inSteps).toEqual(atOnce);
    expect(atOnce.map((event) => [event.kind, event.end])).toEqual([
      ['frame_drop', 0.4],
      ['noise_burst', 0.9],
      ['vocal_tic', 0.9],
      ['frame_drop', 1.6],
    ]);
  });

  it('cuts what is still going on at the end and drops what has not started', () => {
    const queue = new EventQueue(1000);
    fill(queue);
    const events = queue.release(1000, true);
    expect(events.map((event) => [event.kind, event.start, event.end])).toEqual([
      ['frame_drop', 0.3, 0.4],
      ['noise_burst', 0.1, 0.9],
      ['vocal_tic', 0.5, 0.9],
    ]);
    expect(eventsOf(events, 'frame_drop')).toHaveLength(1);
    expect(queue.release(5000, true)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { SpeechOutput } from '../conversation/hook.js';
import {
  HeardReports,
  PlaybackTracker,
  parsePlaybackMark,
  playedSpeech,
} from './voice-playback.js';

function speaker(): SpeechOutput & { stopped: number } {
  return {
    active: false,
    stopped: 0,
    text: () => undefined,
    flush: () => undefined,
    end: () => undefined,
    interrupt() {
      this.stopped++;
      return false;
    },
  };
}

describe('playback marks', () => {
  it('a reply is heard from before it plays until its mark plus its length', () => {
    const tracker = new PlaybackTracker(16_000);
    expect(tracker.audibleAt(0)).toBe(false);
    tracker.started();
    tracker.sent(2 * 24_000, 24_000); // one second at 24 kHz
    expect(tracker.audibleAt(10)).toBe(true); // still being sent
    tracker.stopped();
    expect(tracker.audibleAt(99_999)).toBe(true); // sent, not played yet
    tracker.mark({ reply: 1, start: 32_000 });
    expect(tracker.audibleAt(32_000 + 15_999)).toBe(true);
    expect(tracker.audibleAt(32_000 + 16_000)).toBe(false);
  });

  it('a mark that comes before its reply is kept for it', () => {
    const tracker = new PlaybackTracker(16_000);
    tracker.mark({ reply: 1, start: 100 });
    tracker.started();
    tracker.sent(2 * 1600, 16_000);
    tracker.stopped();
    expect(tracker.audibleAt(1699)).toBe(true);
    expect(tracker.audibleAt(1700)).toBe(false);
  });

  it('interrupting a reply still to be heard reports it stopped', () => {
    const tracker = new PlaybackTracker(16_000);
    const inner = speaker();
    const output = playedSpeech(inner, tracker, () => 5);
    tracker.started();
    tracker.sent(3200, 16_000);
    tracker.stopped();
    expect(output.active).toBe(true);
    expect(output.interrupt()).toBe(true);
    expect(inner.stopped).toBe(1);
    expect(output.active).toBe(false);
    expect(output.interrupt()).toBe(false);
  });

  it('refuses a mark that is not two integers', () => {
    expect(parsePlaybackMark({ reply: 2, start: 0 })).toEqual({ reply: 2, start: 0 });
    expect(() => parsePlaybackMark({ reply: 0, start: 1 })).toThrow(/reply/);
    expect(() => parsePlaybackMark({ reply: 1, start: -1 })).toThrow(/start/);
    expect(() => parsePlaybackMark(null)).toThrow(/reply/);
  });
});

describe('heard reports', () => {
  it('hold a turn at its place, name it as turn_at, and move on to the next turn when its reply starts', () => {
    const sent: Record<string, unknown>[] = [];
    const reports = new HeardReports((data) => sent.push(data as Record<string, unknown>), 16_000);
    const ears = (samples: number) => ({ samples, speaking: false, awaiting: [] });
    let heard = 20_000;
    const again = () => reports.report(ears(heard));
    // Two turns: utterances that ended at 16,000 and 24,000 samples (1.6 s hold: 25,600 samples).
    reports.turn(16_000, again);
    heard = 60_000;
    reports.turn(24_000, again);
    expect(sent.at(-1)).toMatchObject({ samples: 41_600, waiting: true, turn_at: 41_600 });
    reports.replyStarted(again);
    expect(sent.at(-1)).toMatchObject({ samples: 49_600, waiting: true, turn_at: 49_600 });
    reports.replyStarted(again);
    expect(sent.at(-1)).toMatchObject({ samples: 60_000, waiting: false });
    expect(sent.at(-1)).not.toHaveProperty('turn_at');
  });

  it('name the latest ended utterance hold as settle_at from the moment it ends', () => {
    const sent: Record<string, unknown>[] = [];
    const reports = new HeardReports((data) => sent.push(data as Record<string, unknown>), 16_000);
    reports.report({ samples: 8_000, speaking: true, awaiting: [] });
    expect(sent.at(-1)).not.toHaveProperty('settle_at');
    reports.report({
      samples: 9_000,
      speaking: false,
      awaiting: [{ startSample: 0, endSample: 8_500 }],
    });
    expect(sent.at(-1)).toMatchObject({ samples: 9_000, settle_at: 34_100 });
    // The final is in: the place stays named.
    reports.report({ samples: 9_500, speaking: false, awaiting: [] });
    expect(sent.at(-1)).toMatchObject({ samples: 9_500, settle_at: 34_100 });
  });
});

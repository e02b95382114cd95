import { describe, expect, it } from 'vitest';
import type { SpeechOutput } from '../conversation/hook.js';
import { PlaybackTracker, parsePlaybackMark, playedSpeech } from './voice-playback.js';

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

// The report's audio parts: a linked player per scenario, the timeline, word error rates and the
// turns heard differently; nothing at all for a text-mode run.
import { describe, expect, it } from 'vitest';
import { coerceMetrics } from '../scoring/aggregate.js';
import type { AudioMetrics } from '../scoring/audio-metrics.js';
import { audioDetails, audioOverview } from './audio.js';

const audio: AudioMetrics = {
  clock: 'fast',
  wav: 'conversation_log.wav',
  audio_seconds: 12.5,
  segments: [
    { role: 'agent', start: 1, end: 3, said: 'Hello there.', heard: 'hello there', wer: 0 },
    {
      role: 'user',
      start: 4,
      end: 6,
      said: 'Change my booking.',
      heard: 'change my looking',
      wer: 1 / 3,
    },
    { role: 'agent', start: 5.5, end: 8, said: 'Done.', heard: 'done', latency_ms: -500, wer: 0 },
  ],
  barge_ins: 1,
  wer: {
    agent_stt: { wer: 1 / 3, substitutions: 1, deletions: 0, insertions: 0, reference_words: 3 },
    user_stt: { wer: 0, substitutions: 0, deletions: 0, insertions: 0, reference_words: 3 },
  },
  ttfb: {
    agent: {
      'flite-tts': { count: 2, mean_ms: 100, p50_ms: 100, p95_ms: 120, min_ms: 80, max_ms: 120 },
    },
    user: {},
  },
};

describe('report audio', () => {
  it('links the recording and lists the turns heard differently', () => {
    const m = coerceMetrics({
      scenario_name: 'tau2_airline__7',
      scenario_directory: '/runs/x/tau2_airline__7',
      audio,
    });
    const html = audioDetails(m);
    expect(html).toContain(
      '<audio controls preload="none" src="tau2_airline__7/conversation_log.wav">',
    );
    expect(html).toContain('change my looking');
    expect(html).not.toContain('hello there');
    expect(html).toContain('1 barge-in(s)');
    const overview = audioOverview([m]);
    expect(overview).toContain('agent · flite-tts');
    expect(overview).toContain('33.3%');
  });

  it('adds nothing to a text-mode run', () => {
    const m = coerceMetrics({ scenario_name: 'commerce__1' });
    expect(audioDetails(m)).toBe('');
    expect(audioOverview([m])).toBe('');
  });
});

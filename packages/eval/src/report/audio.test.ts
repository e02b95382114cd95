// The report's audio parts: a linked player per scenario, the timeline, word error rates raw and
// normalized, entity accuracy, clarification turns, the values and turns heard differently;
// nothing at all for a text-mode run.
import { describe, expect, it } from 'vitest';
import { coerceMetrics } from '../scoring/aggregate.js';
import type { AudioMetrics } from '../scoring/audio-metrics.js';
import { audioDetails, audioOverview } from './audio.js';
import { scenarioRow } from './scenario.js';

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
    {
      role: 'agent',
      start: 5.5,
      end: 8,
      said: 'Did you say <b>A & B</b>?',
      heard: 'did you say a and b',
      latency_ms: -500,
      wer: 0,
    },
  ],
  barge_ins: 1,
  wer: {
    agent_stt: { wer: 1 / 3, substitutions: 1, deletions: 0, insertions: 0, reference_words: 3 },
    user_stt: { wer: 0, substitutions: 0, deletions: 0, insertions: 0, reference_words: 3 },
  },
  normalized_wer: {
    agent_stt: { wer: 0.25, substitutions: 1, deletions: 0, insertions: 0, reference_words: 4 },
    user_stt: { wer: 0, substitutions: 0, deletions: 0, insertions: 0, reference_words: 3 },
  },
  entity_accuracy: {
    agent_stt: {
      said: 3,
      heard_right: 2,
      accuracy: 2 / 3,
      misheard: [{ kind: 'code', said: 'A<B&C9', heard: '"X9"', turn: 1 }],
    },
    user_stt: { said: 0, heard_right: 0, accuracy: null, misheard: [] },
  },
  clarifications: {
    total: 1,
    agent: 1,
    user: 0,
    turns: [{ turn: 2, role: 'agent', kind: 'confirm', at: 5.5 }],
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

  it('shows entity accuracy, normalized WER and clarification turns, escaped', () => {
    const m = coerceMetrics({
      scenario_name: 'tau2_airline__<7>',
      is_successful: false,
      failure_attribution: { class: 'mishearing', kind: 'code', summary: 'mishearing' },
      audio,
    });
    const overview = audioOverview([m, coerceMetrics({ scenario_name: 'commerce__1' })]);
    for (const cell of [
      '<tr><th>entity accuracy, agent heard</th><td>66.7% (2/3)</td></tr>',
      '<tr><th>entity accuracy, user heard</th><td>N/A (0/0)</td></tr>',
      '<tr><th>WER agent heard, raw / normalized</th><td>33.3% / 25.0%</td></tr>',
      '<tr><th>clarification turns</th><td>1 (1.00 per scenario; agent 1, user 0)</td></tr>',
      '<tr><th>failures traced to a misheard entity</th><td>1</td></tr>',
      '<td>tau2_airline__&lt;7&gt;</td><td>66.7% (2/3)</td><td>N/A (0/0)</td><td>33.3% / 25.0%</td>',
      '<span class="tag bad">misheard</span>',
    ])
      expect(overview).toContain(cell);
    const html = audioDetails(m);
    expect(html).toContain('agent heard 33.3% WER (normalized 25.0%)');
    expect(html).toContain('Entity accuracy: agent heard 66.7% (2/3), user heard N/A (0/0)');
    expect(html).toContain(
      '<td>user → agent</td><td>1</td><td>code</td><td>A&lt;B&amp;C9</td><td>&quot;X9&quot;</td>',
    );
    expect(html).toContain(
      '<td>agent</td><td>confirm</td><td>Did you say &lt;b&gt;A &amp; B&lt;/b&gt;?</td>',
    );
    expect(html).not.toContain('<b>A');
    const row = scenarioRow(m, 0);
    expect(row).toContain('entities 2/3 · 0/0</span><span class="cell">1 clarification(s)');
  });

  it('adds nothing to a text-mode run', () => {
    const m = coerceMetrics({ scenario_name: 'commerce__1' });
    expect(audioDetails(m)).toBe('');
    expect(audioOverview([m])).toBe('');
    expect(scenarioRow(m, 0)).not.toContain('clarification');
  });
});

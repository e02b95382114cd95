import { describe, expect, it } from 'vitest';
import { interactionComparisonHtml, interactionPanelHtml } from './html.js';
import { aggregateInteraction, interactionMetrics } from './panel.js';
import type { AgentSpeech, CallerSpeech, InteractionTimeline } from './types.js';

function exchanges(n: number): InteractionTimeline {
  const caller: CallerSpeech[] = [];
  const agent: AgentSpeech[] = [];
  for (let i = 0; i < n; i++) {
    caller.push({ start: 3 * i, end: 3 * i + 1 });
    agent.push({ start: 3 * i + 1.5, end: 3 * i + 2.5 });
  }
  caller.push({ start: 3 * n, end: 3 * n + 1 });
  return { caller, agent };
}

describe('interactionPanelHtml', () => {
  const run = aggregateInteraction([interactionMetrics(exchanges(12))]);
  const html = interactionPanelHtml(run);

  it('renders a section with cards and tables in the report classes', () => {
    expect(html.startsWith('<section><h2>Interaction</h2>')).toBe(true);
    expect(html).toContain('<div class="cards"><div class="card">');
    expect(html).toContain('<p class="muted">');
    expect(html).toContain('<div class="scroll"><table>');
    expect(html.match(/<table>/g)).toHaveLength(2);
  });

  it('shows values with their events, and hidden figures as a dash with the reason', () => {
    expect(html).toContain('<td>100.0%</td><td>12/12</td>');
    expect(html).toContain('<div class="big">0.50 s</div><div class="sub">12 events</div>');
    expect(html).toContain('— <span class="muted">no caller interruptions</span>');
    expect(html).toContain(
      '<div class="big">—</div><div class="sub">no caller interruptions</div>',
    );
    expect(html).toContain('<td>Long gaps (over 3.0 s)</td>');
    // 12 response gaps and 12 gaps after the agent's answers; the call ends with the caller.
    expect(html).toContain('<th>all: 24 gaps</th><th>excluding response gaps: 12 gaps</th>');
    expect(html).toContain('<p class="muted">1 scenario · yield window 2.0 s');
    const few = interactionPanelHtml(interactionMetrics(exchanges(3)));
    expect(few).toContain('— <span class="muted">fewer than 10 events</span>');
    expect(few).not.toContain('100.0%');
  });

  it('escapes the text it shows', () => {
    const panel = interactionMetrics(exchanges(2));
    panel.counts.unscored = { '<img src=x onerror=alert(1)>': 1 };
    panel.response_rate = { ...panel.response_rate, reason: '"quoted" & <b>' };
    const out = interactionPanelHtml(panel);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('&quot;quoted&quot; &amp; &lt;b&gt;');
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<b>');
  });
});

describe('interactionComparisonHtml', () => {
  it('puts presets side by side, escaping their names', () => {
    const html = interactionComparisonHtml([
      {
        preset: 'control',
        success_rate: 0.75,
        panel: aggregateInteraction([interactionMetrics(exchanges(12))]),
      },
      {
        preset: '<script>alert("x")</script>',
        success_rate: null,
        panel: aggregateInteraction([interactionMetrics(exchanges(2))]),
      },
    ]);
    expect(html).toContain(
      '<th>control</th><th>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</th>',
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('<tr><td>Success rate</td><td>75.0%</td><td>N/A</td></tr>');
    expect(html).toContain(
      '<td>100.0% <span class="muted">(12/12)</span></td><td>— <span class="muted">fewer than 10 events</span></td>',
    );
    expect(html).toContain('excluding response gaps');
  });

  it('says so when there are no presets', () => {
    expect(interactionComparisonHtml([])).toBe('<p class="muted">No presets.</p>');
  });
});

import { describe, expect, it } from 'vitest';
import { aggregateRun } from '../scoring/aggregate.js';
import { makeMetrics } from '../test-support/scoring-fixtures.js';
import type { ScenarioMetrics } from '../scoring/types.js';
import { escapeHtml, histogramBins, renderReport } from './index.js';

const hostile = '<script>alert("x")</script> & <img src=x onerror=alert(1)>';

function sampleMetrics(): ScenarioMetrics[] {
  return [
    makeMetrics({ scenario_name: 'tau2_airline__1' }),
    makeMetrics({
      scenario_name: 'tau2_retail__<b>2</b>',
      is_successful: false,
      is_task_successful: false,
      db_state_match: false,
      db_state_actual_hash: 'abcdef0123456789',
      success_breakdown: {
        passed: ['clean_exit'],
        failed: ['db_state_match'],
        not_applicable: [],
        excluded: [],
      },
      turns: [
        { role: 'agent', text: 'Hello', start: 0, end: 1, latency_ms: 300 },
        { role: 'user', text: hostile, start: 1, end: 2 },
      ],
      actions: {
        agent: [
          {
            action_type: 'cancel',
            name: 'cancel_<order>',
            arguments: { note: '</script><script>bad()</script>' },
            result: { ok: true },
          },
        ],
        user: [],
      },
      db_diff: {
        status: 'computed',
        side: 'agent',
        diff: {
          tables_added: [],
          tables_removed: ['gone<table>'],
          tables_modified: {
            orders: {
              records_added: ['#W1'],
              records_removed: [],
              records_modified: {
                '#W2': {
                  fields_added: [],
                  fields_removed: [],
                  fields_modified: {
                    status: { type: 'value_mismatch', expected: 'pending', actual: '<cancelled>' },
                    items: {
                      type: 'list_differences',
                      differences: [
                        { index: 0, diff: { type: 'value_mismatch', expected: 1, actual: 2 } },
                      ],
                    },
                  },
                },
              },
            },
          },
        },
      },
    }),
    makeMetrics({
      scenario_name: 'qa__1',
      is_successful: 'N/A',
      is_task_successful: 'N/A',
      not_scored_reason: 'judge_passed needs the LLM judge: no LLM judge is configured',
      db_diff: { status: 'needs_include_db', side: 'agent', message: 're-request with include_db' },
    }),
  ];
}

describe('renderReport', () => {
  const metrics = sampleMetrics();
  const html = renderReport({
    aggregate: aggregateRun(metrics),
    metrics,
    title: 'Run <1>',
    runId: 'r1',
    generatedAt: '2026-01-01T00:00:00Z',
    info: { agent: 'gpt <x>' },
  });

  it('renders one complete page with charts and a row per scenario', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain('<title>Run &lt;1&gt;</title>');
    expect(html.match(/<svg class="chart"/g)?.length).toBe(5);
    expect(html.match(/<details class="scenario"/g)?.length).toBe(3);
    expect(html).toContain('data-status="not-scored"');
    expect(html).toContain('Success by domain');
    expect(html).toContain('Failure reasons');
    expect(html).toContain('failed: db_state_match');
    expect(html).toContain('re-request with include_db');
    expect(html).toContain('gpt &lt;x&gt;');
  });

  it('loads nothing from the network', () => {
    // The hostile transcript text mentions src= as escaped text; no tag may carry the attribute.
    expect(html).not.toMatch(/<[^>]*\s(src|href)\s*=/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/url\(|@import/);
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html.match(/<\/script>/g)?.length).toBe(1);
  });

  it('escapes scenario text, transcripts, actions and diffs', () => {
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(1)&gt;',
    );
    expect(html).not.toContain('<b>2</b>');
    expect(html).toContain('tau2_retail__&lt;b&gt;2&lt;/b&gt;');
    expect(html).toContain('cancel_&lt;order&gt;');
    expect(html).not.toContain('<script>bad()');
    expect(html).toContain('orders[#W2].status');
    expect(html).toContain('&quot;&lt;cancelled&gt;&quot;');
    expect(html).toContain('orders[#W2].items[0]');
    expect(html).toContain('gone&lt;table&gt;');
  });

  it('shows a banner for scripted runs', () => {
    const scripted = metrics.map((m) => ({
      ...m,
      scripted: true,
      scripted_sides: { agent: true, user: true },
    }));
    const page = renderReport({ aggregate: aggregateRun(scripted), metrics: scripted });
    expect(page).toContain(
      '<div class="banner">Every result in this run came from scripted policies',
    );
    expect(html).not.toContain('scripted policies (no LLM)');
  });

  it('renders an empty run', () => {
    const page = renderReport({ aggregate: aggregateRun([]), metrics: [] });
    expect(page).toContain('No data.');
    expect(page).toContain('</html>');
  });
});

describe('helpers', () => {
  it('escapeHtml escapes the five special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
    expect(escapeHtml(null)).toBe('');
  });

  it('histogramBins covers every value once', () => {
    const values = [120, 480, 510, 900, 1500, 2950];
    const bins = histogramBins(values);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(values.length);
    expect(bins[0]?.start).toBeLessThanOrEqual(120);
    expect(bins[bins.length - 1]?.end).toBeGreaterThan(2950);
    const turns = histogramBins([2, 4, 4, 6], { integer: true });
    expect(turns.map((b) => [b.start, b.count])).toEqual([
      [2, 1],
      [3, 0],
      [4, 2],
      [5, 0],
      [6, 1],
    ]);
    expect(histogramBins([7, 7])).toHaveLength(1);
    expect(histogramBins([])).toEqual([]);
  });
});

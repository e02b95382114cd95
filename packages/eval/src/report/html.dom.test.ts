// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { aggregateRun } from '../scoring/aggregate.js';
import { makeMetrics } from '../test-support/scoring-fixtures.js';
import { renderReport } from './html.js';

function load(): void {
  const metrics = [
    makeMetrics({ scenario_name: 'tau2_airline__1' }),
    makeMetrics({
      scenario_name: 'tau2_airline__2',
      is_successful: false,
      is_task_successful: false,
    }),
    makeMetrics({
      scenario_name: 'tau2_retail__3',
      is_successful: 'N/A',
      is_task_successful: 'N/A',
    }),
  ];
  const parsed = new DOMParser().parseFromString(
    renderReport({ aggregate: aggregateRun(metrics), metrics }),
    'text/html',
  );
  document.body.innerHTML = parsed.body.innerHTML;
  // Scripts inserted through innerHTML do not run: run the page's script by hand.
  new Function(parsed.querySelector('script')?.textContent ?? '')();
}

function visible(): string[] {
  return [...document.querySelectorAll('details.scenario')]
    .filter((d) => !d.classList.contains('hidden'))
    .map((d) => d.querySelector('.name')?.textContent ?? '');
}

describe('report page script', () => {
  it('filters by status and by name, and expands rows', () => {
    load();
    expect(visible()).toHaveLength(3);
    (document.querySelector('[data-filter="failed"]') as HTMLButtonElement).click();
    expect(visible()).toEqual(['tau2_airline__2']);
    expect(document.getElementById('shown')?.textContent).toBe('1');
    (document.querySelector('[data-filter="all"]') as HTMLButtonElement).click();
    const search = document.getElementById('search') as HTMLInputElement;
    search.value = 'RETAIL';
    search.dispatchEvent(new Event('input'));
    expect(visible()).toEqual(['tau2_retail__3']);
    (document.getElementById('expand') as HTMLButtonElement).click();
    const rows = [...document.querySelectorAll('details.scenario')] as HTMLDetailsElement[];
    expect(rows.map((r) => r.open)).toEqual([false, false, true]);
    (document.getElementById('collapse') as HTMLButtonElement).click();
    expect(rows.some((r) => r.open)).toBe(false);
  });
});

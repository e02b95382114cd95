/**
 * What `scenaro eval` prints: the scenario names of a listing, and the summary of a run.
 */
import { resolve } from 'node:path';
import { builtInDomains } from '@scenaro/domains';
import type { EvaluationResult } from '@scenaro/eval';
import { defaultDataRoot } from './eval-flags.js';
import type { EvalFlags } from './eval-flags.js';

/** Print the scenario names of the selected domains (all of them by default). */
export async function listScenarios(flags: EvalFlags): Promise<void> {
  const domains = builtInDomains();
  const names = flags.domain && flags.domain.length > 0 ? flags.domain : [...domains.keys()].sort();
  for (const name of names) {
    const domain = domains.get(name);
    if (!domain)
      throw new Error(
        `unknown domain '${name}'. Known domains: ${[...domains.keys()].sort().join(', ')}`,
      );
    const scenarios = await domain.loadScenarios(resolve(flags.dataRoot ?? defaultDataRoot()));
    for (const scenario of scenarios) console.log(scenario.name);
  }
}

/** The lines that close a run: counts, success rate, and where the results are. */
export function evaluationSummary(result: EvaluationResult): string[] {
  const rate = result.aggregate.success.rate;
  const percent = (r: number | null) => (r === null ? 'n/a' : `${(r * 100).toFixed(1)}%`);
  const presets = (result.presets ?? []).map(
    (p) =>
      `${p.preset}: ${p.ran + p.resumed} scenarios (${p.ran} run, ${p.resumed} resumed); ` +
      `success rate ${percent(p.aggregate.success.rate)} of scored; ${p.wallSeconds.toFixed(0)} s`,
  );
  return [
    ...presets,
    `${result.metrics.length} scenarios (${result.ran} run, ${result.resumed} resumed); ` +
      `success rate ${rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`} of scored`,
    `results: ${result.runDir}`,
    `report:  ${resolve(result.filesDir, 'report.html')}`,
  ];
}

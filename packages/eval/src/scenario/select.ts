/**
 * Choosing what a run covers: domains, scenario names, shards and trials.
 */
import type { EvalDomain, Scenario } from '@scenaro/domains';

/** `k/n`: this machine runs the k-th of n shards (1-based). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Parse `--shard k/n`, or `--shard auto/n`: k is one more than `$JOB_COMPLETION_INDEX`, the
 * 0-based index Kubernetes gives each pod of an Indexed Job.
 */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): Shard {
  const auto = /^auto\/(\d+)$/.exec(text.trim());
  if (auto) {
    const given = env['JOB_COMPLETION_INDEX'];
    const count = Number(auto[1]);
    const index = given !== undefined && /^\d+$/.test(given) ? Number(given) + 1 : NaN;
    if (Number.isNaN(index))
      throw new Error(
        `--shard ${text} takes its index from $JOB_COMPLETION_INDEX (0-based, as a Kubernetes ` +
          `Indexed Job sets it), which is ${given === undefined ? 'not set' : `'${given}'`}`,
      );
    if (count < 1 || index > count)
      throw new Error(
        `--shard ${text}: $JOB_COMPLETION_INDEX ${given} is not below the shard count ${count}`,
      );
    return { index, count };
  }
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) {
    throw new Error(`--shard must look like k/n (1 <= k <= n) or auto/n, got '${text}'`);
  }
  return { index, count };
}

/**
 * The folder, inside the run folder, where shard `shard` keeps its run-level files
 * (`run_args.json`, `all_metrics.json`, the summaries and report): `shard-04-of-25`. The shards
 * of one run share its folder without writing the same file; `mergeRuns` joins them.
 */
export function shardFolder(shard: Shard): string {
  const width = String(shard.count).length;
  return `shard-${String(shard.index).padStart(width, '0')}-of-${shard.count}`;
}

/** One unit of work: a scenario and the trial number. */
export interface WorkItem {
  scenario: Scenario;
  domain: EvalDomain;
  trial: number;
  /** Result folder name: the scenario name, plus `__trial<k>` when running several trials. */
  key: string;
}

/** Load the scenarios of the named domains (every built-in domain when none is named). */
export async function loadScenarios(
  domains: Map<string, EvalDomain>,
  names: readonly string[] | undefined,
  dataRoot: string,
): Promise<{ scenario: Scenario; domain: EvalDomain }[]> {
  const chosen = names && names.length > 0 ? names : [...domains.keys()];
  const out: { scenario: Scenario; domain: EvalDomain }[] = [];
  for (const name of chosen) {
    const domain = domains.get(name);
    if (!domain) {
      throw new Error(
        `unknown domain '${name}'. Known domains: ${[...domains.keys()].sort().join(', ')}`,
      );
    }
    for (const scenario of await domain.loadScenarios(dataRoot)) out.push({ scenario, domain });
  }
  return out;
}

/** Filter by scenario names, expand trials, and keep this shard's share (stable by name). */
export function planWork(
  loaded: readonly { scenario: Scenario; domain: EvalDomain }[],
  options: { scenarios?: readonly string[]; trials?: number; shard?: Shard },
): WorkItem[] {
  let list = [...loaded].sort((a, b) =>
    a.scenario.name < b.scenario.name ? -1 : a.scenario.name > b.scenario.name ? 1 : 0,
  );
  if (options.scenarios && options.scenarios.length > 0) {
    const wanted = new Set(options.scenarios);
    const known = new Set(list.map((l) => l.scenario.name));
    const missing = [...wanted].filter((n) => !known.has(n));
    if (missing.length > 0) throw new Error(`unknown scenario(s): ${missing.join(', ')}`);
    list = list.filter((l) => wanted.has(l.scenario.name));
  }
  const trials = options.trials ?? 1;
  const items: WorkItem[] = [];
  for (const { scenario, domain } of list) {
    for (let trial = 1; trial <= trials; trial++) {
      items.push({
        scenario,
        domain,
        trial,
        key: trials > 1 ? `${scenario.name}__trial${trial}` : scenario.name,
      });
    }
  }
  if (!options.shard) return items;
  const { index, count } = options.shard;
  return items.filter((_, i) => i % count === index - 1);
}

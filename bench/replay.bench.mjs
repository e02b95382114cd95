// Benchmark: gold replay of every tau2 scenario (airline, retail, telecom and the telecom
// workflow variant) with replayDomain, one shared db cache; baseline measured in the same run:
// the naive per-scenario cost of a replay that copies whole dbs (a structuredClone of each db
// the scenario loads, plus getDictHash of it). replayDomain uses copy-on-touch table copies and
// reuses the canonical form of untouched tables (packages/eval/src/replay/lazy-db.ts), so on the
// big dbs it can beat this baseline.
//
//   npm run build && node bench/replay.bench.mjs [--clock tau2|reference]
//
// Prints the wall time per domain and in total, scenarios per second, the ratio to the baseline,
// and how many of the reference outcomes (reference_scenarios.json) the replay reproduces.
// `--clock reference` (default) runs telecom on the day the reference outcomes were produced;
// `--clock tau2` on tau2's own fixed date. Exits 1 when a reference hash is not reproduced under
// the reference clock, 0 when ../shared/eval-data is absent. Target (issue 9): all tau2 < 60 s.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  DbCache,
  DomainRegistry,
  getDictHash,
  registerControlTools,
} from '@scenaro/agent/scenario';
import {
  NEMO_REFERENCE_TODAY,
  TAU2_TELECOM_TODAY,
  createTau2TelecomDomains,
  registerEvalDomains,
  tau2Airline,
  tau2Retail,
} from '@scenaro/domains';
import { replayDomain } from '@scenaro/eval';
import {
  emitMeasured,
  evalDataRoot,
  printTable,
  ratio,
  skipWithoutEvalData,
  watchdog,
} from './lib/common.mjs';

watchdog('replay bench', 300);
skipWithoutEvalData('replay bench');
const dataRoot = evalDataRoot;
const clockArg = process.argv.indexOf('--clock');
const clock = clockArg >= 0 ? process.argv[clockArg + 1] : 'reference';
const today = clock === 'tau2' ? TAU2_TELECOM_TODAY : NEMO_REFERENCE_TODAY;

const telecom = createTau2TelecomDomains({ today });
const domains = [tau2Airline, tau2Retail, telecom.telecom, telecom.workflow];
const registry = registerControlTools(registerEvalDomains(new DomainRegistry(), domains));
const reference = JSON.parse(readFileSync(path.join(dataRoot, 'reference_scenarios.json'), 'utf8'));

const cache = new DbCache();
const rows = [];
let total = 0;
let compared = 0;
let reproduced = 0;
const start = performance.now();
for (const domain of domains) {
  const t0 = performance.now();
  const results = await replayDomain(domain, { registry, dataRoot, cache });
  const ms = performance.now() - t0;
  total += results.length;
  for (const r of results) {
    const ref = reference[r.scenario];
    if (!ref) continue;
    compared++;
    if (r.db_hash === ref.expected_db_hash && r.user_db_hash === ref.expected_user_db_hash)
      reproduced++;
  }
  rows.push({ domain: domain.name, scenarios: results.length, ms });
}
const wall = performance.now() - start;

// The naive baseline: per scenario, a fresh clone of each db the scenario loads, and its hash.
const baselineDbs = {
  tau2_airline: ['tau2_airline/db.json'],
  tau2_retail: ['tau2_retail/db.json'],
  tau2_telecom: ['tau2_telecom/db.json', 'tau2_telecom/user_db.json'],
  tau2_telecom_workflow: ['tau2_telecom/db.json', 'tau2_telecom/user_db.json'],
};
for (const row of rows) {
  const t0 = performance.now();
  for (let i = 0; i < row.scenarios; i++)
    for (const dbPath of baselineDbs[row.domain])
      getDictHash(await cache.loadClone(dataRoot, dbPath));
  row.clone_hash_ms = performance.now() - t0;
}
const cloneHashMs = rows.reduce((a, r) => a + r.clone_hash_ms, 0);

printTable(
  `gold replay of every tau2 scenario, telecom clock ${today} (${clock}), one shared db cache`,
  ['domain', 'scenarios', 'replay s', 'scenarios/s', 'clone+hash s', 'replay / clone+hash'],
  [
    ...rows.map((r) => [
      r.domain,
      r.scenarios,
      (r.ms / 1000).toFixed(2),
      ((r.scenarios * 1000) / r.ms).toFixed(1),
      (r.clone_hash_ms / 1000).toFixed(2),
      ratio(r.ms, r.clone_hash_ms),
    ]),
    [
      'total (wall, cold cache)',
      total,
      (wall / 1000).toFixed(2),
      ((total * 1000) / wall).toFixed(1),
      (cloneHashMs / 1000).toFixed(2),
      ratio(wall, cloneHashMs),
    ],
  ],
);
console.log(
  'clone+hash: per scenario, a structuredClone of each db it loads and its getDictHash (a naive replay pays at least this).',
);
console.log(`reference outcomes reproduced: ${reproduced}/${compared}`);
const met = wall < 60_000;
console.log(
  `target (issue 9): replay of all tau2 under 60 s: ${met ? 'MET' : 'NOT MET'} (${(wall / 1000).toFixed(1)} s)`,
);
emitMeasured({
  clock,
  today,
  rows,
  total,
  wall_ms: wall,
  clone_hash_ms: cloneHashMs,
  reproduced,
  compared,
  target: { seconds: 60, met },
});
process.exit(clock !== 'tau2' && reproduced !== compared ? 1 : 0);

// Benchmark: gold replay of every tau2 scenario (airline, retail, telecom and the telecom
// workflow variant) with replayDomain, one shared db cache.
//
//   npx tsc -b packages/domains packages/eval && node bench/replay.bench.mjs [--clock tau2|reference]
//
// Prints the wall time per domain and in total, scenarios per second, and how many of the
// reference outcomes (reference_scenarios.json) the replay reproduces. `--clock reference`
// (default) runs telecom on the day the reference outcomes were produced; `--clock tau2` on
// tau2's own fixed date. Exits 1 when a reference hash is not reproduced under the reference
// clock, 0 when ../shared/eval-data is absent.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DbCache, DomainRegistry, registerControlTools } from '@scenaro/agent';
import {
  NEMO_REFERENCE_TODAY,
  TAU2_TELECOM_TODAY,
  createTau2TelecomDomains,
  registerEvalDomains,
  tau2Airline,
  tau2Retail,
} from '@scenaro/domains';
import { replayDomain } from '@scenaro/eval';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataRoot = path.resolve(repoRoot, '../shared/eval-data');
if (!existsSync(path.join(dataRoot, 'reference_scenarios.json'))) {
  console.log(`replay bench skipped: no tau2 data root at ${dataRoot}`);
  process.exit(0);
}
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

console.log(`node ${process.version}, telecom clock ${today} (${clock})`);
for (const row of rows) {
  console.log(
    `${row.domain.padEnd(22)} ${String(row.scenarios).padStart(4)} scenarios  ${(row.ms / 1000).toFixed(2).padStart(6)} s  ` +
      `${((row.scenarios * 1000) / row.ms).toFixed(1).padStart(6)} scenarios/s`,
  );
}
console.log(
  `${'total'.padEnd(22)} ${String(total).padStart(4)} scenarios  ${(wall / 1000).toFixed(2).padStart(6)} s  ` +
    `${((total * 1000) / wall).toFixed(1).padStart(6)} scenarios/s (wall, cold cache)`,
);
console.log(`reference outcomes reproduced: ${reproduced}/${compared}`);
process.exit(clock !== 'tau2' && reproduced !== compared ? 1 : 0);

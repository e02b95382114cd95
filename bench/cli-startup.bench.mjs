// Benchmark: the `scenaro` command as a whole process, the way a user meets it.
//
//   npm run build && node bench/cli-startup.bench.mjs [runs]
//
// Times, in alternating order (A B A B ...) after one warm-up each, whole processes:
//   - `scenaro --help` against `node -e 0` (target: within 2.5x at the median);
//   - `scenaro hash` of the merged tau2 airline db against the Python reference algorithm
//     (`python3` + `json` + `hashlib`, bench/lib/python-db-hash.mjs) loading and hashing the same
//     db (target: no slower at the median). Both digests must be equal.
// Prints medians and the median of the pairwise ratios. Exits 1 when a digest differs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import {
  emitResult,
  evalDataRoot,
  machineInfo,
  median,
  positiveInt,
  printTable,
  repoRoot,
  watchdog,
} from './lib/common.mjs';
import { PYTHON_DB_HASH } from './lib/python-db-hash.mjs';

watchdog('cli-startup bench', 240);
const runs = positiveInt(process.argv[2], 9);
const cli = path.join(repoRoot, 'packages/cli/bin/scenaro.js');
const airline = path.join(evalDataRoot, 'tau2_airline/db');

const PYTHON_HASH_ONE = String.raw`${PYTHON_DB_HASH}
print(get_dict_hash(load(sys.argv[1], sys.argv[2])))
`;

/** Run a command once; wall milliseconds and its first stdout line. */
function timeOnce([command, ...args]) {
  const t0 = performance.now();
  const out = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  const ms = performance.now() - t0;
  if (out.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${out.status}: ${out.stderr}`);
  return { ms, line: out.stdout.split('\n')[0] };
}

/** A and B in turn, `runs` times each after a warm-up of each. */
function pair(a, b) {
  timeOnce(a);
  timeOnce(b);
  const as = [];
  const bs = [];
  const ratios = [];
  let lines = [];
  for (let i = 0; i < runs; i++) {
    const ra = timeOnce(a);
    const rb = timeOnce(b);
    as.push(ra.ms);
    bs.push(rb.ms);
    ratios.push(ra.ms / rb.ms);
    lines = [ra.line, rb.line];
  }
  return { a: median(as), b: median(bs), ratio: median(ratios), lines };
}

function main() {
  if (!existsSync(path.join(repoRoot, 'packages/cli/dist/bin.js'))) {
    console.error('cli-startup bench: packages/cli/dist is missing: run `npm run build` first.');
    return 1;
  }
  const rows = [];
  const help = pair([process.execPath, cli, '--help'], [process.execPath, '-e', '0']);
  rows.push(['scenaro --help', 'node -e 0', help.a, help.b, help.ratio, '<= 2.5x']);
  let hash;
  if (existsSync(airline)) {
    hash = pair(
      [process.execPath, cli, 'hash', airline],
      ['python3', '-c', PYTHON_HASH_ONE, evalDataRoot, 'tau2_airline/db'],
    );
    rows.push(['scenaro hash (airline)', 'python3 reference', hash.a, hash.b, hash.ratio, '<= 1x']);
    if (hash.lines[0] !== hash.lines[1]) {
      console.error(`digests differ: scenaro ${hash.lines[0]}, python ${hash.lines[1]}`);
      return 1;
    }
  } else {
    console.log(`(no tau2 data at ${evalDataRoot}: the hash row is left out)`);
  }
  printTable(
    `cli-startup bench: whole processes, ${runs} runs each, alternating`,
    [
      'command',
      'baseline',
      'ms (median)',
      'baseline ms (median)',
      'ratio (median of pairs)',
      'target',
    ],
    rows.map(([c, b, a, base, r, t]) => [
      c,
      b,
      a.toFixed(1),
      base.toFixed(1),
      `${r.toFixed(2)}x`,
      t,
    ]),
  );
  emitResult({
    machine: machineInfo(),
    runs,
    help: { ms: help.a, node_ms: help.b, ratio: help.ratio },
    ...(hash
      ? { hash: { ms: hash.a, python_ms: hash.b, ratio: hash.ratio, digest: hash.lines[0] } }
      : {}),
  });
  return 0;
}

process.exitCode = main();

// Benchmark: NeMo/EVA get_dict_hash, TypeScript port vs the Python reference algorithm.
//
//   npm run build && node bench/db-hash.bench.mjs [iterations]
//
// Both sides load and parse each db once, warm up, then time only the hash function over N
// iterations (median reported): Python's interpreter startup and the JSON parsing are outside
// the timed region on both sides. A last column shows what a session pays for `db_hash` when
// the db has not changed since its last summary (the hash is reused). Exits 1 if any digest differs, 0 if ../shared/eval-data is
// absent.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  createScenarioState,
  getDictHash,
  loadDbArtifact,
  sessionDbHash,
} from '@scenaro/agent/scenario';
import {
  emitMeasured,
  emitResult,
  evalDataRoot,
  median,
  printTable,
  watchdog,
} from './lib/common.mjs';
import { PYTHON_DB_HASH } from './lib/python-db-hash.mjs';

watchdog('db-hash bench', 300);
const evalData = evalDataRoot;
const iterations = Number(process.argv[2] ?? 20);
const warmup = 5;

const DBS = [
  ['tau2_airline (dir merge)', 'tau2_airline/db.json'],
  ['tau2_retail', 'tau2_retail/db.json'],
  ['tau2_telecom db', 'tau2_telecom/db.json'],
  ['tau2_telecom user_db', 'tau2_telecom/user_db.json'],
];

// The Python reference (bench/lib/python-db-hash.mjs). It receives the same db_path list on
// stdin, resolves them like load_db_artifact, and prints one JSON line per db: digest and median ms.
const PYTHON_REFERENCE = String.raw`${PYTHON_DB_HASH}
req = json.load(sys.stdin)
for db_path in req["dbs"]:
    db = load(req["root"], db_path)           # parsing is not timed
    for _ in range(req["warmup"]):
        get_dict_hash(db)
    times = []
    for _ in range(req["iterations"]):
        t0 = time.perf_counter()
        digest = get_dict_hash(db)
        times.append((time.perf_counter() - t0) * 1000)
    print(json.dumps({"db": db_path, "hash": digest, "ms": statistics.median(times)}), flush=True)
`;

async function main() {
  if (!existsSync(evalData)) {
    console.log(`db-hash bench: ${evalData} not found; nothing to benchmark.`);
    emitResult({ skipped: `no tau2 data at ${evalData}` });
    return 0;
  }

  const ts = new Map();
  for (const [, dbPath] of DBS) {
    const db = await loadDbArtifact(evalData, dbPath); // parsing is not timed
    for (let i = 0; i < warmup; i++) getDictHash(db);
    const times = [];
    let digest = '';
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      digest = getDictHash(db);
      times.push(performance.now() - t0);
    }
    // A session holding this db, asked for its hash again and again with no change in between.
    const state = createScenarioState();
    state.db = db;
    if (sessionDbHash(state) !== digest) throw new Error(`session hash differs for ${dbPath}`);
    const reuse = [];
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      sessionDbHash(state);
      reuse.push((performance.now() - t0) * 1000);
    }
    ts.set(dbPath, { hash: digest, ms: median(times), reuseUs: median(reuse) });
  }

  const pyVersion = spawnSync('python3', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const py = spawnSync('python3', ['-c', PYTHON_REFERENCE], {
    input: JSON.stringify({ root: evalData, dbs: DBS.map(([, p]) => p), warmup, iterations }),
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (py.status !== 0) {
    console.error(`db-hash bench: python3 failed (${py.error?.message ?? `exit ${py.status}`})`);
    console.error(py.stderr);
    return 1;
  }
  const pyResults = new Map(
    py.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((r) => [r.db, r]),
  );

  const rows = DBS.map(([label, dbPath]) => {
    const t = ts.get(dbPath);
    const p = pyResults.get(dbPath);
    return {
      db: label,
      'ts ms (median)': t.ms.toFixed(2),
      'python ms (median)': p ? p.ms.toFixed(2) : 'n/a',
      'ratio python/ts': p ? (p.ms / t.ms).toFixed(2) : 'n/a',
      'hashes equal': p !== undefined && p.hash === t.hash,
      sha256: t.hash.slice(0, 16) + '…',
      'session, unchanged db µs': t.reuseUs.toFixed(1),
    };
  });
  printTable(
    `db-hash bench: getDictHash (TypeScript) vs the Python reference algorithm (${pyVersion}), ` +
      `${iterations} iterations after ${warmup} warm-up, median`,
    Object.keys(rows[0]),
    rows.map((r) => Object.values(r).map(String)),
  );
  const met = rows.every(
    (r) => r['ratio python/ts'] !== 'n/a' && Number(r['ratio python/ts']) >= 1,
  );
  console.log(
    `target (issue 3): getDictHash no slower than the Python reference: ${met ? 'MET' : 'NOT MET'} ` +
      `(python/ts ${rows.map((r) => r['ratio python/ts']).join(', ')})`,
  );
  emitMeasured({
    python: pyVersion,
    iterations,
    rows: DBS.map(([label, dbPath]) => ({
      db: label,
      path: dbPath,
      ts_ms: ts.get(dbPath).ms,
      python_ms: pyResults.get(dbPath)?.ms ?? null,
      equal: pyResults.get(dbPath)?.hash === ts.get(dbPath).hash,
    })),
    target: { met },
  });
  const mismatched = rows.filter((r) => !r['hashes equal']);
  if (mismatched.length > 0) {
    console.error(`db-hash bench: digest mismatch for ${mismatched.map((r) => r.db).join(', ')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();

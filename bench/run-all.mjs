// Runs every benchmark in sequence, each in its own Node process (own heap and JIT, no
// interference), and writes bench/results/latest.json (gitignored): the machine, and per bench
// the command, start time, duration, exit code, load average before and after, its printed
// output and the numbers it handed over (BENCH_RESULT_FILE).
//
//   npm run build && npm run bench            (or: node bench/run-all.mjs [name...])
//
// Bounded: each bench has its own watchdog and a hard timeout here. Loopback only.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { machineInfo, repoRoot } from './lib/common.mjs';

const BENCHES = [
  { name: 'frames', file: 'frames.bench.mjs', timeoutS: 150 },
  { name: 'db-hash', file: 'db-hash.bench.mjs', timeoutS: 300 },
  { name: 'control-plane', file: 'control-plane.bench.mjs', timeoutS: 260 },
  { name: 'frontend-tool', file: 'frontend-tool.bench.mjs', timeoutS: 200 },
  { name: 'replay', file: 'replay.bench.mjs', timeoutS: 320 },
  { name: 'eval-throughput', file: 'eval-throughput.bench.mjs', timeoutS: 950 },
  { name: 'eval-audio', file: 'eval-audio.bench.mjs', timeoutS: 2500 },
  {
    name: 'eval-audio-clocks',
    file: 'eval-audio-clocks.bench.mjs',
    args: ['--undithered'],
    timeoutS: 1500,
  },
  { name: 'fuzz-soak', file: 'fuzz-soak.bench.mjs', timeoutS: 320 },
  { name: 'voice-fuzz', file: 'voice-fuzz.bench.mjs', timeoutS: 440 },
  { name: 'cli-startup', file: 'cli-startup.bench.mjs', timeoutS: 240 },
  { name: 'voice', file: 'voice.bench.mjs', timeoutS: 540 },
  { name: 'voice-capacity', file: 'voice.bench.mjs', args: ['--part', 'capacity'], timeoutS: 620 },
];

for (const built of ['sdk', 'agent', 'domains', 'eval', 'cli']) {
  if (!existsSync(path.join(repoRoot, `packages/${built}/dist/index.js`))) {
    console.error(`packages/${built}/dist is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
}
const only = process.argv.slice(2);
const selected = only.length > 0 ? BENCHES.filter((b) => only.includes(b.name)) : BENCHES;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'scenaro-bench-results-'));
const load = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

function runBench(bench) {
  const resultFile = path.join(scratch, `${bench.name}.json`);
  const args = [path.join('bench', bench.file), ...(bench.args ?? [])];
  return new Promise((resolve) => {
    const started = new Date();
    const t0 = performance.now();
    const loadBefore = load();
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      env: { ...process.env, BENCH_RESULT_FILE: resultFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const tee = (stream, target) =>
      stream.on('data', (chunk) => {
        output += chunk;
        target.write(chunk);
      });
    tee(child.stdout, process.stdout);
    tee(child.stderr, process.stderr);
    const timer = setTimeout(() => {
      output += `\n[run-all] ${bench.name} killed after ${bench.timeoutS} s\n`;
      child.kill('SIGKILL');
    }, bench.timeoutS * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      let result = null;
      if (existsSync(resultFile)) result = JSON.parse(readFileSync(resultFile, 'utf8'));
      resolve({
        name: bench.name,
        command: `node ${args.join(' ')}`,
        started_at: started.toISOString(),
        seconds: Math.round((performance.now() - t0) / 100) / 10,
        exit_code: code,
        signal,
        loadavg_before: loadBefore,
        loadavg_after: load(),
        result,
        output,
      });
    });
  });
}

const report = {
  generated_at: new Date().toISOString(),
  command: 'npm run bench',
  machine: machineInfo(),
  benches: [],
};
for (const bench of selected) {
  console.log(`\n=== ${bench.name} (node bench/${bench.file}) ===`);
  report.benches.push(await runBench(bench));
}
rmSync(scratch, { recursive: true, force: true });
report.machine.loadavg_end = load();

const outDir = path.join(repoRoot, 'bench/results');
mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, 'latest.json');
writeFileSync(outFile, `${JSON.stringify(report, null, 2)}\n`);

console.log('\n=== summary ===');
for (const b of report.benches) {
  console.log(
    `${b.name.padEnd(16)} exit ${String(b.exit_code ?? b.signal).padEnd(7)} ${String(b.seconds).padStart(6)} s  load ${b.loadavg_before[0]} -> ${b.loadavg_after[0]}`,
  );
}
console.log(`results: ${path.relative(process.cwd(), outFile)}`);
process.exit(report.benches.every((b) => b.exit_code === 0) ? 0 : 1);

// Shared helpers of the benchmarks: paths, statistics, table printing, machine facts, a
// watchdog, and the result hand-off to bench/run-all.mjs (BENCH_RESULT_FILE). Benchmarks import
// the built packages by name (`@scenaro/agent`, `@scenaro/sdk/protocol`, ...): `npm run build`
// first.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The tau2 data root (read-only reference data beside the repository). */
export const evalDataRoot = path.resolve(repoRoot, '../shared/eval-data');
export const hasEvalData = existsSync(path.join(evalDataRoot, 'reference_scenarios.json'));

/** The `q` quantile of an ascending array (nearest rank). */
export function percentile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Print the bench's title, the machine it ran on, then a Markdown table (numbers right-aligned),
 * ready to paste into BENCHMARKS.md.
 */
export function printTable(title, header, rows) {
  console.log(`${title}\n${machineLine()}`);
  const cells = rows.map((row) => row.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((c, i) => c.padStart(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 1) + ':').join('|')}|`);
  for (const row of cells) console.log(line(row));
}

/** `x.xx` ratio with a trailing `x`. */
export const ratio = (a, b) => `${(a / b).toFixed(2)}x`;

/** CPU model, cores, memory, Node version and load average of this machine. */
export function machineInfo() {
  let model = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) model = line.split(':')[1].trim();
  } catch {
    // not Linux
  }
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: model,
    ram_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

/** One line describing the machine, printed at the top of each bench. */
export function machineLine() {
  const m = machineInfo();
  return `${m.cpu}, ${m.nproc} cores, ${m.ram_gib} GiB, node ${m.node} ${m.platform}, load ${m.loadavg.join(' ')}`;
}

/** Exit with code 2 if the bench is still running after `seconds` (it must stop by itself). */
export function watchdog(name, seconds) {
  const timer = setTimeout(() => {
    console.error(`${name}: gave up after ${seconds} s`);
    process.exit(2);
  }, seconds * 1000);
  timer.unref();
  return timer;
}

/** Hand the bench's numbers to run-all (written to BENCH_RESULT_FILE when it is set). */
export function emitResult(result) {
  const file = process.env.BENCH_RESULT_FILE;
  if (file) writeFileSync(file, JSON.stringify(result, null, 2));
}

/** Hand the bench's numbers to run-all, with the machine they were measured on. */
export function emitMeasured(result) {
  emitResult({ machine: machineInfo(), ...result });
}

/** Without the tau2 data beside the repository: say so, hand run-all a skip and exit 0. */
export function skipWithoutEvalData(bench) {
  if (hasEvalData) return;
  console.log(`${bench} skipped: no tau2 data at ${evalDataRoot}`);
  emitResult({ skipped: `no tau2 data at ${evalDataRoot}` });
  process.exit(0);
}

/** Positive integer from argv or the fallback; exits on anything else. */
export function positiveInt(text, fallback) {
  const n = Number(text ?? fallback);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`expected a positive integer, got ${text}`);
    process.exit(1);
  }
  return n;
}

/**
 * Talk to a child process that answers each stdin line with one JSON line on stdout. The result
 * is `ask(line)`: it writes `line` (with no line, it only waits) and resolves with the next reply;
 * it throws once `died()` gives the reason the child died.
 */
export function jsonLineChannel(child, died) {
  const replies = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    let at;
    while ((at = buffered.indexOf('\n')) >= 0) {
      replies.push(JSON.parse(buffered.slice(0, at)));
      buffered = buffered.slice(at + 1);
    }
  });
  return async function ask(line) {
    const seen = replies.length;
    if (line) child.stdin.write(`${line}\n`);
    while (replies.length === seen) {
      const reason = died();
      if (reason !== undefined) throw new Error(`the server process died (${reason})`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return replies[seen];
  };
}

/**
 * The arguments `[--scenarios N] [level...]`: the scenario count (`defaultCount` without the
 * flag) and the levels given, as text.
 */
export function scenarioArgs(args, defaultCount) {
  const at = args.indexOf('--scenarios');
  const count = at >= 0 ? positiveInt(args[at + 1]) : defaultCount;
  const levels = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--scenarios');
  return { count, levels };
}

#!/usr/bin/env node
// Captures what the product does, for comparing a refactor's before and after:
// every suite's gold replay (db hashes), a text evaluation of every suite, and a
// fast-clock audio evaluation of five airline scenarios. Times, ids and temp paths
// are normalised away so two snapshots of unchanged behaviour are byte-identical.
//
//   node scripts/behaviour-snapshot.mjs <out-dir>        # write a snapshot
//   diff -r <out-a>/normal <out-b>/normal               # compare two
//
// Needs the data root ($EVAL_DATA_ROOT, default ../shared/eval-data).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? 'behaviour-snapshot');
const dataRoot = resolve(process.env.EVAL_DATA_ROOT ?? '../shared/eval-data');
const cli = resolve('packages/cli/dist/bin.js');
const env = { ...process.env, EVAL_DATA_ROOT: dataRoot };
const domains = [
  'commerce',
  'tau2_airline',
  'tau2_retail',
  'tau2_telecom',
  'tau2_telecom_workflow',
  'eva_airline',
  'restaurant',
  'fastbite',
  'customer_service',
  'qa',
  'simple_qa',
];

const raw = join(out, 'raw');
const normaliseOnly = process.argv.includes('--normalise-only');
const run = (args) =>
  execFileSync(process.execPath, [cli, ...args], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
if (!normaliseOnly) capture();

function capture() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(raw, { recursive: true });
  for (const domain of domains) {
    if (domain !== 'commerce') {
      process.stderr.write(`replay ${domain}\n`);
      writeFileSync(
        join(raw, `replay-${domain}.jsonl`),
        run(['replay', '--domain', domain, '--json', '--data-root', dataRoot]),
      );
    }
    process.stderr.write(`eval text ${domain}\n`);
    run([
      'eval',
      '--domain',
      domain,
      '--data-root',
      dataRoot,
      '--output-dir',
      join(raw, 'text'),
      '--run-id',
      domain,
      '--concurrency',
      '2',
    ]);
  }
  process.stderr.write('eval audio tau2_airline (5, fast clock)\n');
  const five = Array.from({ length: 5 }, (_, i) => `tau2_airline__${i}`).join(',');
  run([
    'eval',
    '--domain',
    'tau2_airline',
    '--scenarios',
    five,
    '--mode',
    'audio',
    '--audio-clock',
    'fast',
    '--data-root',
    dataRoot,
    '--output-dir',
    join(raw, 'audio'),
    '--run-id',
    'airline5',
    '--concurrency',
    '2',
  ]);
}

// Keys whose values are times, ids or paths of this run.
const volatile =
  /(^|_)(time|times|at|ms|seconds|start|end|started|ended|elapsed|duration|latency|latencies|argv|path|dir|id|pid|wall|tokens)(_|$)|Dir$|Ms$|At$|^startedAt$/i;
function normaliseJson(value) {
  if (Array.isArray(value)) return value.map(normaliseJson);
  if (value && typeof value === 'object') {
    const result = {};
    for (const [key, inner] of Object.entries(value))
      result[key] = volatile.test(key) ? '<v>' : normaliseJson(inner);
    return result;
  }
  return typeof value === 'string' ? normaliseText(value) : value;
}
function normaliseText(text) {
  return (
    text
      .replaceAll(raw, '<out>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<ts>')
      .replace(/_\d{10,}_\d+/g, '_<id>')
      // Tool-call ids count across the scenarios a process runs at once.
      .replace(/call_scripted_\d+/g, 'call_scripted_<n>')
      // Token counts follow the length of those ids.
      .replace(/(prompt|completion|total)=[\d,]+/g, '$1=<n>')
      .replace(/Run total: [\d,]+ tokens/g, 'Run total: <n> tokens')
      .replace(/"(prompt|completion|total)_tokens":\d+/g, '"$1_tokens":<n>')
      .replace(/\d+\.\d+/g, '<n>')
      .replace(/\/tmp\/[^\s"']+/g, '<tmp>')
  );
}
const normal = join(out, 'normal');
rmSync(normal, { recursive: true, force: true });
function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      walk(path);
      continue;
    }
    const target = join(normal, relative(raw, path));
    mkdirSync(dirname(target), { recursive: true });
    if (/\.(wav)$/.test(name)) {
      writeFileSync(target, `${statSync(path).size} bytes\n`);
      continue;
    }
    const text = readFileSync(path, 'utf8');
    // The report's charts and cards carry the run's timings.
    if (name.endsWith('.html')) {
      writeFileSync(
        target,
        normaliseText(text)
          .replace(/<svg[\s\S]*?<\/svg>/g, '<svg/>')
          .replace(/\d+/g, '<d>'),
      );
      continue;
    }
    if (name.endsWith('.json')) {
      try {
        writeFileSync(target, JSON.stringify(normaliseJson(JSON.parse(text)), null, 1));
        continue;
      } catch {
        /* fall through */
      }
    }
    if (name.endsWith('.jsonl')) {
      writeFileSync(
        target,
        text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.stringify(normaliseJson(JSON.parse(l))))
          .join('\n'),
      );
      continue;
    }
    writeFileSync(target, normaliseText(text));
  }
}
walk(raw);
process.stderr.write(`snapshot: ${normal}\n`);

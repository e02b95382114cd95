/**
 * `scenaro eval compare <run-a> <run-b>`: pair two runs' scenarios and say whether B moved beyond
 * noise (terminal table, `--json`, compare.html, `--junit`), and fail CI on a regression with
 * `--fail-on-regression`.
 */
import { basename, join, resolve } from 'node:path';
import { Command } from 'commander';
import { GateFailure, writeReportFile } from '../gates.js';
import { parseInteger } from '../flags.js';

interface CompareFlags {
  json?: boolean;
  html?: string;
  junit?: string;
  failOnRegression?: boolean;
  seed: string;
}

export function compareCommand(): Command {
  return new Command('compare')
    .description(
      'Compare two run folders scenario by scenario: flips, pass-rate difference with its paired ' +
        'interval (exact McNemar, seeded bootstrap), metric deltas, and the noise floor of repeated trials.',
    )
    .argument('<run-a>', 'the baseline run folder')
    .argument('<run-b>', 'the run compared with it')
    .option('--json', 'print the comparison as JSON instead of a table')
    .option('--html <file>', 'where compare.html goes (default: compare-<run-a>.html in run B)')
    .option('--junit <file>', 'write JUnit XML: one test case per scenario, a broken one fails')
    .option('--fail-on-regression', 'exit 1 when B is worse than A beyond noise')
    .option('--seed <n>', 'seed of the bootstrap', '1')
    .action(async (runA: string, runB: string, flags: CompareFlags) => {
      const { compareRuns, comparisonLines, compareJunit, loadRun, renderComparison, verdictText } =
        await import('@scenaro/eval');
      const [a, b] = await Promise.all([loadRun(resolve(runA)), loadRun(resolve(runB))]);
      const comparison = compareRuns(a, b, { seed: parseInteger(flags.seed, '--seed', 0) });
      const html = await writeReportFile(
        flags.html ?? join(b.dir, `compare-${basename(a.dir)}.html`),
        renderComparison(comparison),
      );
      if (flags.json) console.log(JSON.stringify(comparison, null, 2));
      else for (const line of comparisonLines(comparison)) console.log(line);
      if (flags.junit) {
        const file = await writeReportFile(flags.junit, compareJunit(comparison));
        if (!flags.json) console.log(`junit:   ${file}`);
      }
      if (!flags.json) console.log(`report:  ${html}`);
      if (flags.failOnRegression && comparison.verdict === 'regressed')
        throw new GateFailure(`--fail-on-regression: ${verdictText(comparison.verdict)}`);
    });
}

/**
 * `scenaro replay --domain D [--scenario NAME ...] --data-root DIR [--json]`:
 * gold-replay a domain's scenarios with its own tools and print each
 * scenario's db hashes and errors.
 */
import { Command, Option } from 'commander';
import { NEMO_REFERENCE_TODAY, TAU2_TELECOM_TODAY } from '@scenaro/domains/clock';
import type { ReplayRunOptions } from '../replay-run.js';

/** The `replay` command. */
export function replayCommand(): Command {
  return new Command('replay')
    .description(
      "Replay a domain's gold actions with its own tools and print each scenario's db hashes and errors.",
    )
    .requiredOption(
      '--domain <name>',
      'domain (scenario-name prefix), e.g. tau2_airline, tau2_telecom_workflow or eva_airline',
    )
    .option('--scenario <name...>', 'replay only these scenarios (repeatable)')
    .addOption(
      new Option(
        '--data-root <dir>',
        'data root the tau2 and NeMo suite files and db_paths resolve in',
      )
        .env('EVAL_DATA_ROOT')
        .default('./data'),
    )
    .option(
      '--json',
      'print one JSON line per scenario: {"scenario", "db_hash", "user_db_hash", "errors"}',
    )
    .option(
      '--today <date>',
      `telecom clock, YYYY-MM-DD (default tau2's ${TAU2_TELECOM_TODAY}; the published reference ` +
        `outcomes were produced on ${NEMO_REFERENCE_TODAY})`,
    )
    .action(
      async (opts: {
        domain: string;
        scenario?: string[];
        dataRoot: string;
        json?: boolean;
        today?: string;
      }) => {
        const run: ReplayRunOptions = { domain: opts.domain, dataRoot: opts.dataRoot };
        if (opts.scenario) run.scenarios = opts.scenario;
        if (opts.json) run.json = true;
        if (opts.today !== undefined) run.today = opts.today;
        const { runReplay } = await import('../replay-run.js');
        const results = await runReplay(run, (line) => console.log(line));
        if (results.some((r) => r.errors.length > 0)) process.exitCode = 1;
      },
    );
}

/**
 * `scenaro eval`: run scenarios through an agent bot and a user-simulator bot
 * (started locally on free ports unless --agent-url/--user-url are given),
 * score them, and write result files and an HTML report.
 * `scenaro eval merge DIR...`: combine result folders of sharded runs.
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { builtInDomains } from '@scenaro/domains';
import { mergeRuns, parseShard, runEvaluation } from '@scenaro/eval';
import type { EvaluationOptions } from '@scenaro/eval';

interface EvalFlags {
  domain?: string[];
  scenarios?: string[];
  list?: boolean;
  outputDir: string;
  dataRoot?: string;
  duration?: string;
  maxTurns?: string;
  concurrency: string;
  trials: string;
  resume?: string;
  runId?: string;
  shard?: string;
  agentUrl?: string;
  userUrl?: string;
  token?: string;
  agentLlmBaseUrl?: string;
  agentLlmModel?: string;
  userLlmBaseUrl?: string;
  userLlmModel?: string;
  llmApiKeyEnv?: string;
  judgeUrl?: string;
  judgeModel?: string;
  judgeApiKeyEnv?: string;
  judgeThreshold: string;
  scorer: 'nemo' | 'tau2';
  faultyAgent?: 'drop-last-action';
  retries: string;
  minAgentTurns: string;
}

/** The default data root: `$EVAL_DATA_ROOT`, else `./data`. */
export function defaultDataRoot(): string {
  return process.env['EVAL_DATA_ROOT'] ?? './data';
}

function integer(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be an integer >= ${min}, got '${value}'`);
  return n;
}

/**
 * Turn parsed flags into runner options. `given(flag)` says whether a flag was on the
 * command line: a resumed run keeps its own arguments, so defaults are not applied to it.
 */
export function evaluationOptions(
  flags: EvalFlags,
  argv: string[] = process.argv,
  given: (flag: keyof EvalFlags) => boolean = () => true,
): EvaluationOptions {
  const resuming = flags.resume !== undefined;
  const wanted = (flag: keyof EvalFlags) => !resuming || given(flag);
  const options: EvaluationOptions = {
    outputDir: resolve(flags.outputDir),
    concurrency: integer('--concurrency', flags.concurrency, 1),
    retries: integer('--retries', flags.retries, 0),
    argv,
  };
  if (wanted('dataRoot')) options.dataRoot = resolve(flags.dataRoot ?? defaultDataRoot());
  if (wanted('trials')) options.trials = integer('--trials', flags.trials, 1);
  if (wanted('minAgentTurns'))
    options.minAgentTurns = integer('--min-agent-turns', flags.minAgentTurns, 0);
  if (wanted('scorer')) options.scorer = flags.scorer;
  if (wanted('domain'))
    options.domains = flags.domain && flags.domain.length > 0 ? flags.domain : ['commerce'];
  if (flags.scenarios) options.scenarios = flags.scenarios;
  if (flags.duration) options.durationSeconds = integer('--duration', flags.duration, 1);
  if (flags.maxTurns) options.maxTurns = integer('--max-turns', flags.maxTurns, 1);
  if (flags.resume) options.resume = flags.resume;
  if (flags.runId) options.runId = flags.runId;
  if (flags.shard) options.shard = parseShard(flags.shard);
  if (flags.agentUrl || flags.userUrl) {
    if (!flags.agentUrl || !flags.userUrl)
      throw new Error('--agent-url and --user-url go together');
    options.agentUrl = flags.agentUrl;
    options.userUrl = flags.userUrl;
  }
  if (flags.token) options.token = flags.token;
  const apiKeyEnv = flags.llmApiKeyEnv ? { apiKeyEnv: flags.llmApiKeyEnv } : {};
  if (flags.agentLlmBaseUrl) {
    if (!flags.agentLlmModel) throw new Error('--agent-llm-base-url needs --agent-llm-model');
    options.agentLlm = { baseURL: flags.agentLlmBaseUrl, model: flags.agentLlmModel, ...apiKeyEnv };
  }
  if (flags.userLlmBaseUrl) {
    if (!flags.userLlmModel) throw new Error('--user-llm-base-url needs --user-llm-model');
    options.userLlm = { baseURL: flags.userLlmBaseUrl, model: flags.userLlmModel, ...apiKeyEnv };
  }
  if (flags.judgeUrl) {
    if (!flags.judgeModel) throw new Error('--judge-url needs --judge-model');
    options.judge = {
      baseURL: flags.judgeUrl,
      model: flags.judgeModel,
      threshold: Number(flags.judgeThreshold),
      ...(flags.judgeApiKeyEnv ? { apiKeyEnv: flags.judgeApiKeyEnv } : {}),
    };
  }
  if (flags.faultyAgent) options.faults = [flags.faultyAgent];
  return options;
}

async function listScenarios(flags: EvalFlags): Promise<void> {
  const domains = builtInDomains();
  const names = flags.domain && flags.domain.length > 0 ? flags.domain : [...domains.keys()].sort();
  for (const name of names) {
    const domain = domains.get(name);
    if (!domain)
      throw new Error(
        `unknown domain '${name}'. Known domains: ${[...domains.keys()].sort().join(', ')}`,
      );
    const scenarios = await domain.loadScenarios(resolve(flags.dataRoot ?? defaultDataRoot()));
    for (const scenario of scenarios) console.log(scenario.name);
  }
}

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value.split(',').filter(Boolean),
];

export function evalCommand(): Command {
  const command = new Command('eval')
    .description(
      'Run scenarios through an agent bot and a user-simulator bot, score them, and write result files and report.html.\n' +
        'Without --agent-url/--user-url both bots start locally with the scripted policies (the offline default).',
    )
    .option('--domain <name>', 'domain to run, repeatable (default: commerce)', collect)
    .option('--scenarios <names>', 'only these scenarios (comma-separated, repeatable)', collect)
    .option('--list', 'list the scenario names and exit')
    .option('--output-dir <dir>', 'where run folders go', './eval-results')
    .option('--data-root <dir>', 'tau2 data root (default: $EVAL_DATA_ROOT or ./data)')
    .option('--duration <seconds>', "override every scenario's time limit")
    .option('--max-turns <n>', 'turn limit per side (default 30)')
    .option('--concurrency <n>', 'scenarios at once', '4')
    .option('--trials <k>', 'runs per scenario; pass^k is reported when k > 1', '1')
    .option(
      '--resume <run-id>',
      'finish an interrupted run (a folder in --output-dir) with the arguments it was started with',
    )
    .option('--run-id <name>', 'name of the run folder (default: a timestamp)')
    .option('--shard <k/n>', 'run only the k-th of n shards (merge them with `scenaro eval merge`)')
    .option('--agent-url <url>', 'use a running agent bot')
    .option('--user-url <url>', 'use a running user-simulator bot')
    .option('--token <token>', 'token for the bots')
    .option('--agent-llm-base-url <url>', 'OpenAI-compatible endpoint for the local agent bot')
    .option('--agent-llm-model <name>', 'model for the local agent bot')
    .option('--user-llm-base-url <url>', 'OpenAI-compatible endpoint for the local user bot')
    .option('--user-llm-model <name>', 'model for the local user bot')
    .option('--llm-api-key-env <name>', 'environment variable holding the LLM API key')
    .option('--judge-url <url>', 'OpenAI-compatible endpoint of the judge (off unless set)')
    .option('--judge-model <name>', 'judge model')
    .option('--judge-api-key-env <name>', 'environment variable holding the judge API key')
    .option('--judge-threshold <x>', 'judge score needed to pass', '0.9')
    .addOption(
      new Option('--scorer <name>', 'scoring rules').choices(['nemo', 'tau2']).default('nemo'),
    )
    .addOption(
      new Option(
        '--faulty-agent <fault>',
        'inject a fault into the scripted agent (for testing the scorer)',
      ).choices(['drop-last-action']),
    )
    .option('--retries <n>', 'retries of a scenario that failed for infrastructure reasons', '2')
    .option('--min-agent-turns <n>', 'stall rule: fewer agent model calls fail the scenario', '3')
    .action(async (flags: EvalFlags, self: Command) => {
      if (flags.list) {
        await listScenarios(flags);
        return;
      }
      const given = (flag: keyof EvalFlags) => self.getOptionValueSource(flag) === 'cli';
      const result = await runEvaluation(evaluationOptions(flags, process.argv, given));
      const rate = result.aggregate.success.rate;
      console.log(
        `${result.metrics.length} scenarios (${result.ran} run, ${result.resumed} resumed); ` +
          `success rate ${rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`} of scored`,
      );
      console.log(`results: ${result.runDir}`);
      console.log(`report:  ${resolve(result.runDir, 'report.html')}`);
    });
  command
    .command('merge')
    .description(
      'Merge result folders of several runs (e.g. shards) into one run folder with fresh summaries.',
    )
    .argument('<dirs...>', 'run folders to merge')
    .requiredOption('--into <dir>', 'the merged run folder to create')
    .action(async (dirs: string[], flags: { into: string }) => {
      const merged = await mergeRuns(
        dirs.map((d) => resolve(d)),
        resolve(flags.into),
      );
      console.log(`merged ${merged.scenarios} scenarios into ${merged.runDir}`);
    });
  return command;
}

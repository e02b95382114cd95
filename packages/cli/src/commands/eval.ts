/**
 * `scenaro eval`: run scenarios through an agent bot and a user-simulator bot
 * (started locally on free ports unless --agent-url/--user-url are given),
 * score them, and write result files and an HTML report.
 * `scenaro eval merge DIR...`: combine result folders of sharded runs.
 * `scenaro eval compare A B`: compare two runs (see ./eval-compare.ts).
 */
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import type { EvalFlags } from '../eval-flags.js';
import { checkFailUnder, parseRate, writeReportFile } from '../gates.js';
import { compareCommand } from './eval-compare.js';
import { addVoiceOptions } from '../voice-flags.js';

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value.split(',').filter(Boolean),
];

export function evalCommand(): Command {
  const command = new Command('eval')
    // Options after `compare` or `merge` are theirs (`--junit` is both eval's and compare's).
    .enablePositionalOptions()
    .description(
      'Run scenarios through an agent bot and a user-simulator bot, score them, and write result files and report.html.\n' +
        'Without --agent-url/--user-url both bots start locally with the scripted policies (the offline default).',
    )
    .option(
      '--domain <name>',
      'domain to run, repeatable (default: commerce); tau2_airline, tau2_retail, tau2_telecom, ' +
        'tau2_telecom_workflow, eva_airline, restaurant, fastbite, customer_service, qa and ' +
        'simple_qa read --data-root',
      collect,
    )
    .option('--scenarios <names>', 'only these scenarios (comma-separated, repeatable)', collect)
    .option('--list', 'list the scenario names and exit')
    .option('--output-dir <dir>', 'where run folders go', './eval-results')
    .option(
      '--data-root <dir>',
      'data root of the tau2 and NeMo suites (default: $EVAL_DATA_ROOT or ./data)',
    )
    .option('--duration <seconds>', "override every scenario's time limit")
    .option('--max-turns <n>', 'turn limit per side (default 30)')
    .option('--concurrency <n>', 'scenarios at once', '4')
    .option('--trials <k>', 'runs per scenario; pass^k is reported when k > 1', '1')
    .option(
      '--resume <run-id>',
      'finish an interrupted run (a folder in --output-dir) with the arguments it was started with',
    )
    .option('--run-id <name>', 'name of the run folder (default: a timestamp)')
    .option(
      '--shard <k/n>',
      'run only the k-th of n shards (merge them with `scenaro eval merge`); auto/n takes k from ' +
        '$JOB_COMPLETION_INDEX + 1 (a Kubernetes Indexed Job). Shards may share a --run-id',
    )
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
    .addOption(
      new Option(
        '--mode <mode>',
        'text: turns relayed as text; audio: each bot hears the other speak (voice bots)',
      )
        .choices(['text', 'audio'])
        .default('text'),
    )
    .addOption(
      new Option(
        '--audio-clock <clock>',
        'audio mode: realtime (any bot) or fast (local bots, unpaced, audio time counted in samples)',
      )
        .choices(['realtime', 'fast'])
        .default('realtime'),
    );
  command
    .option(
      '--speech-complexity <presets>',
      "audio mode, local bots: the caller follows tau2-bench's speech-complexity presets " +
        '(control, regular, control_audio, control_accents, control_behavior, ' +
        'control_audio_accents, control_audio_behavior, control_accents_behavior; comma-separated, ' +
        "repeatable): each tau2 task's config from its suite's tasks_voice.json, other scenarios " +
        'sampled from the preset. Several presets run the scenarios once each, in RUN/<preset>/, ' +
        'and RUN/report.html puts them side by side',
      collect,
    )
    .option(
      '--caller-effects <file.json>',
      "audio mode, local bots: one caller config for every scenario, in tau2's tasks_voice.json " +
        'schema (fields left out are the control preset)',
    )
    .option(
      '--noise-dir <dir>',
      "with caller effects: WAV recordings named like tau2's sounds (dog_bark.wav...) used in " +
        'place of the built-in stand-ins',
    );
  // Audio mode: the local bots' speech engines, as `scenaro serve` takes them, a voice per bot.
  addVoiceOptions(command, 'local-bots')
    .option('--retries <n>', 'retries of a scenario that failed for infrastructure reasons', '2')
    .option('--min-agent-turns <n>', 'stall rule: fewer agent model calls fail the scenario', '3')
    .option('--junit <file>', 'also write JUnit XML: one test case per scenario (and trial)')
    .option(
      '--fail-under <rate>',
      'exit 1 when the success rate of scored scenarios is under this (0.8 or 80%)',
    )
    .action(async (flags: EvalFlags, self: Command) => {
      if (flags.list) {
        const { listScenarios } = await import('../eval-run.js');
        await listScenarios(flags);
        return;
      }
      const given = (flag: keyof EvalFlags) => self.getOptionValueSource(flag) === 'cli';
      // Loaded when the command runs, so that `scenaro --help` loads no harness code.
      const [{ runEvaluation }, { evaluationOptions }, { evaluationSummary }, { startTracing }] =
        await Promise.all([
          import('@scenaro/eval'),
          import('../eval-flags.js'),
          import('../eval-run.js'),
          import('../tracing.js'),
        ]);
      // The local bots' turns are traced when OTEL_EXPORTER_OTLP_ENDPOINT is set.
      const bar = flags.failUnder === undefined ? null : parseRate(flags.failUnder, '--fail-under');
      const stopTracing = await startTracing();
      try {
        const result = await runEvaluation(evaluationOptions(flags, process.argv, given));
        for (const line of evaluationSummary(result)) console.log(line);
        if (flags.junit) {
          const { loadRun, runJunit } = await import('@scenaro/eval');
          const run = await loadRun(result.filesDir);
          const file = await writeReportFile(flags.junit, runJunit(run.name, run.metrics));
          console.log(`junit:   ${file}`);
        }
        if (bar !== null) console.log(checkFailUnder(result.aggregate.success.rate, bar));
      } finally {
        await stopTracing?.();
      }
    });
  command.addCommand(compareCommand());
  command
    .command('merge')
    .description(
      'Merge result folders of several runs (e.g. shards) into one run folder with fresh summaries.',
    )
    .argument('<dirs...>', 'run folders to merge (a run folder that shards shared counts once)')
    .requiredOption('--into <dir>', 'the merged run folder to create')
    .option('--allow-partial', 'merge even when some shards of the run are missing')
    .action(async (dirs: string[], flags: { into: string; allowPartial?: boolean }) => {
      const { mergeRuns } = await import('@scenaro/eval');
      const merged = await mergeRuns(
        dirs.map((d) => resolve(d)),
        resolve(flags.into),
        flags.allowPartial ? { allowPartial: true } : {},
      );
      if (merged.unfinished.length > 0)
        console.warn(
          `scenaro: warning: ${merged.unfinished.length} scenario(s) of the shards have no ` +
            `finished result: ${merged.unfinished.slice(0, 10).join(', ')}` +
            (merged.unfinished.length > 10 ? ', ...' : ''),
        );
      const n = merged.shards.length;
      const shards = n > 0 ? ` from ${n} shard${n === 1 ? '' : 's'}` : '';
      console.log(`merged ${merged.scenarios} scenarios${shards} into ${merged.runDir}`);
    });
  return command;
}

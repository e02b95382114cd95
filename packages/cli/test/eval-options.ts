/**
 * What the eval command tests share: the runner options a command line parses to, and what an
 * audio run that spoke the first scenario leaves behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { EvaluationOptions, EvaluationResult } from '@scenaro/eval';
import { evalCommand } from '../src/commands/eval.js';
import { evaluationOptions } from '../src/eval-flags.js';
import type { EvalFlags } from '../src/eval-flags.js';

/** The runner options `scenaro eval ARGS` would run with (its flags parsed, nothing run). */
export async function evalOptions(args: string[]): Promise<EvaluationOptions> {
  let options: EvaluationOptions | undefined;
  const command = evalCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .action((flags: EvalFlags, self: typeof command) => {
      options = evaluationOptions(flags, ['node', 'scenaro'], (flag) => {
        return self.getOptionValueSource(flag) === 'cli';
      });
    });
  await command.parseAsync(args, { from: 'user' });
  if (!options) throw new Error('the eval action did not run');
  return options;
}

/**
 * The first scenario's first caller turn was heard as said, and the run recorded its speech
 * settings (so a resumed run builds the same voices).
 */
export function expectHeardAndRecorded(result: EvaluationResult, options: EvaluationOptions): void {
  const segments = (result.metrics[0]?.['audio'] as { segments: { heard: string }[] }).segments;
  expect(segments[0]?.heard).toBe('I would like some help with my order.');
  const runArgs = JSON.parse(readFileSync(join(result.runDir, 'run_args.json'), 'utf8')) as {
    invocations: { parsed_args: Record<string, unknown> }[];
  };
  expect(runArgs.invocations[0]?.parsed_args['speech']).toEqual(options.speech);
}

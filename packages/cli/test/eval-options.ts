/** What the eval command tests share: the runner options a command line parses to. */
import type { EvaluationOptions } from '@scenaro/eval';
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

/**
 * The `scenaro` command line, as an importable program (the bin only runs it).
 */
import { Command } from 'commander';
import { demoCommand } from './commands/demo.js';
import { evalCommand } from './commands/eval.js';
import { hashCommand } from './commands/hash.js';
import { replayCommand } from './commands/replay.js';
import { serveCommand } from './commands/serve.js';

/** Exit codes: 0 done, 1 a CI gate failed, 2 a usage or infrastructure error (see ./gates.ts). */
export function createProgram(): Command {
  const program = new Command('scenaro')
    .description('Scenaro: RTVI bot server, control plane and evaluation harness for voice agents.')
    .version('0.1.0')
    .showHelpAfterError()
    // A subcommand's options are its own: `eval compare --junit` is compare's, not eval's.
    .enablePositionalOptions()
    .addCommand(serveCommand())
    .addCommand(evalCommand())
    .addCommand(replayCommand())
    .addCommand(hashCommand())
    .addCommand(demoCommand());
  // Usage errors reach the bin as errors, so that it can exit 2 (commander itself exits 1).
  const throwOnExit = (command: Command): void => {
    command.exitOverride();
    for (const sub of command.commands) throwOnExit(sub);
  };
  throwOnExit(program);
  return program;
}

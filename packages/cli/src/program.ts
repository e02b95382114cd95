/**
 * The `scenaro` command line, as an importable program (the bin only runs it).
 */
import { Command } from 'commander';
import { demoCommand } from './commands/demo.js';
import { evalCommand } from './commands/eval.js';
import { hashCommand } from './commands/hash.js';
import { replayCommand } from './commands/replay.js';
import { serveCommand } from './commands/serve.js';

export function createProgram(): Command {
  return new Command('scenaro')
    .description('Scenaro: RTVI bot server, control plane and evaluation harness for voice agents.')
    .version('0.1.0')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(evalCommand())
    .addCommand(replayCommand())
    .addCommand(hashCommand())
    .addCommand(demoCommand());
}

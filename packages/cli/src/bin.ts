import { errorMessage } from '@scenaro/sdk/util';
import { CommanderError } from 'commander';
import { EXIT_ERROR, EXIT_GATE_FAILED, GateFailure } from './gates.js';
import { createProgram } from './program.js';

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    // Commander has already printed its usage error (or the help it was asked for).
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_ERROR;
      return;
    }
    console.error(`scenaro: ${errorMessage(err)}`);
    process.exitCode = err instanceof GateFailure ? EXIT_GATE_FAILED : EXIT_ERROR;
  });

import { errorMessage } from '@scenaro/sdk/util';
import { CommanderError } from 'commander';
import { EXIT_ERROR, EXIT_GATE_FAILED, GateFailure } from './gates.js';
import { createProgram } from './program.js';

let settled = false;
// Node ends a process whose event loop has nothing left, even while a command still waits for
// something that can no longer happen. Exiting 0 then would pass off an unfinished run as done.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  console.error(
    'scenaro: the command stopped before it finished (it waited for nothing left to happen)',
  );
  process.exitCode = EXIT_ERROR;
});

createProgram()
  .parseAsync(process.argv)
  .then(() => (settled = true))
  .catch((err: unknown) => {
    settled = true;
    // Commander has already printed its usage error (or the help it was asked for).
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : EXIT_ERROR;
      return;
    }
    console.error(`scenaro: ${errorMessage(err)}`);
    process.exitCode = err instanceof GateFailure ? EXIT_GATE_FAILED : EXIT_ERROR;
  });

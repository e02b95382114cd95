import { createProgram } from './program.js';

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    console.error(`scenaro: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  });

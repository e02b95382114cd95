import { errorMessage } from '@scenaro/sdk/util';
import { createProgram } from './program.js';

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    console.error(`scenaro: ${errorMessage(err)}`);
    process.exitCode = 1;
  });

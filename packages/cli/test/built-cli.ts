/**
 * The built `scenaro` command the CLI tests run as a child process, and whether it is built
 * (`npm run build`); tests that need it skip loudly when it is not.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const bin = join(repoRoot, 'packages/cli/bin/scenaro.js');

/** Is the CLI built? Warns, naming `what` is skipped, when it is not. */
export function cliBuilt(what: string): boolean {
  const built = existsSync(join(repoRoot, 'packages/cli/dist/bin.js'));
  if (!built)
    console.warn(
      `\n*** SKIPPING ${what}: packages/cli/dist is missing. Run \`npm run build\` first. ***\n`,
    );
  return built;
}

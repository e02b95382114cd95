/**
 * The shared folder beside the repository (`../shared`: specs, reference facts, eval data).
 * Tests that read it skip, loudly, where it is absent; CI always has it, so there a missing
 * file fails the test instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared/` beside the repository root. */
export const sharedRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../../../shared');

/**
 * The text of `../shared/<relative>`, or `undefined` (with a warning naming the test that will
 * skip) where it is absent. Throws instead when `CI` is set.
 */
export function readSharedText(relative: string, skipped: string): string | undefined {
  const file = join(sharedRoot, relative);
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const reason = `${file} not found`;
  if (process.env['CI']) throw new Error(`${skipped} needs ${reason} (CI always has ../shared)`);
  console.warn(`\n!!! ${skipped} SKIPPED: ${reason} !!!\n`);
  return undefined;
}

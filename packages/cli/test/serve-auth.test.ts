// `scenaro serve` refuses unsafe auth settings before it binds anything.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const bin = join(repoRoot, 'packages/cli/bin/scenaro.js');
const built = existsSync(join(repoRoot, 'packages/cli/dist/bin.js'));
if (!built)
  console.warn(
    '\n*** SKIPPING serve-auth tests: packages/cli/dist is missing (npm run build) ***\n',
  );

function serve(args: string[], env: Record<string, string> = {}) {
  const { SCENARO_TOKEN: _ignored, ...rest } = process.env;
  return spawnSync(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    encoding: 'utf8',
    env: { ...rest, ...env },
    timeout: 30_000,
  });
}

describe.skipIf(!built)('scenaro serve auth defaults', () => {
  it('refuses an empty --token instead of turning auth off', () => {
    const run = serve(['--token', '']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/token is empty/);
  });

  it('refuses a non-loopback host without a token (an empty $SCENARO_TOKEN is none), and says how to set one', () => {
    for (const run of [
      serve(['--host', '0.0.0.0']),
      serve(['--host', '0.0.0.0'], { SCENARO_TOKEN: '' }),
    ]) {
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/--token <secret>/);
      expect(run.stderr).toMatch(/--insecure-no-auth/);
    }
  });

  it('refuses a malformed --allowed-origin', () => {
    const run = serve(['--allowed-origin', 'shop.example']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/not an origin/);
  });
});

// `scenaro serve` refuses unsafe auth settings before it binds anything.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bin, cliBuilt } from './built-cli.js';

const built = cliBuilt('the serve-auth tests');

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
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/token is empty/);
  });

  it('refuses a non-loopback host without a token (an empty $SCENARO_TOKEN is none), and says how to set one', () => {
    for (const run of [
      serve(['--host', '0.0.0.0']),
      serve(['--host', '0.0.0.0'], { SCENARO_TOKEN: '' }),
    ]) {
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--token <secret>/);
      expect(run.stderr).toMatch(/--insecure-no-auth/);
    }
  });

  it('refuses a malformed --allowed-origin', () => {
    const run = serve(['--allowed-origin', 'shop.example']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/not an origin/);
  });
});

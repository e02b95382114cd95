// `scenaro --help` and `scenaro hash` load only what they need: the built command runs with a
// module hook that reports every module it loads, and the heavy packages must not appear.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bin, cliBuilt } from './built-cli.js';

const built = cliBuilt('the lazy-load tests');

/** The URLs of every module `scenaro ARGS` loads. */
function loadedModules(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'scenaro-lazy-'));
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function load(url, context, next) {
       process.stderr.write('LOADED ' + url + '\\n');
       return next(url, context);
     }\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const out = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(register).href, bin, ...args],
    {
      encoding: 'utf8',
    },
  );
  expect(out.status, out.stderr).toBe(0);
  return out.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice('LOADED '.length));
}

const heavy = (urls: string[], names: string[]) =>
  urls.filter((u) => names.some((n) => u.includes(n)));

/**
 * The agent modules every command loads to make its flags: the speech-engine registry and the
 * engines' declarations (`voice-engines`), never an engine itself.
 */
const ENGINE_DECLARATIONS =
  /\/packages\/agent\/dist\/voice\/(engine-errors|engines\/(index|registry|speech-engine|voice-settings|built-in|[a-z0-9-]+\/(engine|voices)))\.js$/;
const agentCode = (urls: string[]) =>
  urls.filter((u) => u.includes('/packages/agent/') && !ENGINE_DECLARATIONS.test(u));

describe.skipIf(!built)('the CLI loads a command only when it runs', () => {
  it('--help loads commander and no package code but the speech engines it lists', () => {
    const urls = loadedModules(['--help']);
    expect(urls.some((u) => u.includes('/commander/'))).toBe(true);
    expect(urls.some((u) => u.endsWith('/packages/agent/dist/voice/engines/registry.js'))).toBe(
      true,
    );
    expect(agentCode(urls)).toEqual([]);
    // The sdk's dependency-free util (the error text the bin prints) is all it loads of the sdk.
    expect(
      heavy(urls, [
        '/packages/eval/',
        '/packages/domains/dist/index',
        '/packages/sdk/dist/index',
        '/packages/sdk/dist/protocol/',
        'apps/demo/',
        '/ws/',
        '/pino/',
        '/node_modules/openai/',
        '/ajv/',
        '/zod/',
      ]),
    ).toEqual([]);
  });

  it('hash loads the db hash and loader, not the bot server or the harness', () => {
    const db = join(mkdtempSync(join(tmpdir(), 'scenaro-lazy-db-')), 'db.json');
    writeFileSync(db, '{"a": 1}');
    const urls = loadedModules(['hash', db]);
    expect(urls.some((u) => u.includes('/packages/agent/dist/scenario/db-hash.js'))).toBe(true);
    expect(
      heavy(urls, [
        '/packages/agent/dist/index.js',
        '/packages/agent/dist/server/',
        '/packages/eval/',
        '/packages/domains/dist/index',
        '/ws/',
        '/pino/',
        '/node_modules/openai/',
      ]),
    ).toEqual([]);
  });
});

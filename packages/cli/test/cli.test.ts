// The built `scenaro` command, run as a child process (`npm run build` first).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDictHash } from '@scenaro/agent/scenario';
import { RtviClient, pollUntil } from '@scenaro/agent/testing';
import { cliBuilt, killCliChildren, runCli, runCliToEnd } from './built-cli.js';

const built = cliBuilt('packages/cli/test/cli.test.ts');

const DB = {
  users: { u1: { name: 'Ada', balance: 10.5, tags: ['a', 'b'] } },
  notifications: [{ id: 2 }, { id: 1 }],
  flag: true,
  nothing: null,
};
const SHARDS = { flights: [{ id: 'F1', seats: 3 }], users: { u1: { name: 'Ada' } } };

let tmp: string;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'scenaro-cli-'));
  writeFileSync(join(tmp, 'db.json'), JSON.stringify(DB));
  mkdirSync(join(tmp, 'shards'));
  for (const [stem, value] of Object.entries(SHARDS)) {
    writeFileSync(join(tmp, 'shards', `${stem}.json`), JSON.stringify(value));
  }
  writeFileSync(join(tmp, 'shards', 'notes.txt'), 'not a shard');
  writeFileSync(join(tmp, 'broken.json'), '{"a": ');
});

afterAll(async () => {
  killCliChildren();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Each CLI start takes ~1 s of CPU; on a busy machine much longer, hence generous timeouts.
describe.skipIf(!built)('scenaro (built CLI)', { timeout: 45_000 }, () => {
  it('serve --port 0 prints exactly one "listening on" line and accepts a connection', async ({
    expect,
  }) => {
    const server = runCli(['serve', '--port', '0', '--data-root', tmp]);
    try {
      await pollUntil(
        () => server.stdout().includes('\n') || server.child.exitCode !== null,
        'the listening line',
        30_000,
      );
      expect(server.child.exitCode, `serve exited early: ${server.stderr()}`).toBeNull();
      const match = /^listening on (ws:\/\/127\.0\.0\.1:(\d+))\n$/.exec(server.stdout());
      expect(match, `stdout was ${JSON.stringify(server.stdout())}`).not.toBeNull();
      const url = (match as RegExpExecArray)[1] as string;
      expect(Number((match as RegExpExecArray)[2])).toBeGreaterThan(0);

      const client = await RtviClient.ready(url);
      try {
        expect(await client.call('get_scenario_summary', {})).toEqual({
          actions: [],
          db_hash: null,
        });
        // db_path resolves inside --data-root.
        expect(
          await client.call('apply_initialization', {
            shared_state_init: '{"db_path": "db.json"}',
          }),
        ).toEqual({ success: true, errors: [] });
        expect(await client.call('get_scenario_summary', {})).toEqual({
          actions: [],
          db_hash: getDictHash(DB),
        });
      } finally {
        await client.close();
      }
      expect(server.stdout().split('\n')).toEqual([`listening on ${url}`, '']);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.stdout()).toBe(`listening on ${url}\n`);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('serve refuses a bad --port with exit code 2', async () => {
    const { code, stdout, stderr } = await runCliToEnd(['serve', '--port', 'abc']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/--port must be an integer from 0 to 65535, got 'abc'/);
  });

  it('hash prints the get_dict_hash digest of a JSON file', async () => {
    const { code, stdout, stderr } = await runCliToEnd(['hash', join(tmp, 'db.json')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${getDictHash(DB)}\n`);
  });

  it('hash merges a directory of *.json shards by file stem', async () => {
    const { code, stdout, stderr } = await runCliToEnd(['hash', join(tmp, 'shards')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(`${getDictHash(SHARDS)}\n`);
    expect(stdout).not.toBe(`${getDictHash(DB)}\n`);
  });

  it('hash of a missing path fails with a clear error and exit code 2', async () => {
    const missing = join(tmp, 'no', 'such.json');
    const { code, stdout, stderr } = await runCliToEnd(['hash', missing]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(`scenaro: no such file or directory: ${missing}\n`);
  });

  it('hash of a file that is not JSON fails with a clear error and exit code 2', async ({
    expect,
  }) => {
    const { code, stdout, stderr } = await runCliToEnd(['hash', join(tmp, 'broken.json')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^scenaro: db file ".*broken\.json" is not valid JSON/);
  });
});

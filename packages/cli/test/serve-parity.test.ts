// `scenaro serve`'s NeMo parity settings: the telecom clock (`--today`), one session kept
// between connections (`--single-client`) and the resume grace (`--resume-grace-ms`).
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { BotServer } from '@scenaro/agent';
import { RtviClient } from '@scenaro/agent/testing';
import { localIsoDate, TAU2_TELECOM_TODAY } from '@scenaro/domains/clock';
import { serve } from '../src/start-server.js';
import type { ServeOptions } from '../src/start-server.js';
import { bin, cliBuilt } from './built-cli.js';

process.env['SCENARO_LOG_LEVEL'] ??= 'warn';
const built = cliBuilt('the serve-parity tests of the built command');
const servers: BotServer[] = [];
const clients: RtviClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function ready(url: string): Promise<RtviClient> {
  const client = await RtviClient.ready(url);
  clients.push(client);
  return client;
}

async function start(flags: Partial<ServeOptions>): Promise<BotServer> {
  const server = await serve({ profile: 'eval', host: '127.0.0.1', port: '0', ...flags }, () => {});
  servers.push(server);
  return server;
}

/** The date a telecom line suspended on `server` is stamped with. */
async function suspensionDate(server: BotServer): Promise<unknown> {
  const client = await ready(server.url);
  const db = {
    plans: [{ plan_id: 'P1', price_per_month: 65.0 }],
    customers: [{ customer_id: 'C1', bill_ids: [] }],
    lines: [{ line_id: 'L1', status: 'Active', plan_id: 'P1', suspension_start_date: null }],
    bills: [],
  };
  expect(
    await client.call('apply_initialization', {
      domain: 'tau2_telecom',
      shared_state_init: JSON.stringify({ db }),
      actions: [
        {
          func_name: 'suspend_line_for_overdue_bill',
          arguments: { customer_id: 'C1', line_id: 'L1', new_bill_id: 'B9' },
        },
      ],
    }),
  ).toEqual({ success: true, errors: [] });
  const summary = await client.call<{ db: { lines: { suspension_start_date: unknown }[] } }>(
    'get_scenario_summary',
    { include_db: true },
  );
  return summary.db.lines[0]?.suspension_start_date;
}

describe('scenaro serve --today', () => {
  it("keeps tau2's fixed date without the flag", async () => {
    expect(await suspensionDate(await start({}))).toBe(TAU2_TELECOM_TODAY);
  });

  it("stamps today's local date with the flag, as NeMo's bot does", async () => {
    const server = await start({ today: true });
    const before = localIsoDate();
    const stamped = await suspensionDate(server);
    expect([before, localIsoDate()]).toContain(stamped);
    expect(stamped).not.toBe(TAU2_TELECOM_TODAY);
  });

  it('takes a given date, and refuses one that is not a date', async () => {
    expect(await suspensionDate(await start({ today: '2026-11-30' }))).toBe('2026-11-30');
    await expect(start({ today: '2026-02-30' })).rejects.toThrow(
      "--today must be a date YYYY-MM-DD (or nothing, for today's), got '2026-02-30'",
    );
  });

  it.skipIf(!built)('is a flag of the built command', () => {
    const run = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--today', 'soon'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--today must be a date YYYY-MM-DD/);
    const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--today \[date\]/);
  });
});

describe('scenaro serve sessions between connections', () => {
  it('--single-client keeps the one session for the next connection', async () => {
    const server = await start({ singleClient: true });
    const setup = await ready(server.url);
    expect(
      await setup.call('apply_initialization', { shared_state_init: '{"db": {"k": 1}}' }),
    ).toEqual({ success: true, errors: [] });
    const { db_hash } = await setup.call<{ db_hash: string }>('get_scenario_summary', {});
    await setup.close();
    const run = await ready(server.url);
    expect(await run.call('get_scenario_summary', {})).toEqual({ actions: [], db_hash });
  });

  it('--resume-grace-ms sets the grace bot-ready announces; 0 sends no token', async () => {
    const c = await ready((await start({ resumeGraceMs: '1500' })).url);
    expect(c.readySession).toMatchObject({ resume_grace_ms: 1500, resumed: false });
    expect((await ready((await start({})).url)).readySession?.resume_grace_ms).toBe(30_000);
    expect((await ready((await start({ resumeGraceMs: '0' })).url)).readySession).toBeUndefined();
    await expect(start({ resumeGraceMs: '-5' })).rejects.toThrow(
      "--resume-grace-ms must be an integer >= 0, got '-5'",
    );
  });

  it.skipIf(!built)('are flags of the built command', () => {
    const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--single-client/);
    expect(help.stdout).toMatch(/--resume-grace-ms <ms>/);
  });
});

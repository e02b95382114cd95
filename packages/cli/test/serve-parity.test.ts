// `scenaro serve`'s NeMo parity settings: the telecom clock (`--today`).
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

async function start(flags: Partial<ServeOptions>): Promise<BotServer> {
  const server = await serve({ profile: 'eval', host: '127.0.0.1', port: '0', ...flags }, () => {});
  servers.push(server);
  return server;
}

/** The date a telecom line suspended on `server` is stamped with. */
async function suspensionDate(server: BotServer): Promise<unknown> {
  const client = await RtviClient.ready(server.url);
  clients.push(client);
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
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/--today must be a date YYYY-MM-DD/);
    const help = spawnSync(process.execPath, [bin, 'serve', '--help'], { encoding: 'utf8' });
    expect(help.stdout).toMatch(/--today \[date\]/);
  });
});

import { describe, expect, it } from 'vitest';
import type { Db } from '@scenaro/agent/scenario';
import { builtInDomains } from '../../built-in-domains.js';
import { TAU2_TELECOM_TODAY, fixedClock, localIsoDate, systemClock } from './clock.js';
import { TAU2_TELECOM, TAU2_TELECOM_WORKFLOW, tau2Telecom, tau2TelecomWorkflow } from './domain.js';

/** The least CRM `suspend_line_for_overdue_bill` runs on. */
function crm(): Db {
  return {
    plans: [{ plan_id: 'P1', price_per_month: 65.0 }],
    customers: [{ customer_id: 'C1', bill_ids: [] }],
    lines: [{ line_id: 'L1', status: 'Active', plan_id: 'P1', suspension_start_date: null }],
    bills: [],
  };
}

/** The date the telecom module of `domains` stamps a suspension with. */
function suspensionDate(domains: ReturnType<typeof builtInDomains>): unknown {
  const fn =
    domains.get(TAU2_TELECOM)?.module.initializationFunctions?.['suspend_line_for_overdue_bill'];
  if (!fn) throw new Error('no suspend_line_for_overdue_bill');
  const db = crm();
  fn(db, { customer_id: 'C1', line_id: 'L1', new_bill_id: 'B9' });
  return (db['lines'] as { suspension_start_date: unknown }[])[0]?.suspension_start_date;
}

describe('telecom clocks', () => {
  it('reads the local calendar date', () => {
    expect(localIsoDate(new Date(2024, 0, 5, 23, 59))).toBe('2024-01-05');
    expect(localIsoDate(new Date(999, 11, 31))).toBe('0999-12-31');
    const before = localIsoDate();
    const read = systemClock().today;
    expect([before, localIsoDate()]).toContain(read);
  });

  it('is validated when fixed', () => {
    expect(fixedClock().today).toBe(TAU2_TELECOM_TODAY);
    expect(() => fixedClock('2025-02-30')).toThrow(RangeError);
  });
});

describe('builtInDomains telecom options', () => {
  it("runs on tau2's fixed date by default, with the shared domain objects", () => {
    const domains = builtInDomains();
    expect(domains.get(TAU2_TELECOM)).toBe(tau2Telecom);
    expect(domains.get(TAU2_TELECOM_WORKFLOW)).toBe(tau2TelecomWorkflow);
    expect(suspensionDate(domains)).toBe(TAU2_TELECOM_TODAY);
  });

  it('builds both telecom variants on the given clock, around one module', () => {
    const domains = builtInDomains({ telecom: { clock: systemClock() } });
    const telecom = domains.get(TAU2_TELECOM);
    expect(telecom).not.toBe(tau2Telecom);
    expect(domains.get(TAU2_TELECOM_WORKFLOW)?.module).toBe(telecom?.module);
    const before = localIsoDate();
    const stamped = suspensionDate(domains);
    expect([before, localIsoDate()]).toContain(stamped);
    expect(suspensionDate(builtInDomains({ telecom: { today: '2026-11-30' } }))).toBe('2026-11-30');
    expect([...domains.keys()]).toEqual([...builtInDomains().keys()]);
  });
});

import { describe, expect, it } from 'vitest';
import { createScenarioState, DomainRegistry, executeBoundTool } from '@scenaro/agent/scenario';
import type { Db, ScenarioState, ToolCallOutcome } from '@scenaro/agent/scenario';
import { defaultApnSettings } from './db-types.js';
import { createTau2TelecomModule, telecomScenarioName } from './domain.js';
import { applyTelecomSyncDelta, syncTelecomState } from './sync.js';

function crm(): Db {
  return {
    plans: [
      {
        plan_id: 'P1',
        name: 'Premium',
        data_limit_gb: 15.0,
        price_per_month: 65.0,
        data_refueling_price_per_gb: 2.0,
      },
    ],
    customers: [
      {
        customer_id: 'C1',
        full_name: 'John Smith',
        date_of_birth: '1985-06-15',
        email: 'j@example.com',
        phone_number: '555-0000',
        address: {},
        account_status: 'Active',
        payment_methods: [],
        line_ids: ['L1'],
        bill_ids: ['B1'],
        created_at: '2025-01-15T10:30:00',
        last_extension_date: null,
        goodwill_credit_used_this_year: 0.0,
      },
    ],
    lines: [
      {
        line_id: 'L1',
        phone_number: '555-0001',
        status: 'Active',
        plan_id: 'P1',
        device_id: null,
        data_used_gb: 8.7,
        data_refueling_gb: 0.0,
        roaming_enabled: false,
        contract_end_date: '2026-12-31',
        last_plan_change_date: null,
        last_sim_replacement_date: null,
        suspension_start_date: null,
      },
    ],
    bills: [
      {
        bill_id: 'B1',
        customer_id: 'C1',
        period_start: '2025-01-01',
        period_end: '2025-01-31',
        issue_date: '2025-01-05',
        total_due: 65.0,
        due_date: '2025-01-19',
        line_items: [],
        status: 'Issued',
      },
    ],
    devices: [],
  };
}

function phone(): Db {
  return {
    device: {
      sim_card_status: 'active',
      sim_card_missing: false,
      airplane_mode: false,
      network_signal_strength: 'good',
      network_technology_connected: '5G',
      network_connection_status: 'connected',
      battery_level: 80,
      data_enabled: true,
      roaming_enabled: false,
      network_mode_preference: '4g_5g_preferred',
      active_apn_settings: defaultApnSettings(),
      wifi_enabled: false,
      wifi_connected: false,
      wifi_ssid: null,
      wifi_signal_strength: 'none',
      wifi_calling_enabled: false,
      wifi_calling_mms_over_wifi: false,
      data_saver_mode: false,
      vpn_enabled_setting: false,
      vpn_connected: false,
      vpn_details: null,
      app_statuses: {
        messaging: {
          app_name: 'messaging',
          permissions: { sms: true, storage: true, phone: true, network: false },
        },
      },
    },
    surroundings: {
      name: null,
      phone_number: null,
      is_abroad: false,
      roaming_allowed: false,
      signal_strength: { '2G': 'poor', '3G': 'fair', '4G': 'good', '5G': 'excellent' },
      mobile_data_usage_exceeded: false,
      line_active: true,
      payment_request: null,
    },
  };
}

const module = createTau2TelecomModule({ today: '2025-02-25' });
const registry = new DomainRegistry().register(module);

function session(db: Db): ScenarioState {
  const state = createScenarioState();
  state.db = db;
  return state;
}

function call(state: ScenarioState, name: string, args: object = {}): Promise<ToolCallOutcome> {
  const found = registry.findTool('tau2_telecom', name);
  if (!found) throw new Error(`no tool ${name}`);
  return executeBoundTool(state, { tool: found.tool, domain: found.domain, options: {} }, args);
}

function init(db: Db, name: string, args: object = {}): void {
  const fn = registry.initializationFunction('tau2_telecom', name);
  if (!fn) throw new Error(`no init function ${name}`);
  fn(db, { ...args });
}

function predicate(db: Db, name: string, args: object): unknown {
  const fn = registry.predicate('tau2_telecom', name);
  if (!fn) throw new Error(`no predicate ${name}`);
  return fn(db, { ...args });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const view = (db: unknown): any => db;

describe('tau2 telecom phone', () => {
  it('breaks and repairs the phone through init functions and user tools', async () => {
    const user = session(phone());
    init(user.db as Db, 'set_user_info', { name: 'John Smith', phone_number: '555-0001' });
    init(user.db as Db, 'turn_airplane_mode_on');
    init(user.db as Db, 'break_apn_settings');
    expect(
      predicate(user.db as Db, 'assert_service_status', { expected_status: 'no_service' }),
    ).toBe(true);
    expect((await call(user, 'check_status_bar')).result).toBe(
      'Status Bar: ✈️ Airplane Mode | 🔋 80%',
    );

    expect((await call(user, 'toggle_airplane_mode')).result).toEqual({ airplane_mode: false });
    expect(view(user.db).device.network_connection_status).toBe('no_service'); // the APN is still broken
    expect((await call(user, 'reset_apn_settings')).result).toEqual({ reset_at_reboot: true });
    expect((await call(user, 'reboot_device')).result).toEqual({ rebooted: true });
    expect(view(user.db).device.active_apn_settings.apn_name).toBe('internet');
    expect(
      predicate(user.db as Db, 'assert_service_status', { expected_status: 'connected' }),
    ).toBe(true);
    expect((await call(user, 'run_speed_test')).result).toBe(
      'Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.',
    );
    expect(
      predicate(user.db as Db, 'assert_internet_speed', {
        expected_speed: 200,
        expected_desc: 'excellent',
      }),
    ).toBe(true);
    expect(user.actions.map((a) => a.name)).toEqual([
      'toggle_airplane_mode',
      'reset_apn_settings',
      'reboot_device',
    ]);
    expect(() =>
      predicate(user.db as Db, 'assert_service_status', { expected_status: 'fine' }),
    ).toThrow(/NetworkStatus/);
  });

  it('slows down with a broken VPN and data saver, and refuses no-op writes without recording them', async () => {
    const user = session(phone());
    init(user.db as Db, 'break_vpn');
    init(user.db as Db, 'turn_data_saver_mode_on');
    expect((await call(user, 'run_speed_test')).result).toMatch(
      /^Speed Test Result: 4\.40 Mbps \(Poor\)/,
    );
    expect((await call(user, 'disconnect_vpn')).result).toEqual({ vpn_connected: false });
    const again = await call(user, 'disconnect_vpn');
    expect(again.ok).toBe(false);
    expect(again.error).toMatch(/^No active VPN connection to disconnect\./);
    const grant = await call(user, 'grant_app_permission', {
      app_name: 'camera',
      permission: 'storage',
    });
    expect(grant.error).toMatch(/^Error\. App 'camera' not found/);
    const mode = await call(user, 'set_network_mode_preference', { mode: '6g' });
    expect(mode.error).toMatch(/^Failed to set network mode: '6g' is not a valid option/);
    expect(user.actions.map((a) => a.name)).toEqual(['disconnect_vpn']);
    expect((await call(user, 'make_payment')).error).toBe('You do not have a payment request.');
  });

  it('checks MMS like tau2', async () => {
    const user = session(phone());
    init(user.db as Db, 'break_apn_mms_setting');
    init(user.db as Db, 'remove_app_permission', { app_name: 'messaging', permission: 'SMS' });
    expect(predicate(user.db as Db, 'assert_can_send_mms', { expected_status: false })).toBe(true);
    expect((await call(user, 'check_app_permissions', { app_name: 'messaging' })).result).toBe(
      "App 'messaging' has permission for: storage, phone.",
    );
    await call(user, 'grant_app_permission', { app_name: 'messaging', permission: 'sms' });
    await call(user, 'reset_apn_settings');
    await call(user, 'reboot_device');
    expect((await call(user, 'can_send_mms')).result).toBe(
      'Your messaging app can send MMS messages.',
    );
  });
});

describe('tau2 telecom CRM and sync', () => {
  it('suspends a line for an overdue bill on the module clock', () => {
    const db = crm();
    init(db, 'suspend_line_for_overdue_bill', {
      customer_id: 'C1',
      line_id: 'L1',
      new_bill_id: 'B9',
      contract_ended: true,
    });
    const bill = view(db).bills.at(-1);
    expect(bill).toMatchObject({
      bill_id: 'B9',
      period_start: '2025-01-01',
      period_end: '2025-01-31',
      issue_date: '2025-01-01',
      due_date: '2025-01-15',
      total_due: 65.0,
      status: 'Overdue',
    });
    expect(bill.line_items[0]).toEqual({
      description: 'Charge for line L1',
      amount: 65.0,
      date: '2025-02-25',
      item_type: 'Charge',
    });
    expect(view(db).lines[0]).toMatchObject({
      status: 'Suspended',
      suspension_start_date: '2025-02-25',
      contract_end_date: '2025-01-31',
    });
    expect(() =>
      init(db, 'suspend_line_for_overdue_bill', {
        customer_id: 'C1',
        line_id: 'L1',
        new_bill_id: 'B8',
      }),
    ).toThrow('Line must be active to suspend for unpaid bill');
  });

  it('refuels data onto a new, deterministic draft bill', async () => {
    const agent = session(crm());
    const out = await call(agent, 'refuel_data', {
      customer_id: 'C1',
      line_id: 'L1',
      gb_amount: 2,
    });
    expect(out.result).toEqual({ new_data_refueling_gb: 2, charge: 4 });
    const draft = view(agent.db).bills.at(-1);
    expect(draft).toMatchObject({
      customer_id: 'C1',
      period_start: '2025-03-01',
      period_end: '2025-03-31',
      due_date: '2025-03-15',
      total_due: 4,
      status: 'Draft',
      line_items: [
        {
          description: 'Data refueling: 2.0 GB at $2.0/GB',
          amount: 4,
          date: '2025-02-25',
          item_type: 'Charge',
        },
      ],
    });
    const again = session(crm());
    await call(again, 'refuel_data', { customer_id: 'C1', line_id: 'L1', gb_amount: 2 });
    expect(view(again.db).bills.at(-1).bill_id).toBe(draft.bill_id);
    expect(
      (await call(agent, 'refuel_data', { customer_id: 'C1', line_id: 'L2', gb_amount: 1 })).error,
    ).toBe('Line L2 not found for customer C1');
    expect(
      predicate(agent.db as Db, 'assert_data_refueling_amount', {
        customer_id: 'C1',
        line_id: 'L1',
        expected_amount: 2.0,
      }),
    ).toBe(true);
  });

  it('syncs line state and the payment flow between the sides', async () => {
    const agent = session(crm());
    const user = session(phone());
    init(user.db as Db, 'set_user_info', { name: 'John Smith', phone_number: '555-0001' });
    init(agent.db as Db, 'set_data_usage', {
      customer_id: 'C1',
      line_id: 'L1',
      data_used_gb: 15.1,
    });
    init(agent.db as Db, 'suspend_line_for_overdue_bill', {
      customer_id: 'C1',
      line_id: 'L1',
      new_bill_id: 'B9',
    });

    const first = syncTelecomState(agent.db as Db, user.db as Db);
    expect(first).toEqual({
      agent: {},
      user: { 'surroundings.line_active': false, 'surroundings.mobile_data_usage_exceeded': true },
    });
    expect(applyTelecomSyncDelta(user.db as Db, first.user)).toEqual({
      applied: Object.keys(first.user),
      errors: [],
    });
    expect(view(user.db).device.network_connection_status).toBe('no_service');
    expect(syncTelecomState(agent.db as Db, user.db as Db)).toEqual({ agent: {}, user: {} });

    expect(
      (await call(agent, 'send_payment_request', { customer_id: 'C1', bill_id: 'B9' })).result,
    ).toEqual({
      bill_id: 'B9',
      status: 'Awaiting Payment',
    });
    const request = syncTelecomState(agent.db as Db, user.db as Db);
    expect(request.user).toEqual({
      'surroundings.payment_request': { bill_id: 'B9', amount_due: 65.0, paid: false },
    });
    applyTelecomSyncDelta(user.db as Db, request.user);
    expect((await call(user, 'check_payment_request')).result).toBe(
      'You have a payment request for bill B9 of 65.0 USD.',
    );
    expect((await call(user, 'make_payment')).result).toEqual({ bill_id: 'B9', amount: 65.0 });

    const paid = syncTelecomState(agent.db as Db, user.db as Db);
    expect(paid).toEqual({
      agent: { 'bills[B9].status': 'Paid' },
      user: { 'surroundings.payment_request': null },
    });
    expect(predicate(agent.db as Db, 'assert_no_overdue_bill', { overdue_bill_id: 'B9' })).toBe(
      true,
    );
    expect((await call(agent, 'resume_line', { customer_id: 'C1', line_id: 'L1' })).result).toEqual(
      {
        line_id: 'L1',
        status: 'Active',
      },
    );
    expect(syncTelecomState(agent.db as Db, user.db as Db).user).toEqual({
      'surroundings.line_active': true,
    });
  });

  it('applies deltas strictly: unknown bills and prototype keys are errors', () => {
    const agentDb = crm();
    const result = applyTelecomSyncDelta(agentDb, {
      'bills[B1].status': 'Paid',
      'bills[B404].status': 'Paid',
      'bills[B1].__proto__': {},
      'surroundings.__proto__': 1,
      'constructor.prototype.polluted': true,
    });
    expect(result.applied).toEqual(['bills[B1].status']);
    expect(result.errors).toHaveLength(4);
    expect(result.errors[0]).toMatch(/no bill with bill_id 'B404'/);
    expect(view(agentDb).bills[0].status).toBe('Paid');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();

    const userDb = phone();
    const applied = applyTelecomSyncDelta(userDb, {
      'surroundings.line_active': false,
      'device.battery_level': 50,
    });
    expect(applied.errors).toEqual([]);
    expect(view(userDb).device).toMatchObject({
      battery_level: 50,
      network_connection_status: 'no_service',
    });
  });
});

describe('telecom scenario names', () => {
  it('follows the data README', () => {
    expect(
      telecomScenarioName(
        'tau2_telecom',
        '[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:None]',
      ),
    ).toBe('tau2_telecom__mobile_data_issue__airplane_mode_on__data_mode_off');
    expect(
      telecomScenarioName(
        'tau2_telecom_workflow',
        '[service_issue]lock_sim_card_pin[PERSONA:Hard]',
      ),
    ).toBe('tau2_telecom_workflow__service_issue__lock_sim_card_pin__hard');
  });
});

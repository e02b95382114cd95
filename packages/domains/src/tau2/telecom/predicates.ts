/**
 * Telecom db-state predicates (tau2's `assert_*` environment functions),
 * called by db-state assertions as `predicate(db, arguments)`.
 *
 * @module
 */
import type { DbStatePredicate, JsonObject } from '@scenaro/agent/scenario';
import { dbAs } from '../../common/tool-kit.js';
import { getBillById, getCustomerById, getTargetLine } from './crm.js';
import { BillStatus, NETWORK_STATUSES } from './db-types.js';
import type { TelecomDb, TelecomUserDb } from './db-types.js';
import { canSendMms, mobileDataWorking, runSpeedTest } from './device.js';

function arg<T>(args: JsonObject, name: string, type: 'string' | 'boolean' | 'number'): T {
  const value = args[name];
  if (typeof value !== type) throw new TypeError(`argument '${name}' must be a ${type}`);
  return value as T;
}

function user(fn: (db: TelecomUserDb, args: JsonObject) => boolean): DbStatePredicate {
  return (db, args) => fn(dbAs<TelecomUserDb>(db), args);
}

function agent(fn: (db: TelecomDb, args: JsonObject) => boolean): DbStatePredicate {
  return (db, args) => fn(dbAs<TelecomDb>(db), args);
}

/** Predicates on the user's phone db. */
export const telecomUserPredicates: Readonly<Record<string, DbStatePredicate>> = {
  assert_airplane_mode_status: user(
    (db, a) => db.device.airplane_mode === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
  assert_service_status: user((db, a) => {
    const expected = arg<string>(a, 'expected_status', 'string');
    if (!(NETWORK_STATUSES as readonly string[]).includes(expected)) {
      throw new RangeError(`'${expected}' is not a valid NetworkStatus`);
    }
    return db.device.network_connection_status === expected;
  }),
  assert_mobile_data_status: user(
    (db, a) => mobileDataWorking(db) === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
  assert_mobile_roaming_status: user(
    (db, a) => db.device.roaming_enabled === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
  assert_mobile_data_saver_mode_status: user(
    (db, a) => db.device.data_saver_mode === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
  assert_internet_speed: user((db, a) => {
    const [measured, description] = runSpeedTest(db);
    const speed = measured ?? 0.0;
    const expectedSpeed = arg<number>(a, 'expected_speed', 'number');
    const expectedDesc = a['expected_desc'];
    if (expectedDesc === undefined || expectedDesc === null) return speed >= expectedSpeed;
    return (
      speed >= expectedSpeed && description.toLowerCase() === String(expectedDesc).toLowerCase()
    );
  }),
  assert_internet_not_excellent: user((db) => runSpeedTest(db)[1].toLowerCase() !== 'excellent'),
  assert_can_send_mms: user(
    (db, a) => canSendMms(db) === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
  assert_mobile_data_usage_exceeded: user(
    (db, a) =>
      db.surroundings.mobile_data_usage_exceeded === arg<boolean>(a, 'expected_status', 'boolean'),
  ),
};

/** Predicates on the agent's CRM db. */
export const telecomAgentPredicates: Readonly<Record<string, DbStatePredicate>> = {
  assert_data_refueling_amount: agent((db, a) => {
    const line = getTargetLine(
      db,
      arg<string>(a, 'customer_id', 'string'),
      arg<string>(a, 'line_id', 'string'),
    );
    return Math.abs(line.data_refueling_gb - arg<number>(a, 'expected_amount', 'number')) < 1e-6;
  }),
  assert_line_status: agent((db, a) => {
    const line = getTargetLine(
      db,
      arg<string>(a, 'customer_id', 'string'),
      arg<string>(a, 'line_id', 'string'),
    );
    return line.status === arg<string>(a, 'expected_status', 'string');
  }),
  assert_overdue_bill_exists: agent((db, a) => {
    const customerId = arg<string>(a, 'customer_id', 'string');
    const billId = arg<string>(a, 'overdue_bill_id', 'string');
    const customer = getCustomerById(db, customerId);
    if (!customer.bill_ids.includes(billId)) throw new Error(`Overdue bill ${billId} not found`);
    if (getBillById(db, billId).status !== BillStatus.OVERDUE)
      throw new Error(`Overdue bill ${billId} is not overdue`);
    return true;
  }),
  assert_no_overdue_bill: agent((db, a) => {
    const bill = db.bills.find((b) => b.bill_id === arg<string>(a, 'overdue_bill_id', 'string'));
    return bill === undefined || bill.status === BillStatus.PAID;
  }),
};

/** Every telecom predicate (user- and agent-side names do not overlap). */
export const telecomPredicates: Readonly<Record<string, DbStatePredicate>> = {
  ...telecomUserPredicates,
  ...telecomAgentPredicates,
};

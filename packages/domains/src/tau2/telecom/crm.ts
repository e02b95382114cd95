/**
 * Lookups and shared operations of tau2's `TelecomTools` over the
 * agent-side CRM (`_get_line_by_id`, `_get_target_line`,
 * `_apply_one_time_charge`, `suspend_line_for_overdue_bill`, ...).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { ToolError } from '@scenaro/agent/scenario';
import { addDays, firstOfMonth, firstOfNextMonth, isoDate, parseIsoDate } from './clock.js';
import type { TelecomClock } from './clock.js';
import { BillStatus, LineStatus } from './db-types.js';
import type { Bill, Customer, Device, Line, Plan, TelecomDb } from './db-types.js';

/** The record of `records` whose `key` is `id`; tau2's `<What> with ID <id> not found` when none. */
function recordById<T>(records: readonly T[], key: keyof T, id: string, what: string): T {
  const record = records.find((r) => r[key] === id);
  if (!record) throw new ToolError(`${what} with ID ${id} not found`);
  return record;
}

/** The customer (`get_customer_by_id`); tau2's error when unknown. */
export function getCustomerById(db: TelecomDb, customerId: string): Customer {
  return recordById(db.customers, 'customer_id', customerId, 'Customer');
}

/** The line (`_get_line_by_id`); tau2's error when unknown. */
export function getLineById(db: TelecomDb, lineId: string): Line {
  return recordById(db.lines, 'line_id', lineId, 'Line');
}

/** The line with this phone number, if any. */
export function findLineByPhone(db: TelecomDb, phoneNumber: string): Line | undefined {
  return db.lines.find((l) => l.phone_number === phoneNumber);
}

/** The plan (`_get_plan_by_id`); tau2's error when unknown. */
export function getPlanById(db: TelecomDb, planId: string): Plan {
  return recordById(db.plans, 'plan_id', planId, 'Plan');
}

/** The device (`_get_device_by_id`); tau2's error when unknown. */
export function getDeviceById(db: TelecomDb, deviceId: string): Device {
  return recordById(db.devices, 'device_id', deviceId, 'Device');
}

/** The bill (`_get_bill_by_id`); tau2's error when unknown. */
export function getBillById(db: TelecomDb, billId: string): Bill {
  return recordById(db.bills, 'bill_id', billId, 'Bill');
}

/** The customer whose contact number or one of whose lines has `phoneNumber`. */
export function findCustomerByPhone(db: TelecomDb, phoneNumber: string): Customer | undefined {
  for (const customer of db.customers) {
    if (customer.phone_number === phoneNumber) return customer;
    for (const lineId of customer.line_ids) {
      const line = db.lines.find((l) => l.line_id === lineId);
      if (line && line.phone_number === phoneNumber) return customer;
    }
  }
  return undefined;
}

/** `_get_target_line`: the customer's line, checking ownership. */
export function getTargetLine(db: TelecomDb, customerId: string, lineId: string): Line {
  const customer = getCustomerById(db, customerId);
  if (!customer.line_ids.includes(lineId))
    throw new ToolError(`Line ${lineId} not found for customer ${customerId}`);
  return getLineById(db, lineId);
}

/** `_get_bills_awaiting_payment`. */
export function billsAwaitingPayment(db: TelecomDb, customer: Customer): Bill[] {
  return customer.bill_ids
    .map((id) => getBillById(db, id))
    .filter((b) => b.status === BillStatus.AWAITING_PAYMENT);
}

/** A deterministic id for a new draft bill (tau2 draws a random `uuid4().hex[:8]`). */
export function newDraftBillId(db: TelecomDb, customerId: string): string {
  for (let n = db.bills.length; ; n++) {
    const id = `B${createHash('sha256').update(`${customerId}:${n}`).digest('hex').slice(0, 8)}`;
    if (!db.bills.some((b) => b.bill_id === id)) return id;
  }
}

/**
 * `_apply_one_time_charge`: add a charge (or credit) line item to the
 * customer's draft bill, creating next month's draft bill when there is none.
 */
export function applyOneTimeCharge(
  db: TelecomDb,
  clock: TelecomClock,
  customerId: string,
  amount: number,
  description: string,
): void {
  const customer = getCustomerById(db, customerId);
  let draft: Bill | undefined;
  for (const billId of customer.bill_ids) {
    const bill = getBillById(db, billId);
    if (bill.status === BillStatus.DRAFT) {
      draft = bill;
      break;
    }
  }
  const today = parseIsoDate(clock.today);
  if (!draft) {
    const nextMonth = firstOfNextMonth(today);
    const periodEnd = addDays(firstOfNextMonth(nextMonth), -1);
    const billId = newDraftBillId(db, customerId);
    draft = {
      bill_id: billId,
      customer_id: customerId,
      period_start: isoDate(nextMonth),
      period_end: isoDate(periodEnd),
      issue_date: isoDate(nextMonth),
      total_due: 0,
      due_date: isoDate(addDays(nextMonth, 14)),
      line_items: [],
      status: BillStatus.DRAFT,
    };
    db.bills.push(draft);
    customer.bill_ids.push(billId);
  }
  draft.line_items.push({
    description,
    amount,
    date: isoDate(today),
    item_type: amount < 0 ? 'Credit' : 'Charge',
  });
  draft.total_due += amount;
}

/**
 * tau2's `suspend_line_for_overdue_bill` (an initialization function):
 * suspend an active line and add an overdue bill of one month's plan price
 * dated last month.
 */
export function suspendLineForOverdueBill(
  db: TelecomDb,
  clock: TelecomClock,
  customerId: string,
  lineId: string,
  newBillId: string,
  contractEnded: boolean,
): string {
  const line = getLineById(db, lineId);
  if (line.status !== LineStatus.ACTIVE)
    throw new ToolError('Line must be active to suspend for unpaid bill');
  const plan = getPlanById(db, line.plan_id);
  const amount = plan.price_per_month;
  if (amount <= 0) throw new ToolError('Amount must be positive for overdue bill');
  const customer = getCustomerById(db, customerId);
  if (customer.bill_ids.some((id) => getBillById(db, id).status === BillStatus.OVERDUE)) {
    throw new ToolError('Customer already has an overdue bill');
  }
  const today = parseIsoDate(clock.today);
  const lastDayOfLastMonth = addDays(firstOfMonth(today), -1);
  const firstDayOfLastMonth = firstOfMonth(lastDayOfLastMonth);
  db.bills.push({
    bill_id: newBillId,
    customer_id: customerId,
    period_start: isoDate(firstDayOfLastMonth),
    period_end: isoDate(lastDayOfLastMonth),
    issue_date: isoDate(firstDayOfLastMonth),
    total_due: amount,
    due_date: isoDate(addDays(firstDayOfLastMonth, 14)),
    line_items: [
      {
        description: `Charge for line ${line.line_id}`,
        amount,
        date: isoDate(today),
        item_type: 'Charge',
      },
    ],
    status: BillStatus.OVERDUE,
  });
  customer.bill_ids.push(newBillId);
  line.status = LineStatus.SUSPENDED;
  line.suspension_start_date = isoDate(today);
  if (contractEnded) line.contract_end_date = isoDate(lastDayOfLastMonth);
  return `Line ${lineId} suspended for unpaid bill ${newBillId}. Contract ended: ${contractEnded}`;
}

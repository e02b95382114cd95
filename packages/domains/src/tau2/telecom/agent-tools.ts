/**
 * The telecom agent's tools (tau2's `TelecomTools`): customer, line and bill
 * lookups and the CRM writes. Write tools return the compact result the
 * reference harness records.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolContext, ToolDefinition } from '@scenaro/agent/scenario';
import { pyFloatStr } from '@scenaro/agent/python';
import { createTransferTool } from '../common/generic-tools.js';
import {
  integerParam,
  numberParam,
  sessionDb,
  snapshot,
  stringParam,
  toolParameters,
} from '../../common/tool-kit.js';
import { addDays, isoDate, parseIsoDate } from './clock.js';
import type { TelecomClock } from './clock.js';
import {
  applyOneTimeCharge,
  billsAwaitingPayment,
  findCustomerByPhone,
  getBillById,
  getCustomerById,
  getDeviceById,
  getLineById,
  getPlanById,
  getTargetLine,
} from './crm.js';
import { BillStatus, LineStatus } from './db-types.js';
import type { Line, TelecomDb } from './db-types.js';

const customerIdParam = stringParam("The customer id, for example 'C1001'.");
const lineIdParam = stringParam("The line id, for example 'L1001'.");

type LineArgs = { customer_id: string; line_id: string };
const LINE_PARAMS = { customer_id: customerIdParam, line_id: lineIdParam };

/** The customer's line the arguments name (`_get_target_line`). */
function targetLine(context: ToolContext, { customer_id, line_id }: LineArgs): Line {
  return getTargetLine(sessionDb<TelecomDb>(context), customer_id, line_id);
}

/** Every telecom agent tool, running on `clock`. */
export function createTelecomAgentTools(clock: TelecomClock): ToolDefinition[] {
  const getCustomerByPhone: ToolDefinition<{ phone_number: string }> = {
    name: 'get_customer_by_phone',
    kind: 'read',
    description:
      'Find a customer by their contact phone number or the number of one of their lines.',
    parameters: toolParameters({
      phone_number: stringParam("The phone number, for example '555-123-2002'."),
    }),
    execute: ({ phone_number }, context) => {
      const customer = findCustomerByPhone(sessionDb<TelecomDb>(context), phone_number);
      if (!customer) throw new ToolError(`Customer with phone number ${phone_number} not found`);
      return snapshot(customer);
    },
  };

  const getCustomerById_: ToolDefinition<{ customer_id: string }> = {
    name: 'get_customer_by_id',
    kind: 'read',
    description: 'Look up a customer by customer id.',
    parameters: toolParameters({ customer_id: customerIdParam }),
    execute: ({ customer_id }, context) =>
      snapshot(getCustomerById(sessionDb<TelecomDb>(context), customer_id)),
  };

  const getCustomerByName: ToolDefinition<{ full_name: string; dob: string }> = {
    name: 'get_customer_by_name',
    kind: 'read',
    description:
      'Find customers by full name and date of birth (the date of birth tells apart customers with the same ' +
      'name). Returns a list of matches.',
    parameters: toolParameters({
      full_name: stringParam("The customer's full name."),
      dob: stringParam("Date of birth as 'YYYY-MM-DD'."),
    }),
    execute: ({ full_name, dob }, context) =>
      sessionDb<TelecomDb>(context)
        .customers.filter(
          (c) => c.full_name.toLowerCase() === full_name.toLowerCase() && c.date_of_birth === dob,
        )
        .map((c) => snapshot(c)),
  };

  const getDetailsById: ToolDefinition<{ id: string }> = {
    name: 'get_details_by_id',
    kind: 'read',
    description:
      'Look up any record by id: a customer (C...), line (L...), device (D...), bill (B...) or plan (P...).',
    parameters: toolParameters({
      id: stringParam("The id, for example 'C1001', 'L1002', 'D1001', 'B1003' or 'P1001'."),
    }),
    execute: ({ id }, context) => {
      const db = sessionDb<TelecomDb>(context);
      if (id.startsWith('L')) return snapshot(getLineById(db, id));
      if (id.startsWith('D')) return snapshot(getDeviceById(db, id));
      if (id.startsWith('B')) return snapshot(getBillById(db, id));
      if (id.startsWith('C')) return snapshot(getCustomerById(db, id));
      if (id.startsWith('P')) return snapshot(getPlanById(db, id));
      throw new ToolError(`Unknown ID format or type: ${id}`);
    },
  };

  const suspendLine: ToolDefinition<LineArgs & { reason: string }> = {
    name: 'suspend_line',
    kind: 'write',
    description:
      'Suspend an active line (for at most 6 months). A $5 monthly holding fee applies while suspended.',
    parameters: toolParameters({
      ...LINE_PARAMS,
      reason: stringParam('Why the line is suspended.'),
    }),
    execute: ({ customer_id, line_id }, context) => {
      const line = targetLine(context, { customer_id, line_id });
      if (line.status !== LineStatus.ACTIVE) throw new ToolError('Line must be active to suspend');
      line.status = LineStatus.SUSPENDED;
      line.suspension_start_date = clock.today;
      return { line_id, status: LineStatus.SUSPENDED };
    },
  };

  const resumeLine: ToolDefinition<LineArgs> = {
    name: 'resume_line',
    kind: 'write',
    description: 'Reactivate a suspended (or pending activation) line.',
    parameters: toolParameters(LINE_PARAMS),
    execute: ({ customer_id, line_id }, context) => {
      const line = targetLine(context, { customer_id, line_id });
      if (line.status !== LineStatus.SUSPENDED && line.status !== LineStatus.PENDING_ACTIVATION) {
        throw new ToolError('Line must be suspended to resume');
      }
      line.status = LineStatus.ACTIVE;
      line.suspension_start_date = null;
      return { line_id, status: LineStatus.ACTIVE };
    },
  };

  const getBillsForCustomer: ToolDefinition<{ customer_id: string; limit: number }> = {
    name: 'get_bills_for_customer',
    kind: 'read',
    description: "A customer's bills, newest first.",
    parameters: toolParameters(
      {
        customer_id: customerIdParam,
        limit: integerParam('How many bills to return at most.', { default: 12 }),
      },
      ['customer_id'],
    ),
    execute: ({ customer_id, limit }, context) => {
      const db = sessionDb<TelecomDb>(context);
      const bills = getCustomerById(db, customer_id).bill_ids.map((id) => getBillById(db, id));
      const sorted = [...bills].sort((a, b) =>
        a.issue_date < b.issue_date ? 1 : a.issue_date > b.issue_date ? -1 : 0,
      );
      return snapshot(sorted.slice(0, limit));
    },
  };

  const sendPaymentRequest: ToolDefinition<{ customer_id: string; bill_id: string }> = {
    name: 'send_payment_request',
    kind: 'write',
    description:
      "Send the customer a payment request for one of their bills; it appears on the customer's phone. Only " +
      'one bill can await payment at a time. Check that the bill is not already paid first.',
    parameters: toolParameters({
      customer_id: customerIdParam,
      bill_id: stringParam("The bill id, for example 'B1002'."),
    }),
    execute: ({ customer_id, bill_id }, context) => {
      const db = sessionDb<TelecomDb>(context);
      const customer = getCustomerById(db, customer_id);
      if (billsAwaitingPayment(db, customer).length !== 0) {
        throw new ToolError('A bill is already awaiting payment for this customer');
      }
      if (!customer.bill_ids.includes(bill_id))
        throw new ToolError(`Bill ${bill_id} not found for customer ${customer_id}`);
      getBillById(db, bill_id).status = BillStatus.AWAITING_PAYMENT;
      return { bill_id, status: BillStatus.AWAITING_PAYMENT };
    },
  };

  const getDataUsage: ToolDefinition<LineArgs> = {
    name: 'get_data_usage',
    kind: 'read',
    description:
      "A line's data use in the current billing cycle: used, plan limit, data refueled and cycle end date.",
    parameters: toolParameters(LINE_PARAMS),
    execute: ({ customer_id, line_id }, context) => {
      const db = sessionDb<TelecomDb>(context);
      const line = getTargetLine(db, customer_id, line_id);
      const plan = getPlanById(db, line.plan_id);
      const today = parseIsoDate(clock.today);
      // As in tau2, a December "today" wraps to January of the same year.
      const next = { year: today.year, month: today.month < 12 ? today.month + 1 : 1, day: 1 };
      return {
        line_id,
        data_used_gb: line.data_used_gb,
        data_limit_gb: plan.data_limit_gb,
        data_refueling_gb: line.data_refueling_gb,
        cycle_end_date: isoDate(addDays(next, -1)),
      };
    },
  };

  /** `enable_roaming` or `disable_roaming`. */
  const roamingTool = (enable: boolean): ToolDefinition<LineArgs> => ({
    name: enable ? 'enable_roaming' : 'disable_roaming',
    kind: 'write',
    description: `Turn ${enable ? 'on' : 'off'} international roaming for a line.`,
    parameters: toolParameters(LINE_PARAMS),
    execute: (args, context) => {
      const line = targetLine(context, args);
      if (Boolean(line.roaming_enabled) === enable)
        throw new ToolError(`Roaming was already ${enable ? 'enabled' : 'disabled'}`);
      line.roaming_enabled = enable;
      return { roaming_enabled: enable };
    },
  });

  const refuelData: ToolDefinition<LineArgs & { gb_amount: number }> = {
    name: 'refuel_data',
    kind: 'write',
    description:
      "Add extra data to a line for the current cycle. It is charged at the plan's per-GB refueling price on " +
      "the customer's next bill.",
    parameters: toolParameters({
      ...LINE_PARAMS,
      gb_amount: numberParam('Gigabytes of data to add (positive).'),
    }),
    execute: ({ customer_id, line_id, gb_amount }, context) => {
      const db = sessionDb<TelecomDb>(context);
      const line = getTargetLine(db, customer_id, line_id);
      if (gb_amount <= 0) throw new ToolError('Refuel amount must be positive');
      const plan = getPlanById(db, line.plan_id);
      const charge = gb_amount * plan.data_refueling_price_per_gb;
      line.data_refueling_gb += gb_amount;
      applyOneTimeCharge(
        db,
        clock,
        customer_id,
        charge,
        `Data refueling: ${pyFloatStr(gb_amount)} GB at $${pyFloatStr(plan.data_refueling_price_per_gb)}/GB`,
      );
      return { new_data_refueling_gb: line.data_refueling_gb, charge };
    },
  };

  return [
    getCustomerByPhone,
    getCustomerById_,
    getCustomerByName,
    getDetailsById,
    suspendLine,
    resumeLine,
    getBillsForCustomer,
    sendPaymentRequest,
    getDataUsage,
    roamingTool(true),
    roamingTool(false),
    createTransferTool({ transferred: true }),
    refuelData,
  ];
}

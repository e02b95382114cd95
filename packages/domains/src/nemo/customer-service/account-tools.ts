/**
 * NeMo's customer_service tools on accounts: `LookupAccountTool`, `UnlockAccountTool`,
 * `ProcessRefundTool`, `ChangePlanTool`, `CancelSubscriptionTool`. They change the shared
 * accounts, record no action and never touch a db (so the bot reports `db_hash` null).
 * Unknown extra arguments are ignored.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import { pyFloatCall, pythonRepr, pythonStr } from '@scenaro/agent/python';
import { nemoParameters, nemoTool, numberParam, stringParam } from '../../common/tool-kit.js';
import {
  accountNotFound,
  findAccount,
  seedsAccountsFromKwargs,
  seedsEmptyAccounts,
} from './accounts.js';
import { formatMoney, parseMoney } from './money.js';

const accountIdParameter = (description: string) =>
  nemoParameters({ account_id: stringParam(description) });

/**
 * A tool that sets `fields` of the account with the given `account_id` and answers with the
 * changed account (NeMo's not-found answer when there is none).
 */
function accountUpdateTool(
  name: string,
  description: string,
  idDescription: string,
  fields: Record<string, string>,
) {
  return seedsEmptyAccounts(
    nemoTool({
      name,
      description,
      parameters: accountIdParameter(idDescription),
      kind: 'read',
      concurrent: false,
      execute: (args: JsonObject, context: ToolContext) => {
        const account = findAccount(context, args['account_id']);
        if (!account) return accountNotFound(args['account_id']);
        Object.assign(account, fields);
        return { success: true, account_id: args['account_id'], account };
      },
    }),
  );
}

export const lookupAccountTool = seedsAccountsFromKwargs(
  nemoTool({
    name: 'LookupAccountTool',
    description: 'Look up a customer account by account ID to retrieve their details.',
    parameters: accountIdParameter('The customer account ID to look up.'),
    kind: 'read',
    execute: (args: JsonObject, context: ToolContext) =>
      findAccount(context, args['account_id']) ?? accountNotFound(args['account_id']),
  }),
);

export const unlockAccountTool = accountUpdateTool(
  'UnlockAccountTool',
  "Unlock a customer account that has been locked due to failed login attempts. Resets account_status to 'Active' and failed_login_attempts to '0'.",
  'The customer account ID to unlock.',
  { account_status: 'Active', failed_login_attempts: '0' },
);

export const processRefundTool = seedsEmptyAccounts(
  nemoTool({
    name: 'ProcessRefundTool',
    description:
      'Issue a refund on a customer account. Appends a negative charge entry to recent_charges and reduces the account balance by the refund amount.',
    parameters: nemoParameters(
      {
        account_id: stringParam('The customer account ID to refund.'),
        amount: numberParam('The refund amount in dollars, for example 49.99.'),
        description: stringParam(
          "A short description of what is being refunded, for example 'Extended Warranty'.",
        ),
        date: stringParam('The refund date in YYYY-MM-DD format.'),
      },
      ['account_id', 'amount', 'description', 'date'],
    ),
    kind: 'read',
    concurrent: false,
    execute: (args: JsonObject, context: ToolContext) => {
      // float() comes first: a missing amount fails before the account is looked up.
      const amount = pyFloatCall(args['amount'] ?? null);
      const accountId = args['account_id'];
      const account = findAccount(context, accountId);
      if (!account) return accountNotFound(accountId);
      if (!Object.hasOwn(account, 'recent_charges')) account['recent_charges'] = [];
      const entry = {
        description: `Refund - ${pythonStr(args['description'] ?? null)}`,
        amount: formatMoney(-amount),
        date: args['date'] ?? null,
      };
      (account['recent_charges'] as JsonObject[]).push(entry);
      const balance = Object.hasOwn(account, 'balance') ? account['balance'] : '$0.00';
      account['balance'] = formatMoney(parseMoney(balance) - amount);
      return {
        success: true,
        account_id: accountId,
        refund_entry: entry,
        new_balance: account['balance'],
        account,
      };
    },
  }),
);

/** The plan table of `ChangePlanTool` (`plans` kwarg, a JSON string or a dict). */
function plansOf(options: JsonObject): Record<string, unknown> {
  const given = options['plans'] ?? '{}';
  return (typeof given === 'string' ? JSON.parse(given) : given) as Record<string, unknown>;
}

const CHANGE_PLAN_DESCRIPTION =
  "Change a customer's subscription plan. Updates both the plan name and the monthly rate based on the plan table.";

/** The schema of `ChangePlanTool` for a plan table: the plan names are listed. */
function changePlanParameters(plans: Record<string, unknown>) {
  const names = Object.keys(plans).join(', ');
  return nemoParameters(
    {
      account_id: stringParam('The customer account ID to modify.'),
      new_plan: {
        type: 'string',
        description: names ? `The new plan name. Available plans: ${names}.` : 'The new plan name.',
      },
    },
    ['account_id', 'new_plan'],
  );
}

export const changePlanTool = seedsEmptyAccounts(
  nemoTool({
    name: 'ChangePlanTool',
    description: CHANGE_PLAN_DESCRIPTION,
    parameters: changePlanParameters({}),
    describe: (options) => ({
      description:
        typeof options['description'] === 'string' && options['description']
          ? options['description']
          : CHANGE_PLAN_DESCRIPTION,
      parameters: changePlanParameters(plansOf(options)),
    }),
    kind: 'read',
    concurrent: false,
    execute: (args: JsonObject, context: ToolContext) => {
      const accountId = args['account_id'];
      const account = findAccount(context, accountId);
      if (!account) return accountNotFound(accountId);
      const plans = plansOf(context.options);
      const plan = args['new_plan'];
      if (typeof plan !== 'string' || !Object.hasOwn(plans, plan)) {
        return {
          error: `Plan '${pythonStr(plan ?? null)}' is not available. Available plans: ${pythonRepr(Object.keys(plans))}.`,
        };
      }
      account['plan'] = plan;
      account['monthly_rate'] = plans[plan];
      return {
        success: true,
        account_id: accountId,
        new_plan: plan,
        new_monthly_rate: plans[plan],
        account,
      };
    },
  }),
);

export const cancelSubscriptionTool = accountUpdateTool(
  'CancelSubscriptionTool',
  "Cancel a customer's subscription. Sets plan to 'Canceled' and monthly_rate to '$0.00'. Service remains active until the current billing cycle ends.",
  'The customer account ID to cancel.',
  { plan: 'Canceled', monthly_rate: '$0.00' },
);

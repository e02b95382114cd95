/**
 * NeMo's customer_service tools on orders and tickets: `CheckOrderStatusTool`,
 * `StartItemReturnTool`, and `ResolveTicketTool`, which pushes the resolution with the account as
 * it stands as a `<final_response>` (its `resolution_type` enum is only shown to the model, not
 * checked). Unknown extra arguments are ignored.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import {
  enumParam,
  nemoParameters,
  nemoTool,
  pushFinalResponse,
  stringParam,
} from '../../common/tool-kit.js';
import {
  accountNotFound,
  accountsOf,
  findAccount,
  findOrder,
  orderNotFound,
  seedsEmptyAccounts,
} from './accounts.js';

const orderParameters = (accountDescription: string, orderDescription: string) => ({
  account_id: stringParam(accountDescription),
  order_id: stringParam(orderDescription),
});

export const checkOrderStatusTool = seedsEmptyAccounts(
  nemoTool({
    name: 'CheckOrderStatusTool',
    description: 'Check the status of a customer order by account ID and order ID.',
    parameters: nemoParameters(
      orderParameters('The customer account ID the order belongs to.', 'The order ID to check.'),
      ['account_id', 'order_id'],
    ),
    kind: 'read',
    execute: (args: JsonObject, context: ToolContext) => {
      const account = findAccount(context, args['account_id']);
      if (!account) return accountNotFound(args['account_id']);
      return (
        findOrder(account, args['order_id']) ?? orderNotFound(args['order_id'], args['account_id'])
      );
    },
  }),
);

export const startItemReturnTool = seedsEmptyAccounts(
  nemoTool({
    name: 'StartItemReturnTool',
    description:
      "Initiate a return for a customer order. Sets the order status to 'Return Started' and records the return reason.",
    parameters: nemoParameters(
      {
        ...orderParameters(
          'The customer account ID the order belongs to.',
          'The order ID to start a return for.',
        ),
        reason: stringParam(
          "A short reason for the return, for example 'defective' or 'wrong item'.",
        ),
      },
      ['account_id', 'order_id', 'reason'],
    ),
    kind: 'read',
    concurrent: false,
    execute: (args: JsonObject, context: ToolContext) => {
      const account = findAccount(context, args['account_id']);
      if (!account) return accountNotFound(args['account_id']);
      const order = findOrder(account, args['order_id']);
      if (!order) return orderNotFound(args['order_id'], args['account_id']);
      order['status'] = 'Return Started';
      order['return_reason'] = args['reason'] ?? null;
      return {
        success: true,
        account_id: args['account_id'],
        order_id: args['order_id'],
        order,
      };
    },
  }),
);

const RESOLUTION_TYPES = ['refund', 'replacement', 'information', 'escalation', 'account_change'];
const RESOLVE_DESCRIPTION =
  "Resolve the customer's issue and log the resolution. Use this after the issue has been fully resolved.";

/** The schema of `ResolveTicketTool` for its `resolution_types` kwarg. */
function resolveParameters(types: readonly string[]) {
  return nemoParameters(
    {
      account_id: stringParam("The customer's account ID."),
      issue_summary: stringParam("Brief summary of the customer's issue."),
      resolution_type: enumParam(
        types,
        `Type of resolution applied. Must be exactly one of: ${types.join(', ')}.`,
      ),
      resolution_details: stringParam('Details of how the issue was resolved.'),
    },
    ['account_id', 'issue_summary', 'resolution_type', 'resolution_details'],
  );
}

export const resolveTicketTool = nemoTool({
  name: 'ResolveTicketTool',
  description: RESOLVE_DESCRIPTION,
  parameters: resolveParameters(RESOLUTION_TYPES),
  describe: (options) => {
    const given = options['resolution_types'];
    const types = Array.isArray(given) && given.length > 0 ? given.map(String) : RESOLUTION_TYPES;
    return {
      description:
        typeof options['description'] === 'string' && options['description']
          ? options['description']
          : RESOLVE_DESCRIPTION,
      parameters: resolveParameters(types),
    };
  },
  kind: 'read',
  execute: (args: JsonObject, context: ToolContext) => {
    const accountId = args['account_id'] ?? null;
    const account =
      typeof accountId === 'string' && Object.hasOwn(accountsOf(context), accountId)
        ? accountsOf(context)[accountId]
        : {};
    pushFinalResponse(context, {
      issue_summary: args['issue_summary'] ?? null,
      resolution_type: args['resolution_type'] ?? null,
      resolution_details: args['resolution_details'] ?? null,
      account_id: accountId,
      account,
    });
    return { success: true, message: 'Ticket resolved successfully.' };
  },
});

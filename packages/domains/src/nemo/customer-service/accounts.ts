/**
 * The accounts customer_service tools share (`shared_state['accounts']`, `{account_id: account}`)
 * and the errors they give for an unknown account or order.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition } from '@scenaro/agent/scenario';
import { pythonStr } from '@scenaro/agent/python';
import { seedsSharedState } from '../common/construction-state.js';

/** A customer account. */
export type Account = JsonObject;

/** The shared accounts (seeded by the first-bound tool that seeds them), or `{}`. */
export function accountsOf(context: ToolContext): Record<string, Account> {
  return (context.state.shared['accounts'] ?? {}) as Record<string, Account>;
}

/** Seed `accounts` from the tool's own kwargs (`LookupAccountTool`), a JSON string or a dict. */
export function seedsAccountsFromKwargs(tool: ToolDefinition): ToolDefinition {
  return seedsSharedState(tool, {
    accounts: (options) => {
      const given = options['accounts'] ?? '{}';
      return typeof given === 'string' ? (JSON.parse(given) as unknown) : structuredClone(given);
    },
  });
}

/** Seed `accounts` empty when the tool is built first (every other account tool). */
export function seedsEmptyAccounts(tool: ToolDefinition): ToolDefinition {
  return seedsSharedState(tool, { accounts: () => ({}) });
}

/** `accounts[account_id]`, when present. */
export function findAccount(context: ToolContext, accountId: unknown): Account | undefined {
  const accounts = accountsOf(context);
  if (typeof accountId !== 'string' || !Object.hasOwn(accounts, accountId)) return undefined;
  return accounts[accountId];
}

/** `{"error": "Account '<id>' not found."}` */
export const accountNotFound = (accountId: unknown): JsonObject => ({
  error: `Account '${pythonStr(accountId ?? null)}' not found.`,
});

/** `{"error": "Order '<order>' not found for account '<id>'."}` */
export const orderNotFound = (orderId: unknown, accountId: unknown): JsonObject => ({
  error: `Order '${pythonStr(orderId ?? null)}' not found for account '${pythonStr(accountId ?? null)}'.`,
});

/** `account.get('orders', {})[order_id]`, when present. */
export function findOrder(account: Account, orderId: unknown): JsonObject | undefined {
  const orders = (Object.hasOwn(account, 'orders') ? account['orders'] : {}) as Record<
    string,
    JsonObject
  >;
  if (typeof orderId !== 'string' || !Object.hasOwn(orders, orderId)) return undefined;
  return orders[orderId];
}

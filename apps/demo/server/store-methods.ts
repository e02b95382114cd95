/**
 * The page's store calls on a bot session: reads and the shopper's own cart and selection
 * edits, each run as a commerce tool call on that session's db (write calls are recorded as
 * actions and pushed as `action-applied`, like the agent's). Refusals go back to the page as
 * `{ok: false, error}`.
 */
import { executeToolByName } from '@scenaro/agent/scenario';
import type { BotSession } from '@scenaro/agent';
import type { JsonObject } from '@scenaro/agent/scenario';
import { isJsonObject } from '@scenaro/sdk/util';
import { DEMO_METHODS } from '../shared/demo-protocol.js';

/** A refused store call: its message goes back to the page. */
class StoreRefusal extends Error {}

/** The fields of a product's details that a grid card needs. */
function summaryOf(details: JsonObject): JsonObject {
  const keys = ['product_id', 'name', 'brand', 'category', 'price', 'rating', 'review_count'];
  const summary: JsonObject = Object.fromEntries(keys.map((k) => [k, details[k]]));
  summary['in_stock'] = details['in_stock'];
  const variants = details['variants'];
  if (Array.isArray(variants)) {
    const options: Record<string, string[]> = {};
    for (const variant of variants) {
      if (!isJsonObject(variant)) continue;
      for (const key of ['color', 'size', 'storage', 'switch']) {
        const value = variant[key];
        if (typeof value !== 'string') continue;
        const list = (options[key] ??= []);
        if (!list.includes(value)) list.push(value);
      }
    }
    summary['options'] = options;
  }
  return summary;
}

function productIds(args: JsonObject, max: number): string[] {
  const ids = args['product_ids'];
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > max ||
    !ids.every((id) => typeof id === 'string')
  ) {
    throw new StoreRefusal(`product_ids must be 1 to ${max} product ids`);
  }
  return ids as string[];
}

/** Register the {@link DEMO_METHODS} on `session`; each waits for `ready` (the store's db). */
export function registerStoreMethods(session: BotSession, ready: Promise<void>): void {
  const tool = async (name: string, args: JsonObject): Promise<unknown> => {
    const outcome = await executeToolByName(session.state, name, args, {
      signal: session.signal,
      onAction: (action, domain) => session.actionApplied(action, domain),
    });
    if (!outcome.ok) throw new StoreRefusal(outcome.error ?? `${name} failed`);
    return outcome.result;
  };
  const method = (name: string, run: (args: JsonObject) => Promise<JsonObject>) => {
    session.rpc.registerMethod(name, async ({ payload }) => {
      await ready;
      try {
        const args: unknown = payload.trim() === '' ? {} : JSON.parse(payload);
        if (!isJsonObject(args)) throw new StoreRefusal('the payload must be a JSON object');
        return JSON.stringify({ ok: true, ...(await run(args)) });
      } catch (err) {
        if (!(err instanceof StoreRefusal) && !(err instanceof SyntaxError)) throw err;
        return JSON.stringify({ ok: false, error: err.message });
      }
    });
  };
  const pick = (args: JsonObject, keys: string[]): JsonObject =>
    Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

  method(DEMO_METHODS.STATE, async () => ({
    cart: await tool('get_cart', {}),
    selection: await tool('get_selection', {}),
  }));
  method(DEMO_METHODS.PRODUCTS, async (args) => {
    const products: JsonObject[] = [];
    for (const id of productIds(args, 12)) {
      products.push(
        summaryOf((await tool('get_product_details', { product_id: id })) as JsonObject),
      );
    }
    return { products };
  });
  method(DEMO_METHODS.PRODUCT, async (args) => ({
    product: await tool('get_product_details', pick(args, ['product_id'])),
  }));
  method(DEMO_METHODS.COMPARE, async (args) => ({
    comparison: await tool('compare_products', { product_ids: productIds(args, 4) }),
  }));
  method(DEMO_METHODS.CART_ADD, async (args) => {
    const result = (await tool('add_to_cart', pick(args, ['product_id', 'sku', 'quantity']))) as {
      cart: unknown;
    };
    return { cart: result.cart };
  });
  method(DEMO_METHODS.CART_UPDATE, async (args) => ({
    cart: await tool('update_cart_quantity', pick(args, ['sku', 'quantity'])),
  }));
  method(DEMO_METHODS.CART_REMOVE, async (args) => ({
    cart: await tool('remove_from_cart', pick(args, ['sku'])),
  }));
  method(DEMO_METHODS.SELECTION_ADD, async (args) => ({
    selection: await tool('add_to_selection', pick(args, ['product_id'])),
  }));
  method(DEMO_METHODS.SELECTION_REMOVE, async (args) => ({
    selection: await tool('remove_from_selection', pick(args, ['product_id'])),
  }));
}

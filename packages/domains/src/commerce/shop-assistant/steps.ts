/**
 * The step handlers of the scripted shop assistant, one per kind of request. A handler is called
 * once per model call of a turn: it first asks for the tool calls the request needs, then, with
 * their results in the context, says what happened.
 *
 * @module
 */
import type { JsonObject } from '@scenaro/agent/scenario';
import type { CartView } from '../model/cart.js';
import { findProduct, isInStock, optionValues } from '../model/catalog.js';
import { queryCoverage } from '../model/search.js';
import { VARIANT_OPTION_KEYS } from '../model/db-types.js';
import type { CommerceDb, Product, User } from '../model/db-types.js';
import { isCartView } from './context.js';
import type { Exchange, Memory } from './context.js';
import { bestNameMatches, firstOrdinal, resolveProducts } from './references.js';
import {
  cartSummary,
  describeCart,
  HELP_TEXT,
  lineLabel,
  listWords,
  money,
  NOT_UNDERSTOOD,
  PAYMENT_QUESTION,
  productLine,
} from './replies.js';
import type { ShopperRequest } from './request.js';
import { chooseVariant, describeVariant } from './variants.js';

/** The signed-in shopper, if any. */
function userOf(db: CommerceDb): User | undefined {
  const id = db.session?.user_id;
  return id === undefined ? undefined : db.users.find((u) => u.id === id);
}

/** One model call's answer: text and/or tool calls. */
export interface ShopAssistantStep {
  text: string;
  calls?: { name: string; arguments: JsonObject }[];
}
export type Step = ShopAssistantStep;
type Call = NonNullable<Step['calls']>[number];

/** A step that only talks. */
export const say = (text: string): Step => ({ text });

/** What a step handler decides from. */
export interface TurnInput {
  text: string;
  request: ShopperRequest;
  done: Exchange[];
  memory: Memory;
  db: CommerceDb;
  maxResults: number;
}

function searchStep({ request, done, db, maxResults }: TurnInput): Step {
  if (request.kind !== 'search') return say(NOT_UNDERSTOOD);
  const { search } = request;
  const found = done.find((e) => e.name === 'search_products');
  if (!found) {
    return {
      text: `Searching for ${search.label}...`,
      calls: [{ name: 'search_products', arguments: { ...search.args, limit: maxResults } }],
    };
  }
  if (!found.ok) return say(`The search failed: ${found.error ?? 'unknown error'}.`);
  const query = search.args['query'];
  const coverage = typeof query === 'string' ? queryCoverage(db, query) : undefined;
  if (coverage && coverage.unknown.length > 0 && coverage.naming.length === 0) {
    // Goods the store lacks ("red wine"): products that only share a word with them ("red") are no answer.
    const categories = [...new Set(db.products.map((p) => p.category))].sort();
    return say(`I found no ${search.label} here. This store sells ${listWords(categories)}.`);
  }
  const result = found.result as { total_matches?: number; results?: { product_id: string }[] };
  const ids = (result.results ?? []).map((r) => r.product_id);
  if (ids.length === 0) {
    return say(
      `I found nothing for ${search.label}. Try other words, another category or a wider price range.`,
    );
  }
  const shown = done.find((e) => e.name === 'show_products');
  if (!shown) {
    const plain = search.label.replace(/"/g, '');
    const title = `${plain.charAt(0).toUpperCase()}${plain.slice(1)}`;
    return {
      text: '',
      calls: [
        { name: 'show_products', arguments: { product_ids: ids, title: title.slice(0, 120) } },
      ],
    };
  }
  const total = result.total_matches ?? ids.length;
  const list = ids.map((id, i) => `${i + 1}. ${productLine(findProduct(db, id))}`).join('\n');
  const head =
    total > ids.length
      ? `I found ${total} products for ${search.label}; here are the best ${ids.length}`
      : `I found ${total} product${total === 1 ? '' : 's'} for ${search.label}`;
  if (!shown.ok) {
    return say(
      `${head}, but I could not show them on the page (${shown.error ?? 'no answer'}):\n${list}`,
    );
  }
  return say(
    `${head}, now on the page:\n${list}\nSay "show the first one", "compare the first two" or "add the first one to my cart".`,
  );
}

function showStep({ text, done, memory, db }: TurnInput): Step {
  const shown = done.find((e) => e.name === 'show_product');
  if (!shown) {
    const resolved = resolveProducts(text, memory, db, { allowBareNumbers: true });
    if (!resolved.ok) return say(resolved.message);
    return {
      text: '',
      calls: [{ name: 'show_product', arguments: { product_id: resolved.ids[0] as string } }],
    };
  }
  const product = findProduct(db, String(shown.args['product_id']));
  if (!shown.ok)
    return say(`I could not show the ${product.name} on the page (${shown.error ?? 'no answer'}).`);
  const values = optionValues(product);
  const options = VARIANT_OPTION_KEYS.filter((k) => values[k] !== undefined)
    .map((k) => `${k} ${listWords(values[k] ?? [])}`)
    .join('; ');
  return say(
    `Here is the ${product.name} by ${product.brand}: ${money(product.price)}, rated ${product.rating} out of 5 by ${product.review_count} reviewers. ${product.description}` +
      (options ? ` It comes in ${options}.` : '') +
      (isInStock(product) ? '' : ' It is sold out at the moment.'),
  );
}

function compareStep({ text, done, memory, db }: TurnInput): Step {
  const shown = done.find((e) => e.name === 'show_comparison');
  if (!shown) {
    const resolved = resolveProducts(text, memory, db, { allowBareNumbers: true, all: true });
    if (!resolved.ok) return say(resolved.message);
    if (resolved.ids.length < 2)
      return say(
        'Tell me at least two products to compare, for example "compare the first two" or "compare 1 and 3".',
      );
    if (resolved.ids.length > 4) return say('I can compare at most four products at once.');
    return {
      text: '',
      calls: [{ name: 'show_comparison', arguments: { product_ids: resolved.ids } }],
    };
  }
  const ids = (shown.args['product_ids'] as string[] | undefined) ?? [];
  const products = ids.map((id) => findProduct(db, id));
  if (!shown.ok)
    return say(`I could not show the comparison on the page (${shown.error ?? 'no answer'}).`);
  const cheapest = [...products].sort((a, b) => a.price - b.price)[0] as Product;
  const best = [...products].sort((a, b) => b.rating - a.rating)[0] as Product;
  return say(
    `The comparison of ${listWords(products.map((p) => p.name))} is on the page. The cheapest is the ${cheapest.name} at ${money(cheapest.price)}; the best rated is the ${best.name} (${best.rating} out of 5).`,
  );
}

function addStep({ text, request, done, memory, db }: TurnInput): Step {
  if (request.kind !== 'add') return say(NOT_UNDERSTOOD);
  const tool = request.target === 'cart' ? 'add_to_cart' : 'add_to_selection';
  const adds = done.filter((e) => e.name === tool);
  const asked = done.find((e) => e.name === 'show_product');
  if (adds.length === 0 && !asked) {
    const resolved = resolveProducts(text, memory, db, { allowBareNumbers: false });
    if (!resolved.ok) return say(resolved.message);
    if (request.target === 'selection') {
      return {
        text: '',
        calls: resolved.ids.map((id) => ({ name: tool, arguments: { product_id: id } })),
      };
    }
    const calls: Call[] = [];
    for (const id of resolved.ids) {
      const product = findProduct(db, id);
      const variant = chooseVariant(product, text, db);
      if (!variant.ok) {
        // Open the product so the shopper sees its options, and ask.
        return {
          text: variant.message,
          calls: [{ name: 'show_product', arguments: { product_id: id } }],
        };
      }
      calls.push({
        name: tool,
        arguments: {
          product_id: id,
          ...(variant.sku === undefined ? {} : { sku: variant.sku }),
          quantity: request.quantity,
        },
      });
    }
    return { text: '', calls };
  }
  if (adds.length === 0) return say(''); // the question was asked with the show_product call
  const lines: string[] = [];
  let cart: CartView | undefined;
  for (const add of adds) {
    const product = findProduct(db, String(add.args['product_id']));
    if (!add.ok) {
      lines.push(`I could not add the ${product.name}: ${add.error ?? 'unknown error'}`);
      continue;
    }
    if (request.target === 'selection') {
      lines.push(`Saved the ${product.name} to your selection.`);
      continue;
    }
    const result = add.result as { added?: { sku: string; quantity: number }; cart?: unknown };
    if (isCartView(result.cart)) cart = result.cart;
    const line = cart?.items.find((l) => l.sku === result.added?.sku);
    lines.push(
      `Added ${result.added?.quantity ?? 1} x ${line ? lineLabel(line) : product.name} to your cart.`,
    );
  }
  if (cart) lines.push(cartSummary(cart));
  if (request.target === 'selection') {
    const last = [...adds].reverse().find((a) => a.ok)?.result as { count?: number } | undefined;
    if (last?.count !== undefined)
      lines.push(`Your selection has ${last.count} product${last.count === 1 ? '' : 's'}.`);
  }
  return say(lines.join(' '));
}

function removeStep({ text, request, done, memory, db }: TurnInput): Step {
  if (request.kind !== 'remove') return say(NOT_UNDERSTOOD);
  const user = userOf(db);
  if (!user) return say('Nobody is signed in, so there is no cart or selection to change.');
  if (request.target === 'selection') {
    const removes = done.filter((e) => e.name === 'remove_from_selection');
    if (removes.length === 0) {
      const ids = user.selection.product_ids;
      if (ids.length === 0) return say('Your selection is already empty.');
      const everything = /\b(everything|all|whole)\b/.test(text);
      let targets: string[];
      if (everything) targets = [...ids];
      else {
        const fromList = resolveProducts(text, memory, db, { allowBareNumbers: false });
        const named = bestNameMatches(
          text,
          ids.map((id) => findProduct(db, id)),
        );
        targets =
          fromList.ok && fromList.ids.every((id) => ids.includes(id))
            ? fromList.ids
            : named.length === 1
              ? [(named[0] as Product).id]
              : [];
      }
      if (targets.length === 0)
        return say(
          'Which product should I remove from your selection? Name it, for example "remove the earbuds from my selection".',
        );
      return {
        text: '',
        calls: targets.map((id) => ({
          name: 'remove_from_selection',
          arguments: { product_id: id },
        })),
      };
    }
    const failed = removes.filter((r) => !r.ok);
    const names = removes
      .filter((r) => r.ok)
      .map((r) => findProduct(db, String(r.args['product_id'])).name);
    return say(
      [
        names.length > 0 ? `Removed ${listWords(names)} from your selection.` : '',
        ...failed.map((f) => `That did not work: ${f.error ?? 'unknown error'}`),
      ]
        .filter(Boolean)
        .join(' '),
    );
  }
  const removes = done.filter((e) => e.name === 'remove_from_cart');
  if (removes.length === 0) {
    const lines = user.cart.items;
    if (lines.length === 0) return say('Your cart is already empty.');
    let skus: string[] = [];
    const sku = /\b[a-z]{3}-\d{4}(?:-[a-z0-9]+)*\b/.exec(text)?.[0]?.toUpperCase();
    if (/\b(everything|all|whole|empty)\b/.test(text)) skus = lines.map((l) => l.sku);
    else if (sku) skus = [sku];
    else {
      const fromList = resolveProducts(text, memory, db, { allowBareNumbers: false });
      if (fromList.ok) {
        skus = lines.filter((l) => fromList.ids.includes(l.product_id)).map((l) => l.sku);
        if (skus.length === 0) {
          // "the second one" of the cart itself.
          const n = firstOrdinal(text, lines.length);
          const line = n >= 1 ? lines[n - 1] : undefined;
          if (line) skus = [line.sku];
        }
      }
      if (skus.length === 0) {
        const named = bestNameMatches(
          text,
          lines.map((l) => ({ ...findProduct(db, l.product_id), sku: l.sku })),
        );
        const products = new Set(named.map((n) => n.id));
        if (products.size === 1) skus = named.map((n) => n.sku);
      }
    }
    if (skus.length === 0)
      return say(
        'Which item should I remove from your cart? Name it, for example "remove the earbuds from my cart", or say "remove everything from my cart".',
      );
    return {
      text: '',
      calls: skus.map((s) => ({ name: 'remove_from_cart', arguments: { sku: s } })),
    };
  }
  const parts: string[] = [];
  let cart: CartView | undefined;
  const removed: string[] = [];
  for (const remove of removes) {
    if (!remove.ok) {
      parts.push(
        `I could not remove ${String(remove.args['sku'])}: ${remove.error ?? 'unknown error'}`,
      );
      continue;
    }
    if (isCartView(remove.result)) cart = remove.result;
    const product = db.products.find((p) =>
      p.variants.length === 0
        ? (p.sku ?? p.id) === remove.args['sku']
        : p.variants.some((v) => v.sku === remove.args['sku']),
    );
    const variant = product?.variants.find((v) => v.sku === remove.args['sku']);
    removed.push(
      product
        ? `the ${product.name}${variant ? ` (${describeVariant(variant)})` : ''}`
        : String(remove.args['sku']),
    );
  }
  if (removed.length > 0) parts.unshift(`Removed ${listWords(removed)} from your cart.`);
  if (cart) parts.push(cartSummary(cart));
  return say(parts.join(' '));
}

function cartStep({ done }: TurnInput): Step {
  const got = done.find((e) => e.name === 'get_cart');
  if (!got) return { text: '', calls: [{ name: 'get_cart', arguments: {} }] };
  if (!got.ok || !isCartView(got.result))
    return say(`I could not read your cart: ${got.error ?? 'unexpected answer'}.`);
  return say(describeCart(got.result));
}

function selectionStep({ done, db }: TurnInput): Step {
  const got = done.find((e) => e.name === 'get_selection');
  if (!got) return { text: '', calls: [{ name: 'get_selection', arguments: {} }] };
  if (!got.ok) return say(`I could not read your selection: ${got.error ?? 'unknown error'}.`);
  const ids = ((got.result as { product_ids?: string[] }).product_ids ?? []).filter((id) =>
    db.products.some((p) => p.id === id),
  );
  if (ids.length === 0) return say('Your selection is empty.');
  return say(
    `Your selection has ${ids.length} product${ids.length === 1 ? '' : 's'}:\n${ids
      .map((id) => `- ${productLine(findProduct(db, id))}`)
      .join('\n')}`,
  );
}

interface PaymentMethodView {
  id: string;
  type: string;
  brand?: string;
  balance?: number;
  description?: string;
}

function checkoutStep({ text, done, db }: TurnInput): Step {
  const details = done.find((e) => e.name === 'get_user_details');
  const placed = done.find((e) => e.name === 'place_order');
  if (!details) {
    const user = userOf(db);
    if (user && user.cart.items.length === 0)
      return say('Your cart is empty, so there is nothing to check out yet.');
    return { text: '', calls: [{ name: 'get_user_details', arguments: {} }] };
  }
  if (!details.ok) return say(`I could not check out: ${details.error ?? 'unknown error'}.`);
  if (!placed) {
    const account = details.result as {
      payment_methods?: PaymentMethodView[];
      addresses?: { id: string; label: string }[];
      cart_item_count?: number;
    };
    if (account.cart_item_count === 0)
      return say('Your cart is empty, so there is nothing to check out yet.');
    const methods = account.payment_methods ?? [];
    const brand = /\b(visa|mastercard|amex)\b/.exec(text)?.[1];
    const wanted = /\bgift\b/.test(text)
      ? methods.filter((m) => m.type === 'gift_card')
      : /\bpaypal\b/.test(text)
        ? methods.filter((m) => m.type === 'paypal')
        : /\b(card|visa|mastercard|amex|credit|debit)\b/.test(text)
          ? methods.filter((m) => m.type === 'card' && (!brand || m.brand === brand))
          : methods.length === 1
            ? methods
            : [];
    const method = wanted[0];
    if (!method) {
      const options = methods.map((m) => m.description ?? m.id);
      return say(
        `${PAYMENT_QUESTION} You have ${listWords(options)}. Say for example "checkout with my card".`,
      );
    }
    const addresses = account.addresses ?? [];
    const address =
      addresses.find((a) => text.includes(a.label.toLowerCase().replace(/'/g, ''))) ?? addresses[0];
    if (!address) return say('You have no shipping address on file, so I cannot check out.');
    return {
      text: '',
      calls: [
        {
          name: 'place_order',
          arguments: { payment_method_id: method.id, shipping_address_id: address.id },
        },
      ],
    };
  }
  if (!placed.ok) return say(`The order was not placed: ${placed.error ?? 'unknown error'}`);
  const order = placed.result as {
    order_id?: string;
    total?: number;
    payment_method?: string;
    shipping_address?: string;
    items?: { quantity: number }[];
  };
  const count = (order.items ?? []).reduce((n, i) => n + i.quantity, 0);
  return say(
    `Done: order ${order.order_id ?? ''} is placed for ${count} item${count === 1 ? '' : 's'}, total ${money(order.total ?? 0)}, paid with your ${order.payment_method ?? 'payment method'} and shipped to ${order.shipping_address ?? 'your address'}. Your cart is now empty.`,
  );
}

/** The step handler of each kind of request. */
export const STEPS: Readonly<Record<ShopperRequest['kind'], (input: TurnInput) => Step>> = {
  help: () => say(HELP_TEXT),
  unknown: () => say(NOT_UNDERSTOOD),
  search: searchStep,
  show: showStep,
  compare: compareStep,
  add: addStep,
  remove: removeStep,
  cart: cartStep,
  selection: selectionStep,
  checkout: checkoutStep,
};

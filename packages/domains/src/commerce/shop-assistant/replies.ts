/**
 * What the scripted shop assistant says: its fixed texts, and tool results put into words.
 *
 * @module
 */
import type { CartLineView, CartView } from '../model/cart.js';
import { isInStock } from '../model/catalog.js';
import type { Product } from '../model/db-types.js';

/** What the assistant says first, once per conversation. */
export const SHOP_ASSISTANT_GREETING =
  "Hi! I'm the scripted shop assistant of this demo store: a simple script, not a language model, so I only understand a few kinds of requests.";

/** The requests the assistant understands, as it lists them to the shopper. */
export const SHOP_ASSISTANT_CAPABILITIES = [
  'search: "show me headphones under $100", "find running shoes between $50 and $120", "laptops in stock"',
  'look closer: "show product 3", "show the first one"',
  'compare: "compare the first two", "compare 1 and 3"',
  'add: "add the first one to my cart", "add 2 of them", "add it in black", "save the second one to my selection"',
  'remove: "remove the earbuds from my cart", "remove everything from my cart"',
  'review: "what\'s in my cart", "what\'s in my selection"',
  'check out: "checkout with my card" (or gift card, PayPal)',
] as const;

/** The list of requests, as the assistant gives it. */
export const HELP_TEXT = `Here is what I can do:\n${SHOP_ASSISTANT_CAPABILITIES.map((c) => `- ${c}`).join('\n')}`;

/** The answer to a request the assistant does not understand. */
export const NOT_UNDERSTOOD = `Sorry, I did not understand that. I am a scripted assistant, not a language model. ${HELP_TEXT}`;

/** The question that makes a following "my card" or "PayPal" a checkout. */
export const PAYMENT_QUESTION = 'How would you like to pay?';

/** `$99.50`. */
export function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/** `$100`, `$99.50`. */
export function roundMoney(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : money(amount);
}

/** `a, b and c` (or another conjunction). */
export function listWords(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1) as string}`;
}

/** A product as one line of a list: name, price, rating, stock. */
export function productLine(product: Product): string {
  const stock = isInStock(product) ? '' : ', sold out';
  return `${product.name}, ${money(product.price)}${product.variants.length > 0 ? ' and up' : ''} (rated ${product.rating}/5${stock})`;
}

/** A cart line's name with its options: `Trail Shoe (color black, size US 9)`. */
export function lineLabel(line: CartLineView): string {
  const options = Object.entries(line.options)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return options ? `${line.name} (${options})` : line.name;
}

/** One sentence on the cart after a change. */
export function cartSummary(cart: CartView): string {
  if (cart.items.length === 0) return 'Your cart is now empty.';
  return `Your cart now has ${cart.item_count} item${cart.item_count === 1 ? '' : 's'}, total ${money(cart.total)} with tax.`;
}

/** The whole cart, line by line, with its totals. */
export function describeCart(cart: CartView): string {
  if (cart.items.length === 0) return 'Your cart is empty.';
  const lines = cart.items.map(
    (l) => `- ${l.quantity} x ${lineLabel(l)}, ${money(l.unit_price)} each`,
  );
  return `Your cart has ${cart.item_count} item${cart.item_count === 1 ? '' : 's'}:\n${lines.join('\n')}\nSubtotal ${money(cart.subtotal)}, tax ${money(cart.tax)}, total ${money(cart.total)}.`;
}

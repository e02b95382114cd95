/**
 * The scripted shop assistant: an offline stand-in for a language model in the storefront demo.
 * It understands a small, documented set of requests (the "Shop assistant (scripted)" section
 * of `SCENARIOS.md`), acts only through the commerce tools (the frontend `show_*` tools for
 * display), tells the shopper what it did from the tool results, and says plainly that it is a
 * script, not a language model, in its greeting and whenever it does not understand.
 *
 * It is labelled as scripted everywhere (processor `ScriptedShopAssistant`, model
 * `scripted:shop-assistant`, `scripted: true`), like the other scripted policies.
 *
 * @module
 */
import type {
  ChatModel,
  ChatRequest,
  ChatStreamEvent,
  ContextMessage,
  ConversationHost,
  JsonObject,
} from '@scenaro/agent';
import { streamScriptedReply } from '@scenaro/agent';
import { findProduct, isInStock, optionValues } from './catalog.js';
import type { CartLineView, CartView } from './cart.js';
import { asCommerceDb, VARIANT_OPTION_KEYS } from './db-types.js';
import type { CommerceDb, Product, User, Variant, VariantOptionKey } from './db-types.js';
import { searchProducts, tokenize } from './search.js';

/** Options of {@link createShopAssistantModel}. */
export interface ShopAssistantOptions {
  /** Most products one search shows. @default 6 */
  maxResults?: number;
}

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

const HELP_TEXT = `Here is what I can do:\n${SHOP_ASSISTANT_CAPABILITIES.map((c) => `- ${c}`).join('\n')}`;

const NOT_UNDERSTOOD = `Sorry, I did not understand that. I am a scripted assistant, not a language model. ${HELP_TEXT}`;

const PAYMENT_QUESTION = 'How would you like to pay?';

// ---------------------------------------------------------------------------------------------
// Reading the context
// ---------------------------------------------------------------------------------------------

/** One tool call of the current turn with its result. */
interface Exchange {
  name: string;
  args: JsonObject;
  ok: boolean;
  /** The parsed result the model was given. */
  result: unknown;
  /** Why it failed, when it did. */
  error?: string;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A tool result's failure: `{error}` from the bot, or a non-SUCCESS `RpcToolResponse` from the browser. */
function failureOf(result: unknown): string | undefined {
  if (!isObject(result)) return undefined;
  if (typeof result['error'] === 'string') return result['error'];
  const code = result['code'];
  if (typeof code === 'string' && code !== 'SUCCESS' && 'requestId' in result) {
    const data = result['data'];
    const message = isObject(data) && typeof data['message'] === 'string' ? data['message'] : '';
    return message ? `${code}: ${message}` : code;
  }
  return undefined;
}

function lastUserIndex(messages: readonly ContextMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i;
  return -1;
}

/** The tool calls (and results) of a slice of the context, in order. */
function exchangesOf(messages: readonly ContextMessage[]): Exchange[] {
  const out: Exchange[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      const answer = messages.find((m) => m.role === 'tool' && m.tool_call_id === call.id);
      const args = parseJson(call.function.arguments);
      const result = answer?.role === 'tool' ? parseJson(answer.content) : undefined;
      const error = answer ? failureOf(result) : 'no result';
      out.push({
        name: call.function.name,
        args: isObject(args) ? args : {},
        ok: error === undefined,
        result,
        ...(error === undefined ? {} : { error }),
      });
    }
  }
  return out;
}

/** What earlier turns established: the products last listed (numbered) and the one in focus. */
interface Memory {
  /** Product ids of the latest search, in the order they were shown and numbered. */
  grid: string[];
  /** The product the shopper last singled out (shown, added). */
  focus?: string;
}

function memoryOf(messages: readonly ContextMessage[]): Memory {
  const memory: Memory = { grid: [] };
  for (const exchange of exchangesOf(messages)) {
    if (!exchange.ok) continue;
    if (exchange.name === 'search_products' && isObject(exchange.result)) {
      const results = exchange.result['results'];
      if (Array.isArray(results) && results.length > 0) {
        memory.grid = results.flatMap((r) =>
          isObject(r) && typeof r['product_id'] === 'string' ? [r['product_id']] : [],
        );
      }
    } else if (exchange.name === 'show_products') {
      const ids = exchange.args['product_ids'];
      if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) memory.grid = ids;
    } else if (exchange.name === 'show_product' || exchange.name === 'add_to_cart') {
      const id = exchange.args['product_id'];
      if (typeof id === 'string') memory.focus = id;
    }
  }
  return memory;
}

function previousAssistantText(messages: readonly ContextMessage[], before: number): string {
  for (let i = before - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return '';
    if (m?.role === 'assistant' && typeof m.content === 'string' && m.content) return m.content;
  }
  return '';
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  '6th': 6,
  '7th': 7,
  '8th': 8,
  '9th': 9,
  '10th': 10,
};

const NUMBER = String.raw`(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)`;
const PRICE = String.raw`\$?\s*(\d+(?:\.\d{1,2})?)\s*(?:dollars?|usd|bucks)?`;

function toNumber(word: string): number {
  return NUMBER_WORDS[word] ?? Number(word);
}

/** Lower case, apostrophes dropped, `256 gb` joined, spaces collapsed. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/(\d+)\s*(gb|tb)\b/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

function money(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/** `$100`, `$99.50`. */
function roundMoney(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : money(amount);
}

function listWords(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1) as string}`;
}

const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  laptop: 'laptops',
  notebook: 'laptops',
  phone: 'phones',
  smartphone: 'phones',
  smartphones: 'phones',
  shoe: 'shoes',
  outdoors: 'outdoor',
  clothes: 'apparel',
  clothing: 'apparel',
  games: 'gaming',
  game: 'gaming',
};

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** `search_products` arguments plus a label for what was asked. */
interface SearchRequest {
  args: JsonObject;
  label: string;
}

type Request =
  | { kind: 'help' }
  | { kind: 'unknown' }
  | { kind: 'search'; search: SearchRequest }
  | { kind: 'show' }
  | { kind: 'compare' }
  | { kind: 'add'; target: 'cart' | 'selection'; quantity: number }
  | { kind: 'remove'; target: 'cart' | 'selection' }
  | { kind: 'cart' }
  | { kind: 'selection' }
  | { kind: 'checkout' };

const SEARCH_VERB =
  /\b(show|find|search|look(?:ing)? for|do you (?:have|sell|carry)|have you got|i (?:want|need)|recommend|get me|any)\b/;

/** Parse price, stock and category filters and the remaining words of a search. */
function parseSearch(text: string, db: CommerceDb): SearchRequest | undefined {
  let rest = ` ${text} `;
  const args: JsonObject = {};
  const labels: string[] = [];
  const take = (pattern: RegExp, apply: (m: RegExpExecArray) => void): void => {
    const m = pattern.exec(rest);
    if (!m) return;
    apply(m);
    rest = rest.replace(m[0], ' ');
  };
  take(new RegExp(String.raw`\b(?:between|from)\s+${PRICE}\s*(?:and|to|-)\s*${PRICE}`), (m) => {
    args['min_price'] = Number(m[1]);
    args['max_price'] = Number(m[2]);
  });
  take(new RegExp(String.raw`\$\s*(\d+(?:\.\d{1,2})?)\s*(?:-|to)\s*${PRICE}`), (m) => {
    args['min_price'] = Number(m[1]);
    args['max_price'] = Number(m[2]);
  });
  take(
    new RegExp(
      String.raw`\b(?:under|below|less than|cheaper than|up to|at most|max(?:imum)?|no more than|within)\s+${PRICE}`,
    ),
    (m) => (args['max_price'] = Number(m[1])),
  );
  take(
    new RegExp(String.raw`\b(?:over|above|more than|at least|from|starting at)\s+${PRICE}`),
    (m) => (args['min_price'] = Number(m[1])),
  );
  take(/\b(?:in[- ]stock|available)\b/, () => (args['in_stock_only'] = true));
  const categories = new Set(db.products.map((p) => p.category));
  const categoryOf = (word: string): string | undefined => {
    const name = CATEGORY_ALIASES[word] ?? word;
    return categories.has(name) ? name : undefined;
  };
  take(/\bin (?:the )?([a-z]+)(?: category| section| department)?\b/, (m) => {
    const category = categoryOf(m[1] as string);
    if (category) args['category'] = category;
    else rest = `${rest} ${m[0]}`; // not a category: keep the words
  });
  rest = rest
    .replace(
      /\b(?:hi|hello|hey|help me|help|please|can you|could you|would you|show me|show|find me|find|search for|search|look(?:ing)? for|im|i am|i want|i need|do you have|do you sell|do you carry|have you got|get me|recommend|what about|any|some|products?|items?|things?)\b/g,
      ' ',
    )
    .replace(/[^a-z0-9$.\- ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const words = rest.split(' ').filter((w) => w.length > 0);
  if (args['category'] === undefined && words.length === 1) {
    const category = categoryOf(words[0] as string);
    if (category) {
      args['category'] = category;
      words.length = 0;
    }
  }
  const query = words.join(' ');
  if (tokenize(query).length > 0) args['query'] = query;
  if (Object.keys(args).length === 0) return undefined;
  if (typeof args['query'] === 'string') labels.push(`"${args['query']}"`);
  if (typeof args['category'] === 'string')
    labels.push(labels.length === 0 ? args['category'] : `in ${args['category']}`);
  const min = args['min_price'];
  const max = args['max_price'];
  if (typeof min === 'number' && typeof max === 'number')
    labels.push(`between ${roundMoney(min)} and ${roundMoney(max)}`);
  else if (typeof max === 'number') labels.push(`under ${roundMoney(max)}`);
  else if (typeof min === 'number') labels.push(`over ${roundMoney(min)}`);
  if (args['in_stock_only'] === true) labels.push('in stock');
  return { args, label: labels.join(' ') || 'everything' };
}

/** The quantity asked for ("add 2 of them", "add two of the first one"), 1 by default. */
function parseQuantity(text: string): number {
  const patterns = [
    new RegExp(
      String.raw`\b(?:add|put|buy|take)\s+${NUMBER}\b(?!\s*(?:st|nd|rd|th)\b)(?!\s+(?:to|in|into)\b)`,
    ),
    new RegExp(
      String.raw`\b${NUMBER}\s+(?:units?|pieces?|pairs?|of (?:them|it|those|these|the))\b`,
    ),
    new RegExp(String.raw`\b(?:quantity|qty)\s*(?:of\s*)?${NUMBER}\b`),
    new RegExp(String.raw`\bx\s*${NUMBER}\b|\b${NUMBER}\s*x\b`),
  ];
  for (const pattern of patterns) {
    const m = pattern.exec(text);
    const word = m?.slice(1).find((g) => g !== undefined);
    if (word !== undefined) {
      const n = toNumber(word);
      if (Number.isInteger(n) && n >= 1) return n;
    }
  }
  return 1;
}

function classify(text: string, db: CommerceDb, askedToPay: boolean): Request {
  if (text.length === 0) return { kind: 'help' };
  const mentionsSelection =
    /\b(selection|shortlist|short list|wish ?list|favou?rites|saved)\b/.test(text);
  if (
    /\b(check ?out|place (?:the |my |an )?order|complete (?:my |the )?(?:order|purchase)|pay\b|pay for)/.test(
      text,
    ) ||
    (askedToPay && /\b(card|visa|mastercard|amex|paypal|gift)\b/.test(text))
  ) {
    return { kind: 'checkout' };
  }
  if (/\b(remove|delete|take out|drop|get rid of|empty)\b/.test(text)) {
    return { kind: 'remove', target: mentionsSelection ? 'selection' : 'cart' };
  }
  if (
    /\b(add|put|save|shortlist|keep)\b/.test(text) ||
    (/\b(buy|take)\b/.test(text) && hasReference(text))
  ) {
    return {
      kind: 'add',
      target: mentionsSelection || /\b(save|shortlist|keep)\b/.test(text) ? 'selection' : 'cart',
      quantity: parseQuantity(text),
    };
  }
  if (/\b(compare|comparison|versus|vs)\b/.test(text)) return { kind: 'compare' };
  if (/\b(cart|basket)\b/.test(text)) return { kind: 'cart' };
  if (mentionsSelection) return { kind: 'selection' };
  if (
    /\b(show|open|details?|tell me (?:more )?about|more about|describe|what about|look at)\b/.test(
      text,
    ) &&
    hasReference(text)
  ) {
    return { kind: 'show' };
  }
  const search = parseSearch(text, db);
  if (
    search &&
    (SEARCH_VERB.test(text) ||
      search.args['category'] !== undefined ||
      search.args['min_price'] !== undefined ||
      search.args['max_price'] !== undefined)
  ) {
    return { kind: 'search', search };
  }
  if (/\b(hi|hello|hey|help|what can you do|how does (?:this|it) work)\b/.test(text)) {
    return { kind: 'help' };
  }
  // A few words that name products ("wireless earbuds") are a search too.
  if (
    search &&
    text.split(' ').length <= 4 &&
    searchProducts(db, { query: String(search.args['query'] ?? ''), limit: 1 }).total_matches > 0
  ) {
    return { kind: 'search', search };
  }
  return { kind: 'unknown' };
}

const ORDINAL_PATTERN = new RegExp(
  String.raw`\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|1st|2nd|3rd|[4-9]th|10th)\b`,
  'g',
);
const POSITION_PATTERN = /(?:\b(?:product|item|number|no\.?|option|result)\s*|#)(\d{1,2})\b/g;
const PRONOUN_PATTERN = /\b(it|this|that|them|those|these|this one|that one)\b/;

/** A non-global copy of a pattern (global ones keep a `lastIndex` between calls). */
function once(pattern: RegExp): RegExp {
  return new RegExp(pattern.source);
}

function hasReference(text: string): boolean {
  return (
    once(ORDINAL_PATTERN).test(text) ||
    once(POSITION_PATTERN).test(text) ||
    PRONOUN_PATTERN.test(text) ||
    /\bp_\d{4}\b/.test(text) ||
    /\b(?:first|top)\s+(?:two|three|four|[2-4])\b/.test(text)
  );
}

/** Which products a message points at, or why it points at none. */
type Resolved = { ok: true; ids: string[] } | { ok: false; message: string };

const NO_LIST =
  'Which product do you mean? Search for something first, for example "show me headphones under $100".';

/**
 * Resolve the products a message refers to: ids (`p_0042`), "the first two", ordinals and
 * positions ("the second one", "product 3", "1 and 3") in the last list, pronouns ("it",
 * "them") for the product in focus, or words of a listed product's name.
 */
function resolveProducts(
  text: string,
  memory: Memory,
  db: CommerceDb,
  options: { allowBareNumbers: boolean; all?: boolean },
): Resolved {
  const explicit = [...text.matchAll(/\bp_\d{4}\b/g)].map((m) => m[0]);
  if (explicit.length > 0) {
    const unknown = explicit.find((id) => !db.products.some((p) => p.id === id));
    if (unknown) return { ok: false, message: `There is no product ${unknown}.` };
    return { ok: true, ids: [...new Set(explicit)] };
  }
  const { grid } = memory;
  const at = (n: number): Resolved =>
    grid.length === 0
      ? { ok: false, message: NO_LIST }
      : n >= 1 && n <= grid.length
        ? { ok: true, ids: [grid[n - 1] as string] }
        : {
            ok: false,
            message: `There ${grid.length === 1 ? 'is only 1 product' : `are only ${grid.length} products`} in the list.`,
          };
  const top = /\b(?:first|top)\s+(two|three|four|[2-4])\b/.exec(text);
  if (top) {
    if (grid.length === 0) return { ok: false, message: NO_LIST };
    return { ok: true, ids: grid.slice(0, toNumber(top[1] as string)) };
  }
  const positions: number[] = [];
  for (const m of text.matchAll(ORDINAL_PATTERN)) {
    const word = m[1] as string;
    positions.push(word === 'last' ? grid.length : (ORDINAL_WORDS[word] ?? 0));
  }
  for (const m of text.matchAll(POSITION_PATTERN)) positions.push(Number(m[1]));
  if (positions.length === 0 && options.allowBareNumbers) {
    for (const m of text.matchAll(/\b(\d{1,2})\b/g)) positions.push(Number(m[1]));
  }
  if (positions.length > 0) {
    const ids: string[] = [];
    for (const n of positions) {
      const one = at(n);
      if (!one.ok) return one;
      ids.push(...one.ids);
    }
    return { ok: true, ids: [...new Set(ids)] };
  }
  if (options.all && /\b(them|those|these|all)\b/.test(text)) {
    if (grid.length === 0) return { ok: false, message: NO_LIST };
    return { ok: true, ids: grid.slice(0, 4) };
  }
  if (PRONOUN_PATTERN.test(text)) {
    if (memory.focus) return { ok: true, ids: [memory.focus] };
    if (grid.length === 1) return { ok: true, ids: [grid[0] as string] };
  }
  const named = bestNameMatches(
    text,
    grid.map((id) => findProduct(db, id)),
  );
  if (named.length === 1) return { ok: true, ids: [(named[0] as Product).id] };
  if (grid.length === 0) return { ok: false, message: NO_LIST };
  return {
    ok: false,
    message:
      'Which product do you mean? Say for example "the first one" or "product 2" (the products are numbered on the page).',
  };
}

/** The candidates whose name or brand shares the most words with `text` (none when no word matches). */
function bestNameMatches<T extends { name: string; brand?: string }>(
  text: string,
  candidates: readonly T[],
): T[] {
  const words = new Set(tokenize(text));
  let best: T[] = [];
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = tokenize(`${candidate.name} ${candidate.brand ?? ''}`).filter((t) =>
      words.has(t),
    ).length;
    if (score > bestScore) {
      best = [candidate];
      bestScore = score;
    } else if (score === bestScore && score > 0) best.push(candidate);
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Variants
// ---------------------------------------------------------------------------------------------

function optionMentioned(value: string, text: string): boolean {
  const words = new Set(text.split(/[^a-z0-9]+/));
  const tokens = normalize(value)
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0 && t !== 'us' && t !== 'eu' && t !== 'uk');
  return tokens.length > 0 && tokens.every((t) => words.has(t));
}

function describeVariant(variant: Variant): string {
  return VARIANT_OPTION_KEYS.filter((k) => variant[k] !== undefined)
    .map((k) => `${k} ${variant[k] as string}`)
    .join(', ');
}

const catalogueOptions = new WeakMap<CommerceDb, Map<VariantOptionKey, Set<string>>>();

/** Every option value sold in the store, by key (to notice one a product does not have). */
function allOptionValues(db: CommerceDb): Map<VariantOptionKey, Set<string>> {
  let values = catalogueOptions.get(db);
  if (!values) {
    values = new Map(VARIANT_OPTION_KEYS.map((k) => [k, new Set<string>()]));
    for (const product of db.products) {
      for (const variant of product.variants) {
        for (const key of VARIANT_OPTION_KEYS) {
          const value = variant[key];
          if (value !== undefined) values.get(key)?.add(value);
        }
      }
    }
    catalogueOptions.set(db, values);
  }
  return values;
}

/** Pick the variant a message names, or say which options are still to choose. */
function chooseVariant(
  product: Product,
  text: string,
  db: CommerceDb,
): { ok: true; sku?: string } | { ok: false; message: string } {
  if (product.variants.length === 0) return { ok: true };
  const values = optionValues(product);
  const keys = VARIANT_OPTION_KEYS.filter((k) => (values[k]?.length ?? 0) > 0);
  const choices = (key: VariantOptionKey, from: readonly Variant[]): string[] => [
    ...new Set(from.flatMap((v) => (v[key] === undefined ? [] : [v[key] as string]))),
  ];
  const offered = (from: readonly Variant[], only: readonly VariantOptionKey[]): string =>
    only.map((k) => `${k} ${listWords(choices(k, from), 'or')}`).join('; ');
  let candidates = product.variants;
  for (const key of keys) {
    const own = values[key] ?? [];
    const mentioned = own.filter((v) => optionMentioned(v, text));
    if (mentioned.length > 0) {
      candidates = candidates.filter((v) => mentioned.includes(v[key] ?? ''));
      continue;
    }
    // A value of this option the store sells, but not for this product ("in black").
    const foreign = [...(allOptionValues(db).get(key) ?? [])].find(
      (v) => !own.includes(v) && optionMentioned(v, text),
    );
    if (foreign !== undefined) {
      return {
        ok: false,
        message: `There is no ${product.name} in ${key} ${foreign}; the options are ${offered(product.variants, keys)}.`,
      };
    }
  }
  if (candidates.length === 0) {
    return {
      ok: false,
      message: `There is no ${product.name} in that combination; the options are ${offered(product.variants, keys)}.`,
    };
  }
  const open = keys.filter((k) => choices(k, candidates).length > 1);
  if (open.length > 0) {
    const inStock = candidates.filter((v) => v.stock > 0);
    const from = inStock.length > 0 ? inStock : candidates;
    return {
      ok: false,
      message: `There are several options for the ${product.name}: ${offered(from, open)}. Which one would you like? Say for example "add it in ${
        choices(open[0] as VariantOptionKey, from)[0] ?? ''
      }", or pick the options on the page and press "Add to cart".`,
    };
  }
  return { ok: true, sku: (candidates[0] as Variant).sku };
}

// ---------------------------------------------------------------------------------------------
// Describing results
// ---------------------------------------------------------------------------------------------

function productLine(product: Product): string {
  const stock = isInStock(product) ? '' : ', sold out';
  return `${product.name}, ${money(product.price)}${product.variants.length > 0 ? ' and up' : ''} (rated ${product.rating}/5${stock})`;
}

function lineLabel(line: CartLineView): string {
  const options = Object.entries(line.options)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return options ? `${line.name} (${options})` : line.name;
}

function isCartView(value: unknown): value is CartView {
  return isObject(value) && Array.isArray(value['items']) && typeof value['total'] === 'number';
}

function cartSummary(cart: CartView): string {
  if (cart.items.length === 0) return 'Your cart is now empty.';
  return `Your cart now has ${cart.item_count} item${cart.item_count === 1 ? '' : 's'}, total ${money(cart.total)} with tax.`;
}

function describeCart(cart: CartView): string {
  if (cart.items.length === 0) return 'Your cart is empty.';
  const lines = cart.items.map(
    (l) => `- ${l.quantity} x ${lineLabel(l)}, ${money(l.unit_price)} each`,
  );
  return `Your cart has ${cart.item_count} item${cart.item_count === 1 ? '' : 's'}:\n${lines.join('\n')}\nSubtotal ${money(cart.subtotal)}, tax ${money(cart.tax)}, total ${money(cart.total)}.`;
}

function userOf(db: CommerceDb): User | undefined {
  const id = db.session?.user_id;
  return id === undefined ? undefined : db.users.find((u) => u.id === id);
}

// ---------------------------------------------------------------------------------------------
// The policy
// ---------------------------------------------------------------------------------------------

/** One model call's answer: text and/or tool calls. */
export interface ShopAssistantStep {
  text: string;
  calls?: { name: string; arguments: JsonObject }[];
}
type Step = ShopAssistantStep;
type Call = NonNullable<Step['calls']>[number];

const say = (text: string): Step => ({ text });

interface TurnInput {
  text: string;
  request: Request;
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
          const m = once(ORDINAL_PATTERN).exec(text);
          const n = m ? (m[1] === 'last' ? lines.length : (ORDINAL_WORDS[m[1] as string] ?? 0)) : 0;
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

const STEPS: Readonly<Record<Request['kind'], (input: TurnInput) => Step>> = {
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

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

function emit(request: ChatRequest, step: Step): AsyncIterable<ChatStreamEvent> {
  // Stream the text a few words at a time, as a model would.
  return streamScriptedReply(request, step, { idPrefix: 'call_shop_', wordsPerDelta: 4 });
}

/** Decide one model call of the shop assistant from the context and the session's db. */
export function shopAssistantStep(
  messages: readonly ContextMessage[],
  db: CommerceDb,
  options: { firstCallOfConversation: boolean; maxResults?: number },
): Step {
  const userAt = lastUserIndex(messages);
  const userMessage = messages[userAt];
  const text = normalize(userMessage?.role === 'user' ? userMessage.content : '');
  const askedToPay = previousAssistantText(messages, userAt).includes(PAYMENT_QUESTION);
  const request = classify(text, db, askedToPay);
  const input: TurnInput = {
    text,
    request,
    done: exchangesOf(messages.slice(userAt + 1)),
    memory: memoryOf(messages.slice(0, userAt)),
    db,
    maxResults: options.maxResults ?? 6,
  };
  const step = STEPS[request.kind](input);
  if (!options.firstCallOfConversation) return step;
  const greeting =
    request.kind === 'help' || request.kind === 'unknown'
      ? `${SHOP_ASSISTANT_GREETING} ${HELP_TEXT}`
      : `${SHOP_ASSISTANT_GREETING} (Say "help" for the list.)`;
  return {
    ...step,
    text:
      request.kind === 'help' || request.kind === 'unknown'
        ? greeting
        : `${greeting}\n${step.text}`.trim(),
  };
}

/**
 * The scripted shop assistant, built per session (`createConversationEngine({model:
 * createShopAssistantModel})`). It reads the session's commerce db (which must be loaded, with a
 * shopper signed in for cart, selection and orders) and acts only through the bound tools.
 */
export function createShopAssistantModel(
  host: ConversationHost,
  options: ShopAssistantOptions = {},
): ChatModel {
  return {
    processor: 'ScriptedShopAssistant',
    model: 'scripted:shop-assistant',
    scripted: true,
    async *stream(request) {
      let db: CommerceDb;
      try {
        db = asCommerceDb(host.state.db);
      } catch {
        yield* emit(
          request,
          say(
            `${SHOP_ASSISTANT_GREETING} The store is not loaded in this session yet, so I cannot help right now.`,
          ),
        );
        return;
      }
      const step = shopAssistantStep(request.messages, db, {
        firstCallOfConversation: request.turn === 1 && request.step === 1,
        ...(options.maxResults === undefined ? {} : { maxResults: options.maxResults }),
      });
      yield* emit(request, step);
    },
  };
}

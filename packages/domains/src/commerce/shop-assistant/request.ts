/**
 * Request parsing for the scripted shop assistant: which kind of request a shopper's message is,
 * and for a search its filters (price range, stock, category) and words.
 *
 * @module
 */
import type { JsonObject } from '@scenaro/agent/scenario';
import type { CommerceDb } from '../model/db-types.js';
import { searchProducts, tokenize } from '../model/search.js';
import { hasReference } from './references.js';
import { roundMoney } from './replies.js';
import { NUMBER, PRICE, toNumber } from './words.js';

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

/** `search_products` arguments plus a label for what was asked. */
export interface SearchRequest {
  args: JsonObject;
  label: string;
}

/** What the shopper asked for, as the assistant understood it. */
export type ShopperRequest =
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

/**
 * Understand a normalized message. `askedToPay`: the assistant's last words asked how to pay, so
 * naming a payment method means checking out.
 */
export function classify(text: string, db: CommerceDb, askedToPay: boolean): ShopperRequest {
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

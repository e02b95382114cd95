/**
 * Catalogue search: words are normalised (lower case, stop words dropped, plurals folded) and
 * matched against a product's name, brand, category, tags, variant options, specs and
 * description. Products are ranked by how many query words they match, then by where they
 * match (name and brand weigh most), then in-stock first, then by rating and review count; ties break on id so
 * results are deterministic.
 *
 * @module
 */
import { isInStock, productSummary } from './catalog.js';
import type { ProductSummary } from './catalog.js';
import { VARIANT_OPTION_KEYS } from './db-types.js';
import type { CommerceDb, Product } from './db-types.js';

const STOP_WORDS = new Set(
  (
    'a an and any are as at be best buy can do for from get good have i im in is it looking me my ' +
    'need of on or pair please show some something that the to under over with want would you ' +
    'one ones cheap cheaper new find about around like'
  ).split(' '),
);

const SYNONYMS: ReadonlyMap<string, string> = new Map([
  ['canceling', 'cancelling'],
  ['cancellation', 'cancelling'],
  ['anc', 'cancelling'],
  ['notebook', 'laptop'],
  ['cellphone', 'phone'],
  ['trainer', 'sneaker'],
  ['earphone', 'earbud'],
  ['grey', 'gray'],
]);

/** Fold simple English plurals (`headphones` -> `headphone`, `batteries` -> `battery`). */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Split text into normalised search terms. Stop words are dropped. */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const raw of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (raw.length === 0 || STOP_WORDS.has(raw)) continue;
    const term = stem(SYNONYMS.get(raw) ?? raw);
    terms.push(SYNONYMS.get(term) ?? term);
  }
  return terms;
}

/** Field weights: a word found in the name counts three times one found in the description. */
const WEIGHTS = { name: 3, brand: 3, category: 2, tags: 2, options: 2, specs: 1, description: 1 };
type Field = keyof typeof WEIGHTS;

const indexCache = new WeakMap<Product, Map<string, number>>();

/** term -> best field weight, for one product (cached per product object). */
function termIndex(product: Product): Map<string, number> {
  let index = indexCache.get(product);
  if (index) return index;
  index = new Map();
  const add = (field: Field, text: string): void => {
    for (const term of tokenize(text)) {
      index?.set(term, Math.max(index.get(term) ?? 0, WEIGHTS[field]));
    }
  };
  add('name', product.name);
  add('brand', product.brand);
  add('category', product.category);
  add('tags', product.tags.join(' '));
  for (const variant of product.variants) {
    for (const key of VARIANT_OPTION_KEYS) {
      const value = variant[key];
      if (value !== undefined) add('options', value);
    }
  }
  add(
    'specs',
    Object.values(product.specs)
      .filter((v) => typeof v === 'string')
      .join(' '),
  );
  add('description', product.description);
  indexCache.set(product, index);
  return index;
}

const namingCache = new WeakMap<Product, Set<string>>();

/** The terms that say what a product is: its name, brand, category and tags (cached per product object). */
function namingTerms(product: Product): Set<string> {
  let terms = namingCache.get(product);
  if (!terms) {
    const fields = [product.name, product.brand, product.category, ...product.tags];
    terms = new Set(tokenize(fields.join(' ')));
    namingCache.set(product, terms);
  }
  return terms;
}

/** A query's words as the catalogue knows them (see {@link queryCoverage}). */
export interface QueryCoverage {
  /** Words no product has in any field ("wine"). */
  unknown: string[];
  /** Words that name products (in a name, brand, category or tag), not only describe them. */
  naming: string[];
}

/**
 * How a query's words stand in the whole catalogue, whatever the filters: which no product has,
 * and which name products rather than only describe them (a colour, a size, a spec, a word of a
 * description). "red wine" has an unknown word and no naming one: the store sells no such thing,
 * although some products come in red.
 */
export function queryCoverage(db: CommerceDb, query: string): QueryCoverage {
  const coverage: QueryCoverage = { unknown: [], naming: [] };
  for (const term of new Set(tokenize(query))) {
    if (db.products.some((p) => namingTerms(p).has(term))) coverage.naming.push(term);
    else if (!db.products.some((p) => termIndex(p).has(term))) coverage.unknown.push(term);
  }
  return coverage;
}

/** Search criteria (the `search_products` arguments). */
export interface SearchCriteria {
  query?: string;
  category?: string;
  minPrice?: number;
  maxPrice?: number;
  inStockOnly?: boolean;
  limit: number;
}

/** Ranked search results. */
export interface SearchResult {
  total_matches: number;
  results: ProductSummary[];
}

/** Search the catalogue. Without query words, products are ranked by rating. */
export function searchProducts(db: CommerceDb, criteria: SearchCriteria): SearchResult {
  const terms = [...new Set(tokenize(criteria.query ?? ''))];
  const scored: { product: Product; matched: number; score: number }[] = [];
  for (const product of db.products) {
    if (criteria.category !== undefined && product.category !== criteria.category) continue;
    if (criteria.minPrice !== undefined && product.price < criteria.minPrice) continue;
    if (criteria.maxPrice !== undefined && product.price > criteria.maxPrice) continue;
    if (criteria.inStockOnly && !isInStock(product)) continue;
    let matched = 0;
    let score = 0;
    if (terms.length > 0) {
      const index = termIndex(product);
      for (const term of terms) {
        const weight = index.get(term);
        if (weight !== undefined) {
          matched++;
          score += weight;
        }
      }
      if (matched === 0) continue;
    }
    scored.push({ product, matched, score });
  }
  scored.sort(
    (a, b) =>
      b.matched - a.matched ||
      b.score - a.score ||
      Number(isInStock(b.product)) - Number(isInStock(a.product)) ||
      b.product.rating - a.product.rating ||
      b.product.review_count - a.product.review_count ||
      (a.product.id < b.product.id ? -1 : a.product.id > b.product.id ? 1 : 0),
  );
  return {
    total_matches: scored.length,
    results: scored.slice(0, criteria.limit).map((s) => productSummary(s.product)),
  };
}

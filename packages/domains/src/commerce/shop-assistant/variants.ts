/**
 * Variant choice for the scripted shop assistant: which variant of a product a message names
 * ("add it in black, size 9"), or which options are still to choose.
 *
 * @module
 */
import { optionValues } from '../model/catalog.js';
import { VARIANT_OPTION_KEYS } from '../model/db-types.js';
import type { CommerceDb, Product, Variant, VariantOptionKey } from '../model/db-types.js';
import { listWords } from './replies.js';
import { normalize } from './words.js';

/** Whether every word of an option value (`US 9`: `9`) is in the message. */
function optionMentioned(value: string, text: string): boolean {
  const words = new Set(text.split(/[^a-z0-9]+/));
  const tokens = normalize(value)
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 0 && t !== 'us' && t !== 'eu' && t !== 'uk');
  return tokens.length > 0 && tokens.every((t) => words.has(t));
}

/** A variant's options: `color black, size US 9`. */
export function describeVariant(variant: Variant): string {
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
export function chooseVariant(
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

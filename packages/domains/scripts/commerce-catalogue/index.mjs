/**
 * The catalogue of the commerce domain (`./catalogue.json`): its categories in the order the
 * generator draws them (the order is part of the seeded output).
 *
 * Each category: a key, a SKU prefix, brands, series names and product types. A type gives a name
 * label, search tags, a price range in dollars, a table of how its specs are drawn, a variant
 * scheme and a description template (see `./specs.mjs` for both).
 */
import { readFileSync } from 'node:fs';

export const CATEGORIES = JSON.parse(
  readFileSync(new URL('./catalogue.json', import.meta.url), 'utf8'),
);

/**
 * The catalogue of the commerce domain, one category per module, in the order the generator
 * draws them (the order is part of the seeded output).
 *
 * Each category: a SKU prefix, brands, series names and product types. A type gives a name label,
 * search tags, a price range in dollars, a table of how its specs are drawn (`./specs.mjs`), a
 * variant scheme and a description.
 */
import { audio } from './audio.mjs';
import { laptops } from './laptops.mjs';
import { phones } from './phones.mjs';
import { kitchen } from './kitchen.mjs';
import { outdoor } from './outdoor.mjs';
import { shoes } from './shoes.mjs';
import { apparel } from './apparel.mjs';
import { home } from './home.mjs';
import { fitness } from './fitness.mjs';
import { gaming } from './gaming.mjs';

export const CATEGORIES = [
  audio,
  laptops,
  phones,
  kitchen,
  outdoor,
  shoes,
  apparel,
  home,
  fitness,
  gaming,
];

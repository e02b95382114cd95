#!/usr/bin/env node
/**
 * Generates `packages/domains/data/commerce/db.json`, the catalogue, shoppers and orders of the
 * commerce domain. Deterministic: a fixed seed drives a small PRNG, so running it twice gives
 * byte-identical output (the shipped scenarios pin db hashes computed from this file).
 *
 *   node packages/domains/scripts/generate-commerce-data.mjs [--seed N] [--out path] [--check]
 *
 * `--check` regenerates in memory and exits 1 when the file on disk differs. The PRNG comes from
 * `@scenaro/sdk/util`, so the workspace is built first (`npx tsc -b`).
 * The output is formatted with the repository's prettier settings so `prettier --check` passes.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { seededRandom } from '@scenaro/sdk/util';
import { CATEGORIES } from './commerce-catalogue/index.mjs';
import { describe, drawSpecs } from './commerce-catalogue/specs.mjs';
import { ORDER_PLAN, USERS } from './commerce-shoppers.mjs';

const DEFAULT_SEED = 20250602;
const PRODUCTS_PER_CATEGORY = 30;
/** Sales tax in basis points; must equal `TAX_RATE_BASIS_POINTS` in src/commerce/model/money.ts. */
const TAX_RATE_BASIS_POINTS = 825;
const CURRENT_TIME = '2025-06-02T15:00:00Z';

// ---------------------------------------------------------------------------------------------
// PRNG (mulberry32, `seededRandom`) and helpers
// ---------------------------------------------------------------------------------------------

function makeRandom(seed) {
  const next = seededRandom(seed);
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const sample = (list, k) => {
    const copy = [...list];
    const out = [];
    while (out.length < k && copy.length > 0) out.push(copy.splice(int(0, copy.length - 1), 1)[0]);
    return out;
  };
  return { next, int, pick, chance, sample };
}

const money = (cents) => cents / 100;
const taxOf = (subtotalCents) => Math.floor((subtotalCents * TAX_RATE_BASIS_POINTS + 5000) / 10000);

// ---------------------------------------------------------------------------------------------
// Catalogue definitions
// ---------------------------------------------------------------------------------------------

const COLOR_CODES = {
  black: 'BLK',
  white: 'WHT',
  navy: 'NVY',
  silver: 'SLV',
  'space gray': 'SGR',
  sage: 'SAG',
  red: 'RED',
  blue: 'BLU',
  green: 'GRN',
  graphite: 'GPH',
  sand: 'SND',
  charcoal: 'CHR',
  olive: 'OLV',
  burgundy: 'BRG',
  gray: 'GRY',
  pink: 'PNK',
  orange: 'ORG',
  cream: 'CRM',
  teal: 'TEL',
  brown: 'BRN',
  yellow: 'YEL',
  purple: 'PRP',
};

// ---------------------------------------------------------------------------------------------
// Products (the categories they are drawn from are in ./commerce-catalogue/)
// ---------------------------------------------------------------------------------------------

function priceCents(r, lo, hi) {
  const dollars = r.int(lo, hi);
  const ending = r.pick([99, 99, 99, 99, 49, 95, 0]);
  return ending === 0 ? dollars * 100 : dollars * 100 - (100 - ending);
}

function variantStock(r) {
  return r.chance(0.14) ? 0 : r.int(1, 25);
}

function code(value) {
  return String(value)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '');
}

/** Builds variants for a product; returns [] when the product has none. */
function makeVariants(r, scheme, sku, baseCents) {
  const variants = [];
  const colorOf = (c) => COLOR_CODES[c] ?? code(c).slice(0, 3);
  switch (scheme.kind) {
    case 'none':
      return [];
    case 'color': {
      for (const color of r.sample(scheme.colors, r.int(2, Math.min(4, scheme.colors.length)))) {
        variants.push({ sku: `${sku}-${colorOf(color)}`, color, stock: variantStock(r) });
      }
      return variants;
    }
    case 'switch': {
      for (const option of scheme.options) {
        variants.push({
          sku: `${sku}-${code(option).slice(0, 3)}`,
          switch: option,
          stock: variantStock(r),
        });
      }
      return variants;
    }
    case 'storage':
    case 'size': {
      const options = scheme.kind === 'storage' ? scheme.options : scheme.sizes;
      const field = scheme.kind === 'storage' ? 'storage' : 'size';
      let extra = 0;
      options.forEach((option, index) => {
        if (index > 0) extra += r.int(scheme.step[0], scheme.step[1]) * 100;
        const variant = { sku: `${sku}-${code(option)}`, [field]: option };
        if (extra > 0) variant.price = money(baseCents + extra);
        variant.stock = variantStock(r);
        variants.push(variant);
      });
      return variants;
    }
    case 'color-storage': {
      const colors = r.sample(scheme.colors, 2);
      const storages = scheme.options.slice(0, 2);
      const extra = r.int(scheme.step[0], scheme.step[1]) * 100;
      for (const color of colors) {
        storages.forEach((storage, index) => {
          const variant = { sku: `${sku}-${colorOf(color)}-${code(storage)}`, color, storage };
          if (index > 0) variant.price = money(baseCents + extra);
          variant.stock = variantStock(r);
          variants.push(variant);
        });
      }
      return variants;
    }
    case 'shoe':
    case 'apparel': {
      // One or two colors, each in four sizes: US shoe sizes from 7-9 up, or S to XL.
      const colors = r.sample(scheme.colors, r.int(1, 2));
      let sizes = ['S', 'M', 'L', 'XL'];
      let label = (size) => size;
      if (scheme.kind === 'shoe') {
        const start = r.int(7, 9);
        sizes = [start, start + 1, start + 2, start + 3].map(String);
        label = (size) => `US ${size}`;
      }
      for (const color of colors) {
        for (const size of sizes) {
          variants.push({
            sku: `${sku}-${colorOf(color)}-${size}`,
            color,
            size: label(size),
            stock: variantStock(r),
          });
        }
      }
      return variants;
    }
    default:
      throw new Error(`unknown variant scheme ${scheme.kind}`);
  }
}

function makeProducts(r) {
  const products = [];
  const names = new Set();
  let serial = 0;
  for (const category of CATEGORIES) {
    for (let i = 0; i < PRODUCTS_PER_CATEGORY; i++) {
      serial++;
      const id = `p_${String(serial).padStart(4, '0')}`;
      const sku = `${category.code}-${String(serial).padStart(4, '0')}`;
      const type = category.types[i % category.types.length];
      let name;
      let brand;
      do {
        brand = r.pick(category.brands);
        const model = r.chance(0.5)
          ? ` ${r.pick(['2', '3', '5', '7', '100', '300', '500', 'X2', 'S'])}`
          : '';
        name = `${brand} ${r.pick(category.series)}${model} ${type.label}`;
      } while (names.has(name));
      names.add(name);
      const base = priceCents(r, type.price[0], type.price[1]);
      const specs = drawSpecs(r, type.specs);
      const product = {
        id,
        name,
        brand,
        category: category.key,
        price: money(base),
        rating: Math.round((3 + r.next() * 1.95) * 10) / 10,
        review_count: r.chance(0.1) ? r.int(0, 12) : r.int(13, 2400),
        description: describe(type.desc, specs),
        tags: type.tags,
        specs,
      };
      if (product.review_count === 0) product.rating = 0;
      const variants = makeVariants(r, type.variants, sku, base);
      if (variants.length === 0) {
        product.sku = sku;
        product.stock = r.chance(0.09) ? 0 : r.int(1, 60);
      } else if (r.chance(0.05)) {
        for (const variant of variants) variant.stock = 0; // sold out in every option
      }
      product.variants = variants;
      products.push(product);
    }
  }
  return products;
}

// ---------------------------------------------------------------------------------------------
// Orders (the shoppers and their order plan are in ./commerce-shoppers.mjs)
// ---------------------------------------------------------------------------------------------

const CANCEL_REASONS = ['no_longer_needed', 'ordered_by_mistake', 'found_better_price'];

function isoDaysBefore(days, r) {
  const ms = Date.parse(CURRENT_TIME) - days * 86_400_000 - r.int(1, 10) * 3_600_000;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function optionsOf(variant) {
  const out = {};
  for (const key of ['color', 'size', 'storage', 'switch'])
    if (variant[key] !== undefined) out[key] = variant[key];
  return out;
}

function makeOrders(r, products, users) {
  const orders = [];
  ORDER_PLAN.forEach(([userId, status, paymentId, days], index) => {
    const user = users.find((u) => u.id === userId);
    const picked = r.sample(products, r.int(1, 3));
    const items = picked.map((product) => {
      const item = { product_id: product.id, name: product.name };
      let unitCents = Math.round(product.price * 100);
      if (product.variants.length > 0) {
        const variant = r.pick(product.variants);
        item.sku = variant.sku;
        item.options = optionsOf(variant);
        if (variant.price !== undefined) unitCents = Math.round(variant.price * 100);
      } else {
        item.sku = product.sku;
      }
      item.quantity = r.chance(0.2) ? 2 : 1;
      item.unit_price = money(unitCents);
      item._cents = unitCents * item.quantity;
      return item;
    });
    const subtotal = items.reduce((sum, item) => sum + item._cents, 0);
    for (const item of items) delete item._cents;
    const tax = taxOf(subtotal);
    const order = {
      id: `o_${1001 + index}`,
      user_id: userId,
      status,
      created_at: isoDaysBefore(days, r),
      items,
      subtotal: money(subtotal),
      tax: money(tax),
      total: money(subtotal + tax),
      payment_method_id: paymentId,
      shipping_address_id: r.pick(user.addresses).id,
    };
    if (status === 'cancelled') {
      order.cancellation = {
        reason: r.pick(CANCEL_REASONS),
        refund_amount: order.total,
        refunded_to: paymentId,
      };
    }
    orders.push(order);
  });
  return orders;
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** Builds the db object for `seed`. */
export function generateCommerceDb(seed = DEFAULT_SEED) {
  const r = makeRandom(seed);
  const products = makeProducts(r);
  const users = USERS.map((u) => ({
    ...structuredClone(u),
    selection: { product_ids: [] },
    cart: { items: [] },
  }));
  const orders = makeOrders(r, products, users);
  return {
    meta: {
      store_name: 'Scenaro Demo Store',
      currency: 'USD',
      current_time: CURRENT_TIME,
      generator: `generate-commerce-data.mjs seed=${seed}`,
    },
    products,
    users,
    orders,
  };
}

/**
 * Serializes with one small object (variant, address, payment method, order item) per line where
 * it fits, then lets prettier settle the layout.
 */
async function serialize(db, configFile) {
  const text = JSON.stringify(db, null, 2)
    // Collapse innermost objects (no nested braces/brackets) onto one line; prettier re-breaks
    // any that do not fit in its print width.
    .replace(/\{\n\s+([^{}[\]]*?)\n\s*\}/g, (_, body) => `{ ${body.replace(/\n\s+/g, ' ')} }`)
    .replace(/\[\n\s+([^{}[\]]*?)\n\s*\]/g, (_, body) => `[${body.replace(/\n\s+/g, ' ')}]`);
  const options = (await prettier.resolveConfig(configFile)) ?? {};
  return prettier.format(text, { ...options, filepath: configFile });
}

async function main() {
  const args = process.argv.slice(2);
  const flag = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const out = resolve(flag('--out') ?? resolve(here, '../data/commerce/db.json'));
  const seed = Number(flag('--seed') ?? DEFAULT_SEED);
  const text = await serialize(generateCommerceDb(seed), out);
  if (args.includes('--check')) {
    const current = await readFile(out, 'utf8').catch(() => '');
    if (current !== text) {
      console.error(`${out} is out of date; run node ${process.argv[1]}`);
      process.exit(1);
    }
    console.log(`${out} is up to date (${text.length} bytes)`);
    return;
  }
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, text);
  console.log(`wrote ${out} (${text.length} bytes)`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}

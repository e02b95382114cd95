/** Invariants of the shipped commerce data, and that the generator reproduces it. */
import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMMERCE_DATA_ROOT } from './data-root.js';
import type { CommerceDb } from './model/db-types.js';
import { computeTotals, toCents } from './model/money.js';

const DB_FILE = path.join(COMMERCE_DATA_ROOT, 'commerce', 'db.json');
const db = JSON.parse(await readFile(DB_FILE, 'utf8')) as CommerceDb;
const hasCents = (x: number): boolean => Number.isFinite(x) && toCents(x) / 100 === x;

describe('commerce db.json', () => {
  it('stays small', async () => {
    expect((await stat(DB_FILE)).size).toBeLessThan(400 * 1024);
  });

  it('has a few hundred products over about ten categories', () => {
    expect(db.products.length).toBeGreaterThanOrEqual(200);
    expect(new Set(db.products.map((p) => p.category)).size).toBe(10);
  });

  it('gives products unique ids and SKUs, prices with cents, and stock counts', () => {
    const ids = new Set<string>();
    const skus = new Set<string>();
    let soldOut = 0;
    for (const p of db.products) {
      expect(ids.has(p.id)).toBe(false);
      ids.add(p.id);
      expect(hasCents(p.price) && p.price > 0).toBe(true);
      expect(p.rating).toBeGreaterThanOrEqual(0);
      expect(p.rating).toBeLessThanOrEqual(5);
      const own =
        p.variants.length === 0 ? [{ sku: p.sku, stock: p.stock, price: p.price }] : p.variants;
      if (p.variants.length > 0) expect(p.sku === undefined && p.stock === undefined).toBe(true);
      for (const v of own) {
        expect(typeof v.sku).toBe('string');
        expect(skus.has(v.sku as string)).toBe(false);
        skus.add(v.sku as string);
        expect(Number.isInteger(v.stock) && (v.stock as number) >= 0).toBe(true);
        if (v.price !== undefined) expect(hasCents(v.price)).toBe(true);
      }
      if (own.every((v) => v.stock === 0)) soldOut++;
    }
    expect(soldOut).toBeGreaterThan(5);
  });

  it('has shoppers with every kind of payment method and empty carts and selections', () => {
    const types = new Set(db.users.flatMap((u) => u.payment_methods.map((m) => m.type)));
    expect([...types].sort()).toEqual(['card', 'gift_card', 'paypal']);
    for (const u of db.users) {
      expect(u.cart.items).toEqual([]);
      expect(u.selection.product_ids).toEqual([]);
    }
  });

  it('has orders in every status whose totals follow the tax rule', () => {
    expect(new Set(db.orders.map((o) => o.status)).size).toBe(5);
    for (const order of db.orders) {
      const user = db.users.find((u) => u.id === order.user_id);
      expect(user?.payment_methods.some((m) => m.id === order.payment_method_id)).toBe(true);
      expect(user?.addresses.some((a) => a.id === order.shipping_address_id)).toBe(true);
      const totals = computeTotals(
        order.items.map((i) => ({ unitPrice: i.unit_price, quantity: i.quantity })),
      );
      expect([order.subtotal, order.tax, order.total]).toEqual([
        totals.subtotal,
        totals.tax,
        totals.total,
      ]);
    }
  });

  it('is exactly what the seeded generator produces', async () => {
    const script = path.resolve(COMMERCE_DATA_ROOT, '..', 'scripts', 'generate-commerce-data.mjs');
    const generator = (await import(pathToFileURL(script).href)) as {
      generateCommerceDb(seed?: number): unknown;
    };
    expect(generator.generateCommerceDb()).toEqual(db);
    expect(generator.generateCommerceDb(7)).not.toEqual(db);
  });
});

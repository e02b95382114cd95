import { describe, expect, it } from 'vitest';
import { asCommerceDb } from '../model/db-types.js';
import type { CartItem } from '../model/db-types.js';
import { createCommerceSession } from '../session.js';
import type { CommerceSession } from '../session.js';

function cartOf(session: CommerceSession, userId: string): CartItem[] {
  const user = asCommerceDb(session.state.db).users.find((u) => u.id === userId);
  return user?.cart.items ?? [];
}

describe('add_to_cart', () => {
  it('adds a variant, records the action and returns the priced cart', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const outcome = await session.call('add_to_cart', {
      product_id: 'p_0007',
      sku: 'AUD-0007-BLK',
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.action).toEqual({
      action_type: 'add_to_cart',
      name: 'add_to_cart',
      arguments: { product_id: 'p_0007', sku: 'AUD-0007-BLK', quantity: 1 },
      result: outcome.result,
    });
    expect(outcome.result).toMatchObject({
      added: { sku: 'AUD-0007-BLK', quantity: 1 },
      cart: {
        item_count: 1,
        subtotal: 172.99,
        tax_rate: 0.0825,
        tax: 14.27,
        total: 187.26,
        currency: 'USD',
      },
    });
    expect(cartOf(session, 'u_001')).toEqual([
      { product_id: 'p_0007', sku: 'AUD-0007-BLK', quantity: 1 },
    ]);
  });

  it('adds to an existing line instead of creating a second one', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    await session.call('add_to_cart', { product_id: 'p_0133', quantity: 2 });
    await session.call('add_to_cart', { product_id: 'p_0133', sku: 'OUT-0133', quantity: 3 });
    expect(cartOf(session, 'u_001')).toEqual([
      { product_id: 'p_0133', sku: 'OUT-0133', quantity: 5 },
    ]);
  });

  it('requires the variant of a product that has variants and lists them', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const outcome = await session.call('add_to_cart', { product_id: 'p_0007' });
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBe(
      'Product p_0007 (Veltro Nova X2 Wireless Noise-Cancelling Headphones) comes in several options; ask the ' +
        'shopper which one and pass its sku. Variants: AUD-0007-BLK (color black); AUD-0007-SAG (color sage).',
    );
    expect(session.state.actions).toEqual([]);
    expect(cartOf(session, 'u_001')).toEqual([]);
  });

  it("refuses another product's sku and a sku on a product without variants", async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    expect(
      (await session.call('add_to_cart', { product_id: 'p_0007', sku: 'AUD-0013-BLK' })).error,
    ).toMatch(/^SKU 'AUD-0013-BLK' is not a variant of product p_0007/);
    expect(
      (await session.call('add_to_cart', { product_id: 'p_0133', sku: 'OUT-0133-BLK' })).error,
    ).toBe(
      "Product p_0133 (Alpenwerk Trek Rechargeable Headlamp) has no variants; its only SKU is 'OUT-0133', not 'OUT-0133-BLK'.",
    );
  });

  it('refuses sold-out products and variants', async () => {
    const session = await createCommerceSession({ userId: 'u_006' });
    expect((await session.call('add_to_cart', { product_id: 'p_0005' })).error).toBe(
      'Veltro Echo 3 Soundbar is out of stock.',
    );
    expect(
      (await session.call('add_to_cart', { product_id: 'p_0004', sku: 'AUD-0004-SND' })).error,
    ).toBe('Veltro Aria 500 Portable Bluetooth Speaker (color sand) is out of stock.');
  });

  it('keeps each line within 10 units and within stock', async () => {
    const session = await createCommerceSession({ userId: 'u_004' });
    expect(
      (
        await session.call('add_to_cart', {
          product_id: 'p_0125',
          sku: 'OUT-0125-TEL',
          quantity: 11,
        })
      ).error,
    ).toMatch(/argument 'quantity' must be <= 10/);
    await session.call('add_to_cart', { product_id: 'p_0125', sku: 'OUT-0125-TEL', quantity: 8 });
    expect(
      (
        await session.call('add_to_cart', {
          product_id: 'p_0125',
          sku: 'OUT-0125-TEL',
          quantity: 3,
        })
      ).error,
    ).toBe(
      'At most 10 units of one item per order; the cart already holds 8 of Summit & Pine Ultralight Insulated Water Bottle (color teal).',
    );
    expect((await session.call('add_to_cart', { product_id: 'p_0245', quantity: 5 })).error).toBe(
      'Only 3 of Momentum Elite 3 Resistance Bands Set left in stock.',
    );
    await session.call('add_to_cart', { product_id: 'p_0245', quantity: 2 });
    expect((await session.call('add_to_cart', { product_id: 'p_0245', quantity: 2 })).error).toBe(
      'Only 3 of Momentum Elite 3 Resistance Bands Set left in stock; the cart already holds 2.',
    );
    expect((await session.call('add_to_cart', { product_id: 'p_0245', quantity: 0 })).ok).toBe(
      false,
    );
  });

  it('needs a signed-in shopper', async () => {
    const session = await createCommerceSession();
    expect((await session.call('add_to_cart', { product_id: 'p_0133' })).error).toMatch(
      /^No shopper is signed in/,
    );
    expect((await session.call('get_cart')).error).toMatch(/^No shopper is signed in/);
  });

  it('caps the number of cart lines', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const db = asCommerceDb(session.state.db);
    const simple = db.products
      .filter((p) => p.variants.length === 0 && (p.stock ?? 0) > 0)
      .slice(0, 21);
    for (const product of simple.slice(0, 20)) {
      expect((await session.call('add_to_cart', { product_id: product.id })).ok).toBe(true);
    }
    expect((await session.call('add_to_cart', { product_id: simple[20]?.id })).error).toMatch(
      /The cart is full/,
    );
  });
});

describe('update_cart_quantity and remove_from_cart', () => {
  const seeded = (): Promise<CommerceSession> =>
    createCommerceSession({
      userId: 'u_005',
      initialization: [
        {
          func_name: 'seed_cart',
          arguments: {
            items: [
              { product_id: 'p_0270', sku: 'FIT-0270-TEL', quantity: 2 },
              { product_id: 'p_0247', quantity: 1 },
            ],
          },
        },
      ],
    });

  it('sets a quantity and prices the cart', async () => {
    const session = await seeded();
    const outcome = await session.call('update_cart_quantity', {
      sku: 'FIT-0270-TEL',
      quantity: 4,
    });
    expect(outcome.ok).toBe(true);
    // 4 x 60.95 + 66.99 = 310.79; tax 25.640175 -> 25.64
    expect(outcome.result).toMatchObject({
      item_count: 5,
      subtotal: 310.79,
      tax: 25.64,
      total: 336.43,
    });
  });

  it('refuses a sku not in the cart, zero, more than 10 and more than stock', async () => {
    const session = await seeded();
    expect(
      (await session.call('update_cart_quantity', { sku: 'AUD-0007-BLK', quantity: 1 })).error,
    ).toBe("SKU 'AUD-0007-BLK' is not in the cart. Cart SKUs: FIT-0270-TEL, FIT-0247.");
    expect(
      (await session.call('update_cart_quantity', { sku: 'FIT-0270-TEL', quantity: 0 })).error,
    ).toMatch(/argument 'quantity' must be >= 1/);
    expect(
      (await session.call('update_cart_quantity', { sku: 'FIT-0270-TEL', quantity: 11 })).ok,
    ).toBe(false);
    await session.call('remove_from_cart', { sku: 'FIT-0247' });
    const low = await createCommerceSession({
      userId: 'u_005',
      initialization: [
        { func_name: 'seed_cart', arguments: { items: [{ product_id: 'p_0245', quantity: 1 }] } },
      ],
    });
    expect((await low.call('update_cart_quantity', { sku: 'FIT-0245', quantity: 4 })).error).toBe(
      'Only 3 of Momentum Elite 3 Resistance Bands Set left in stock.',
    );
  });

  it('removes a line, and refuses to remove one that is not there', async () => {
    const session = await seeded();
    const outcome = await session.call('remove_from_cart', { sku: 'FIT-0247' });
    expect(outcome.ok).toBe(true);
    expect(cartOf(session, 'u_005')).toEqual([
      { product_id: 'p_0270', sku: 'FIT-0270-TEL', quantity: 2 },
    ]);
    expect((await session.call('remove_from_cart', { sku: 'FIT-0247' })).error).toBe(
      "SKU 'FIT-0247' is not in the cart. Cart SKUs: FIT-0270-TEL.",
    );
    await session.call('remove_from_cart', { sku: 'FIT-0270-TEL' });
    expect((await session.call('remove_from_cart', { sku: 'FIT-0270-TEL' })).error).toBe(
      "SKU 'FIT-0270-TEL' is not in the cart. The cart is empty.",
    );
  });

  it('get_cart lists priced lines with options', async () => {
    const session = await seeded();
    const cart = (await session.call('get_cart')).result as {
      items: Record<string, unknown>[];
      total: number;
    };
    expect(cart.items[0]).toEqual({
      product_id: 'p_0270',
      sku: 'FIT-0270-TEL',
      name: 'Ironpeak Elite Yoga Mat',
      options: { color: 'teal' },
      unit_price: 60.95,
      quantity: 2,
      line_total: 121.9,
      stock: 25,
    });
    // 121.90 + 66.99 = 188.89; tax 15.583425 -> 15.58
    expect(cart.total).toBe(204.47);
  });
});

describe('selection', () => {
  it('adds, lists and removes products, without touching the cart', async () => {
    const session = await createCommerceSession({ userId: 'u_003' });
    expect((await session.call('add_to_selection', { product_id: 'p_0193' })).ok).toBe(true);
    const added = await session.call('add_to_selection', { product_id: 'p_0181' });
    expect(added.result).toMatchObject({ product_ids: ['p_0193', 'p_0181'], count: 2 });
    expect((await session.call('get_selection')).result).toMatchObject({
      products: [{ product_id: 'p_0193' }, { product_id: 'p_0181' }],
    });
    expect(
      (await session.call('remove_from_selection', { product_id: 'p_0193' })).result,
    ).toMatchObject({
      product_ids: ['p_0181'],
    });
    expect(cartOf(session, 'u_003')).toEqual([]);
    expect(session.state.actions.map((a) => a.name)).toEqual([
      'add_to_selection',
      'add_to_selection',
      'remove_from_selection',
    ]);
  });

  it('refuses duplicates, unknown products and removing what is not there', async () => {
    const session = await createCommerceSession({ userId: 'u_003' });
    await session.call('add_to_selection', { product_id: 'p_0193' });
    expect((await session.call('add_to_selection', { product_id: 'p_0193' })).error).toBe(
      'Northbound Alpine 2 Waterproof Rain Jacket (p_0193) is already in the selection.',
    );
    expect((await session.call('add_to_selection', { product_id: 'p_0000' })).error).toMatch(
      /Unknown product id 'p_0000'/,
    );
    expect((await session.call('remove_from_selection', { product_id: 'p_0001' })).error).toBe(
      "Product 'p_0001' is not in the selection.",
    );
  });

  it('caps the selection at 20 products', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `p_${String(i + 1).padStart(4, '0')}`);
    const session = await createCommerceSession({
      userId: 'u_003',
      initialization: [{ func_name: 'seed_selection', arguments: { product_ids: ids } }],
    });
    expect((await session.call('add_to_selection', { product_id: 'p_0021' })).error).toMatch(
      /The selection is full \(20 products\)/,
    );
  });
});

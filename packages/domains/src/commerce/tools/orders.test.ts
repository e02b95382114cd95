import { describe, expect, it } from 'vitest';
import { asCommerceDb } from '../model/db-types.js';
import type { CommerceDb } from '../model/db-types.js';
import { nextOrderId } from '../model/orders.js';
import { createCommerceSession } from '../session.js';
import type { CommerceSession } from '../session.js';

const db = (session: CommerceSession): CommerceDb => asCommerceDb(session.state.db);
const variantStock = (
  session: CommerceSession,
  productId: string,
  sku: string,
): number | undefined =>
  db(session)
    .products.find((p) => p.id === productId)
    ?.variants.find((v) => v.sku === sku)?.stock;
const giftBalance = (session: CommerceSession, userId: string, id: string): number | undefined => {
  const method = db(session)
    .users.find((u) => u.id === userId)
    ?.payment_methods.find((m) => m.id === id);
  return method?.type === 'gift_card' ? method.balance : undefined;
};

const placeOrder = (session: CommerceSession, paymentMethodId: string, addressId: string) =>
  session.call('place_order', {
    payment_method_id: paymentMethodId,
    shipping_address_id: addressId,
  });
const cancelOrder = (session: CommerceSession, orderId: string, reason: string) =>
  session.call('cancel_order', { order_id: orderId, reason });

function withCart(
  userId: string,
  items: { product_id: string; sku?: string; quantity?: number }[],
) {
  return createCommerceSession({
    userId,
    initialization: [{ func_name: 'seed_cart', arguments: { items } }],
  });
}

describe('place_order', () => {
  it('creates a pending order with the next id, takes the stock and empties the cart', async () => {
    const session = await withCart('u_001', [
      { product_id: 'p_0007', sku: 'AUD-0007-BLK', quantity: 1 },
      { product_id: 'p_0133', quantity: 2 },
    ]);
    expect(nextOrderId(db(session))).toBe('o_1025');
    const outcome = await placeOrder(session, 'card_001_visa', 'addr_001_home');
    expect(outcome.ok).toBe(true);
    expect(outcome.result).toMatchObject({
      order_id: 'o_1025',
      status: 'pending',
      created_at: '2025-06-02T15:00:00Z',
      subtotal: 279.97,
      tax: 23.1,
      total: 303.07,
      payment_method: 'visa card ending 4242',
      shipping_address: '1420 Pine Street, Apt 5B, Seattle, WA 98101, US',
      items: [
        {
          product_id: 'p_0007',
          sku: 'AUD-0007-BLK',
          options: { color: 'black' },
          quantity: 1,
          unit_price: 172.99,
        },
        { product_id: 'p_0133', sku: 'OUT-0133', quantity: 2, unit_price: 53.49 },
      ],
    });
    expect(outcome.action?.name).toBe('place_order');
    const order = db(session).orders.at(-1);
    expect(order?.id).toBe('o_1025');
    expect(order?.items[1]?.options).toBeUndefined();
    expect(variantStock(session, 'p_0007', 'AUD-0007-BLK')).toBe(23);
    expect(db(session).products.find((p) => p.id === 'p_0133')?.stock).toBe(48);
    expect(db(session).users.find((u) => u.id === 'u_001')?.cart.items).toEqual([]);

    await session.call('add_to_cart', { product_id: 'p_0133' });
    const second = await placeOrder(session, 'paypal_001', 'addr_001_work');
    expect(second.result).toMatchObject({ order_id: 'o_1026' });
  });

  it('uses variant prices', async () => {
    const session = await withCart('u_002', [{ product_id: 'p_0066', sku: 'PHN-0066-BLU-256GB' }]);
    const outcome = await placeOrder(session, 'card_002_mc', 'addr_002_home');
    // 1141.49 + 8.25 % (94.172925 -> 94.17)
    expect(outcome.result).toMatchObject({ subtotal: 1141.49, tax: 94.17, total: 1235.66 });
  });

  it('pays with a gift card that covers the total', async () => {
    const session = await withCart('u_004', [
      { product_id: 'p_0246', sku: 'FIT-0246-12KG' },
      { product_id: 'p_0256', sku: 'FIT-0256-SAG', quantity: 2 },
    ]);
    const outcome = await placeOrder(session, 'gift_004', 'addr_004_home');
    expect(outcome.result).toMatchObject({
      total: 182.82,
      payment_method: 'gift card (balance $67.18)',
    });
    expect(giftBalance(session, 'u_004', 'gift_004')).toBe(67.18);
  });

  it('refuses a gift card that does not cover the total and changes nothing', async () => {
    const session = await withCart('u_002', [{ product_id: 'p_0278', sku: 'GAM-0278-LIN' }]);
    const before = structuredClone(session.state.db);
    const outcome = await placeOrder(session, 'gift_002', 'addr_002_home');
    expect(outcome.error).toBe(
      'The gift card balance ($20.00) does not cover the order total ($61.69); gift cards cannot be combined ' +
        'with another payment method. Choose another payment method or remove items.',
    );
    expect(session.state.db).toEqual(before);
    expect(session.state.actions).toEqual([]);
  });

  it("refuses another shopper's payment method or address, and unknown ones", async () => {
    const session = await withCart('u_002', [{ product_id: 'p_0133' }]);
    expect((await placeOrder(session, 'card_001_visa', 'addr_002_home')).error).toBe(
      "Payment method 'card_001_visa' does not belong to James Okafor. Their payment methods: card_002_mc, gift_002.",
    );
    expect((await placeOrder(session, 'card_002_mc', 'addr_001_home')).error).toBe(
      "Address 'addr_001_home' does not belong to James Okafor. Their addresses: addr_002_home (home).",
    );
    expect((await session.call('place_order', { payment_method_id: 'card_002_mc' })).error).toMatch(
      /missing required argument 'shipping_address_id'/,
    );
  });

  it('refuses an empty cart', async () => {
    const session = await createCommerceSession({ userId: 'u_006' });
    expect((await placeOrder(session, 'card_006_mc', 'addr_006_home')).error).toBe(
      'The cart is empty; add items before placing an order.',
    );
  });

  it('refuses when stock fell below the cart quantity', async () => {
    const session = await createCommerceSession({
      userId: 'u_006',
      initialization: [
        { func_name: 'seed_cart', arguments: { items: [{ product_id: 'p_0133', quantity: 4 }] } },
        { func_name: 'set_stock', arguments: { product_id: 'p_0133', stock: 2 } },
      ],
    });
    expect((await placeOrder(session, 'card_006_mc', 'addr_006_home')).error).toBe(
      'Not enough stock for: Alpenwerk Trek Rechargeable Headlamp OUT-0133 (in cart 4, in stock 2). Update the cart first.',
    );
  });
});

describe('cancel_order', () => {
  it('cancels a processing gift-card order: restock and refund to the gift card', async () => {
    const session = await createCommerceSession({ userId: 'u_004' });
    const stockBefore = variantStock(session, 'p_0237', 'HOM-0237-9KG') ?? 0;
    const outcome = await cancelOrder(session, 'o_1017', 'found_better_price');
    expect(outcome.result).toEqual({
      order_id: 'o_1017',
      status: 'cancelled',
      refund_amount: 1017.52,
      refunded_to: 'gift_004',
      refund_method: 'gift card (balance $1267.52)',
    });
    expect(variantStock(session, 'p_0237', 'HOM-0237-9KG')).toBe(stockBefore + 2);
    expect(db(session).orders.find((o) => o.id === 'o_1017')?.cancellation).toEqual({
      reason: 'found_better_price',
      refund_amount: 1017.52,
      refunded_to: 'gift_004',
    });
  });

  it('cancels a pending card order without touching gift cards', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const outcome = await cancelOrder(session, 'o_1023', 'no_longer_needed');
    expect(outcome.result).toMatchObject({
      status: 'cancelled',
      refund_method: 'visa card ending 4242',
    });
    expect(giftBalance(session, 'u_001', 'gift_001')).toBe(75);
  });

  it('refuses shipped, delivered and already cancelled orders', async () => {
    const session = await createCommerceSession({ userId: 'u_002' });
    const cancel = async (order_id: string) =>
      (await cancelOrder(session, order_id, 'other')).error;
    await cancelOrder(session, 'o_1016', 'other');
    expect(await cancel('o_1016')).toBe(
      'Order o_1016 is already cancelled and cannot be cancelled; only pending or processing orders can be.',
    );
    expect(await cancel('o_1003')).toBe(
      'Order o_1003 has already been delivered and cannot be cancelled; only pending or processing orders can be.',
    );
    const maya = await createCommerceSession({ userId: 'u_001' });
    expect((await cancelOrder(maya, 'o_1013', 'other')).error).toMatch(
      /^Order o_1013 has already shipped/,
    );
  });

  it("refuses another shopper's order and an unlisted reason", async () => {
    const session = await createCommerceSession({ userId: 'u_002' });
    expect((await cancelOrder(session, 'o_1017', 'other')).error).toBe(
      "No order 'o_1017' found for James Okafor.",
    );
    expect((await cancelOrder(session, 'o_1016', 'because')).error).toMatch(
      /argument 'reason' must be equal to one of the allowed values/,
    );
  });
});

describe('account', () => {
  it('get_user_details lists addresses, payment methods and orders newest first', async () => {
    const session = await createCommerceSession({ userId: 'u_004' });
    const details = (await session.call('get_user_details')).result as {
      name: string;
      payment_methods: { id: string; description: string }[];
      orders: { order_id: string; status: string }[];
    };
    expect(details.name).toBe('Liam Murphy');
    expect(details.payment_methods.map((m) => m.description)).toEqual([
      'gift card (balance $250.00)',
      'visa card ending 9876',
    ]);
    expect(details.orders.map((o) => o.order_id)).toEqual(['o_1022', 'o_1017', 'o_1011', 'o_1005']);
  });

  it("get_order_details shows only the shopper's own orders", async () => {
    const session = await createCommerceSession({ userId: 'u_003' });
    expect((await session.call('get_order_details', { order_id: 'o_1020' })).result).toMatchObject({
      order_id: 'o_1020',
      status: 'pending',
      payment_method: 'amex card ending 1005',
    });
    expect((await session.call('get_order_details', { order_id: 'o_1001' })).error).toBe(
      "No order 'o_1001' found for Sofia Rossi.",
    );
  });
});

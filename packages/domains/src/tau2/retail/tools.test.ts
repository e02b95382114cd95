import { describe, expect, it } from 'vitest';
import { toolTests } from '../../test-support/tool-calls.js';
import { retailTools } from './domain.js';

const address = {
  address1: '1 Main St',
  address2: '',
  city: 'Austin',
  country: 'USA',
  state: 'TX',
  zip: '78701',
};

/** The red T-shirt as an order item. */
function redShirt(): Record<string, unknown> {
  return {
    name: 'T-Shirt',
    product_id: '1000000001',
    item_id: '2000000001',
    price: 10.1,
    options: { color: 'red' },
  };
}

/** A product with its variants by item id, each `[item id, options, price, available (default true)]`. */
function product(
  name: string,
  product_id: string,
  ...variants: [string, Record<string, string>, number, boolean?][]
): Record<string, unknown> {
  return {
    name,
    product_id,
    variants: Object.fromEntries(
      variants.map(([item_id, options, price, available = true]) => [
        item_id,
        { item_id, options, available, price },
      ]),
    ),
  };
}

function fixture(): Record<string, unknown> {
  return {
    products: {
      '1000000001': product(
        'T-Shirt',
        '1000000001',
        ['2000000001', { color: 'red' }, 10.1],
        ['2000000002', { color: 'blue' }, 12.35],
        ['2000000003', { color: 'green' }, 9, false],
      ),
      '1000000002': product(
        'Lamp',
        '1000000002',
        ['3000000001', { style: 'desk' }, 40],
        ['3000000002', { style: 'floor' }, 55.55],
      ),
    },
    users: {
      bo_chen_1: {
        user_id: 'bo_chen_1',
        name: { first_name: 'Bo', last_name: 'Chen' },
        address,
        email: 'Bo.Chen@example.com',
        payment_methods: {
          gift_card_1: { source: 'gift_card', id: 'gift_card_1', balance: 20.2 },
          credit_card_1: {
            source: 'credit_card',
            id: 'credit_card_1',
            brand: 'visa',
            last_four: '4242',
          },
        },
        orders: ['#W1', '#W2'],
      },
    },
    orders: {
      '#W1': {
        order_id: '#W1',
        user_id: 'bo_chen_1',
        address,
        items: [
          redShirt(),
          {
            name: 'Lamp',
            product_id: '1000000002',
            item_id: '3000000001',
            price: 40,
            options: { style: 'desk' },
          },
        ],
        status: 'pending',
        fulfillments: [],
        payment_history: [
          { transaction_type: 'payment', amount: 50.1, payment_method_id: 'gift_card_1' },
        ],
      },
      '#W2': {
        order_id: '#W2',
        user_id: 'bo_chen_1',
        address,
        items: [redShirt()],
        status: 'delivered',
        fulfillments: [],
        payment_history: [
          { transaction_type: 'payment', amount: 10.1, payment_method_id: 'credit_card_1' },
        ],
      },
    },
  };
}

const { session, call, db } = toolTests(retailTools, 'tau2_retail', fixture);

describe('tau2 retail tools', () => {
  it('modifies pending items: each item takes its own variant, the difference is rounded', async () => {
    const state = session();
    const out = await call(state, 'modify_pending_order_items', {
      order_id: '#W1',
      item_ids: ['2000000001', '3000000001'],
      new_item_ids: ['2000000002', '3000000002'],
      payment_method_id: 'gift_card_1',
    });
    // (12.35 - 10.1) + (55.55 - 40) = 17.8 in exact decimals; the float sum is rounded to 2 places.
    expect(out.result).toEqual({ order_id: '#W1', price_difference: 17.8 });
    const order = db(state).orders['#W1'];
    expect(order.status).toBe('pending (item modified)');
    expect(
      order.items.map((i: { item_id: string; price: number }) => [i.item_id, i.price]),
    ).toEqual([
      ['2000000002', 12.35],
      ['3000000002', 55.55],
    ]);
    expect(order.items[1].options).toEqual({ style: 'floor' });
    expect(order.payment_history.at(-1)).toEqual({
      transaction_type: 'payment',
      amount: 17.8,
      payment_method_id: 'gift_card_1',
    });
    expect(db(state).users.bo_chen_1.payment_methods.gift_card_1.balance).toBe(2.4);
    const again = await call(state, 'modify_pending_order_items', {
      order_id: '#W1',
      item_ids: ['2000000002'],
      new_item_ids: ['2000000001'],
      payment_method_id: 'credit_card_1',
    });
    expect(again.error).toBe('Non-pending order cannot be modified');
  });

  it('refuses bad item changes with tau2 messages', async () => {
    const state = session();
    const base = { order_id: '#W1', payment_method_id: 'credit_card_1' };
    const cases: [object, string][] = [
      [
        { item_ids: ['2000000001', '2000000001'], new_item_ids: ['2000000002', '2000000002'] },
        '2000000001 not found',
      ],
      [
        { item_ids: ['2000000001'], new_item_ids: [] },
        'The number of items to be exchanged should match',
      ],
      [
        { item_ids: ['2000000001'], new_item_ids: ['2000000001'] },
        'The new item id should be different from the old item id',
      ],
      [
        { item_ids: ['2000000001'], new_item_ids: ['2000000003'] },
        'New item 2000000003 not found or available',
      ],
      [{ item_ids: ['2000000001'], new_item_ids: ['3000000001'] }, 'Variant not found'],
    ];
    for (const [args, error] of cases) {
      expect((await call(state, 'modify_pending_order_items', { ...base, ...args })).error).toBe(
        error,
      );
    }
    expect(state.actions).toEqual([]);
  });

  it('exchanges and returns delivered items only', async () => {
    const state = session();
    expect(
      (
        await call(state, 'exchange_delivered_order_items', {
          order_id: '#W1',
          item_ids: ['2000000001'],
          new_item_ids: ['2000000002'],
          payment_method_id: 'credit_card_1',
        })
      ).error,
    ).toBe('Non-delivered order cannot be exchanged');
    const out = await call(state, 'exchange_delivered_order_items', {
      order_id: '#W2',
      item_ids: ['2000000001'],
      new_item_ids: ['2000000002'],
      payment_method_id: 'credit_card_1',
    });
    expect(out.result).toEqual({
      order_id: '#W2',
      status: 'exchange requested',
      price_difference: 2.25,
    });
    expect(db(state).orders['#W2'].exchange_new_items).toEqual(['2000000002']);
    const returned = await call(state, 'return_delivered_order_items', {
      order_id: '#W2',
      item_ids: ['2000000001'],
      payment_method_id: 'credit_card_1',
    });
    expect(returned.error).toBe('Non-delivered order cannot be returned');
  });

  it('returns to the original payment method or a gift card', async () => {
    const state = session();
    const wrong = await call(state, 'return_delivered_order_items', {
      order_id: '#W2',
      item_ids: ['2000000001'],
      payment_method_id: 'paypal_9',
    });
    expect(wrong.error).toBe('Payment method not found');
    const ok = await call(state, 'return_delivered_order_items', {
      order_id: '#W2',
      item_ids: ['2000000001'],
      payment_method_id: 'gift_card_1',
    });
    expect(ok.result).toEqual({ order_id: '#W2', status: 'return requested' });
    expect(db(state).orders['#W2'].return_items).toEqual(['2000000001']);
  });

  it('cancels a pending order, refunding gift cards at once (rounded)', async () => {
    const state = session();
    expect(
      (await call(state, 'cancel_pending_order', { order_id: '#W1', reason: 'because' })).error,
    ).toBe('Invalid reason');
    const out = await call(state, 'cancel_pending_order', {
      order_id: '#W1',
      reason: 'no longer needed',
    });
    expect(out.result).toEqual({ order_id: '#W1', status: 'cancelled' });
    const order = db(state).orders['#W1'];
    expect(order.cancel_reason).toBe('no longer needed');
    expect(order.payment_history.at(-1)).toEqual({
      transaction_type: 'refund',
      amount: 50.1,
      payment_method_id: 'gift_card_1',
    });
    expect(db(state).users.bo_chen_1.payment_methods.gift_card_1.balance).toBe(70.3);
    expect(
      (await call(state, 'cancel_pending_order', { order_id: '#W2', reason: 'ordered by mistake' }))
        .error,
    ).toBe('Non-pending order cannot be cancelled');
  });

  it('changes the payment method of a pending order', async () => {
    const state = session();
    expect(
      (
        await call(state, 'modify_pending_order_payment', {
          order_id: '#W1',
          payment_method_id: 'gift_card_1',
        })
      ).error,
    ).toBe('The new payment method should be different from the current one');
    const out = await call(state, 'modify_pending_order_payment', {
      order_id: '#W1',
      payment_method_id: 'credit_card_1',
    });
    expect(out.result).toEqual({ order_id: '#W1' });
    expect(db(state).orders['#W1'].payment_history).toHaveLength(3);
    expect(db(state).users.bo_chen_1.payment_methods.gift_card_1.balance).toBe(70.3);
  });

  it('finds users and lists product types like tau2', async () => {
    const state = session();
    expect(
      (await call(state, 'find_user_id_by_email', { email: 'bo.chen@EXAMPLE.com' })).result,
    ).toBe('bo_chen_1');
    expect(
      (
        await call(state, 'find_user_id_by_name_zip', {
          first_name: 'bo',
          last_name: 'CHEN',
          zip: '78701',
        })
      ).result,
    ).toBe('bo_chen_1');
    expect(
      (
        await call(state, 'find_user_id_by_name_zip', {
          first_name: 'Bo',
          last_name: 'Chen',
          zip: '00000',
        })
      ).error,
    ).toBe('User not found');
    expect((await call(state, 'list_all_product_types', {})).result).toBe(
      '{"Lamp": "1000000002", "T-Shirt": "1000000001"}',
    );
    expect((await call(state, 'get_item_details', { item_id: '3000000002' })).result).toMatchObject(
      { price: 55.55 },
    );
    expect((await call(state, 'get_order_details', { order_id: 'W1' })).error).toBe(
      'Order not found',
    );
    const modified = await call(state, 'modify_user_address', {
      user_id: 'bo_chen_1',
      ...address,
      city: 'Dallas',
    });
    expect(modified.result).toEqual({ user_id: 'bo_chen_1' });
    expect(db(state).users.bo_chen_1.address.city).toBe('Dallas');
  });
});

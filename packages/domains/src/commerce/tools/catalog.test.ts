import { describe, expect, it } from 'vitest';
import { COMMERCE_TOOLS, commerceTool } from '../domain.js';
import { tokenize } from '../model/search.js';
import { createCommerceSession } from '../session.js';
import { END_CONVERSATION_REASON } from './account.js';
import { COMMERCE_FEATURES } from './frontend.js';

interface Summary {
  product_id: string;
  name: string;
  price: number;
  category: string;
  in_stock: boolean;
  options?: Record<string, string[]>;
}
interface SearchOut {
  total_matches: number;
  results: Summary[];
  message?: string;
}

describe('tool list', () => {
  it('gives every tool the documented kind', () => {
    const kinds = Object.fromEntries(COMMERCE_TOOLS.map((t) => [t.name, t.kind]));
    expect(kinds).toEqual({
      search_products: 'read',
      get_product_details: 'read',
      compare_products: 'read',
      show_products: 'frontend',
      show_product: 'frontend',
      show_comparison: 'frontend',
      add_to_selection: 'write',
      remove_from_selection: 'write',
      get_selection: 'read',
      add_to_cart: 'write',
      update_cart_quantity: 'write',
      remove_from_cart: 'write',
      get_cart: 'read',
      get_user_details: 'read',
      place_order: 'write',
      cancel_order: 'write',
      get_order_details: 'read',
      end_conversation: 'control',
    });
  });

  it('names the storefront feature of each frontend tool', () => {
    expect(commerceTool('show_products')?.frontend).toEqual({
      feature: COMMERCE_FEATURES.PRODUCT_GRID,
    });
    expect(commerceTool('show_product')?.frontend).toEqual({ feature: 'product_detail' });
    expect(commerceTool('show_comparison')?.frontend).toEqual({ feature: 'comparison' });
  });

  it('ends the conversation with the standard exit reason', async () => {
    const session = await createCommerceSession();
    const outcome = await session.call('end_conversation');
    expect(outcome.ok).toBe(true);
    expect(outcome.exitReason).toBe(END_CONVERSATION_REASON);
    expect(END_CONVERSATION_REASON).toBe('The task is finished.');
    expect(outcome.action).toBeUndefined();
  });

  it('closes every schema against unknown arguments', () => {
    for (const tool of COMMERCE_TOOLS)
      expect(tool.parameters.additionalProperties, tool.name).toBe(false);
  });
});

describe('search_products', () => {
  it('ranks products matching more words first and reports the total', async () => {
    const session = await createCommerceSession();
    const out = (
      await session.call('search_products', { query: 'wireless noise cancelling headphones' })
    ).result as SearchOut;
    expect(out.total_matches).toBeGreaterThan(5);
    expect(out.results).toHaveLength(5);
    for (const r of out.results) expect(r.name).toMatch(/Noise-Cancelling Headphones/);
  });

  it('applies category, price and stock filters and the limit', async () => {
    const session = await createCommerceSession();
    const out = (
      await session.call('search_products', {
        query: 'headphones',
        category: 'audio',
        max_price: 200,
        min_price: 100,
        in_stock_only: true,
        limit: 20,
      })
    ).result as SearchOut;
    expect(out.results.length).toBeGreaterThan(0);
    for (const r of out.results) {
      expect(r.category).toBe('audio');
      expect(r.price).toBeGreaterThanOrEqual(100);
      expect(r.price).toBeLessThanOrEqual(200);
      expect(r.in_stock).toBe(true);
    }
  });

  it('lists in-stock products before sold-out ones of equal relevance', async () => {
    const session = await createCommerceSession();
    const out = (await session.call('search_products', { query: 'trail running shoes', limit: 20 }))
      .result as SearchOut;
    const firstSoldOut = out.results.findIndex((r) => !r.in_stock);
    expect(firstSoldOut).toBeGreaterThan(0);
  });

  it('finds products by variant option values and shows their options', async () => {
    const session = await createCommerceSession();
    const out = (await session.call('search_products', { query: 'teal yoga mat', limit: 3 }))
      .result as SearchOut;
    expect(out.results[0]?.options?.['color']).toContain('teal');
  });

  it('ranks by rating without query words', async () => {
    const session = await createCommerceSession();
    const out = (await session.call('search_products', { category: 'kitchen', limit: 3 }))
      .result as SearchOut;
    expect(out.results).toHaveLength(3);
    expect(out.total_matches).toBe(30);
  });

  it('says so when nothing matches', async () => {
    const session = await createCommerceSession();
    const out = (await session.call('search_products', { query: 'submarine periscope' }))
      .result as SearchOut;
    expect(out.total_matches).toBe(0);
    expect(out.message).toMatch(/No products match/);
  });

  it('refuses an unknown category, an inverted price range and a bad limit', async () => {
    const session = await createCommerceSession();
    expect((await session.call('search_products', { category: 'boats' })).error).toMatch(
      /Unknown category 'boats'. Categories: audio, laptops/,
    );
    expect((await session.call('search_products', { min_price: 50, max_price: 10 })).error).toMatch(
      /min_price \(50\) is above max_price \(10\)/,
    );
    expect((await session.call('search_products', { limit: 500 })).error).toMatch(/limit/);
    expect((await session.call('search_products', { colour: 'red' })).error).toMatch(
      /unexpected argument 'colour'/,
    );
  });

  it('normalises plurals, stop words and synonyms', () => {
    expect(tokenize('I need some Headphones for my trainers')).toEqual(['headphone', 'sneaker']);
    expect(tokenize('noise-canceling earphones, grey')).toEqual([
      'noise',
      'cancelling',
      'earbud',
      'gray',
    ]);
  });
});

describe('get_product_details', () => {
  it('returns variants with sku, options, price and stock', async () => {
    const session = await createCommerceSession();
    const details = (await session.call('get_product_details', { product_id: 'p_0066' }))
      .result as {
      variants: {
        sku: string;
        color: string;
        storage: string;
        price: number;
        stock: number;
        in_stock: boolean;
      }[];
    };
    expect(details.variants).toContainEqual({
      sku: 'PHN-0066-BLU-256GB',
      color: 'blue',
      storage: '256GB',
      price: 1141.49,
      stock: 15,
      in_stock: true,
    });
  });

  it('gives a product without variants its own sku and stock', async () => {
    const session = await createCommerceSession();
    const details = (await session.call('get_product_details', { product_id: 'p_0005' }))
      .result as Record<string, unknown>;
    expect(details).toMatchObject({ sku: 'AUD-0005', stock: 0, in_stock: false });
    expect(details['variants']).toBeUndefined();
  });

  it('refuses an unknown id', async () => {
    const session = await createCommerceSession();
    const outcome = await session.call('get_product_details', { product_id: 'p_9999' });
    expect(outcome.ok).toBe(false);
    expect(outcome.modelResult).toEqual({
      error: "Unknown product id 'p_9999'. Use search_products to find product ids.",
    });
  });
});

describe('compare_products', () => {
  it('builds one row per attribute with one value per product', async () => {
    const session = await createCommerceSession();
    const table = (await session.call('compare_products', { product_ids: ['p_0031', 'p_0049'] }))
      .result as {
      products: { product_id: string }[];
      rows: { attribute: string; values: unknown[] }[];
    };
    expect(table.products.map((p) => p.product_id)).toEqual(['p_0031', 'p_0049']);
    const row = (name: string): unknown[] | undefined =>
      table.rows.find((r) => r.attribute === name)?.values;
    expect(row('price')).toEqual([842.99, 835.49]);
    expect(row('battery_life_hours')).toEqual([14, 18]);
    expect(row('storage_options')).toEqual(['256GB, 512GB, 1TB', '256GB, 512GB, 1TB']);
    for (const r of table.rows) expect(r.values).toHaveLength(2);
  });

  it('fills attributes a product lacks with null', async () => {
    const session = await createCommerceSession();
    const table = (await session.call('compare_products', { product_ids: ['p_0001', 'p_0031'] }))
      .result as {
      rows: { attribute: string; values: unknown[] }[];
    };
    expect(table.rows.find((r) => r.attribute === 'cpu')?.values).toEqual([null, 'Ryzen 5']);
  });

  it('refuses fewer than 2, more than 4, duplicate and unknown ids', async () => {
    const session = await createCommerceSession();
    expect((await session.call('compare_products', { product_ids: ['p_0001'] })).ok).toBe(false);
    expect(
      (
        await session.call('compare_products', {
          product_ids: ['p_0001', 'p_0002', 'p_0003', 'p_0004', 'p_0005'],
        })
      ).ok,
    ).toBe(false);
    expect(
      (await session.call('compare_products', { product_ids: ['p_0001', 'p_0001'] })).error,
    ).toMatch(/duplicate items/);
    expect(
      (await session.call('compare_products', { product_ids: ['p_0001', 'nope'] })).error,
    ).toMatch(/Unknown product id 'nope'/);
  });
});

describe('frontend tools without a browser', () => {
  it('show_products returns the cards the grid would render, in order', async () => {
    const session = await createCommerceSession();
    const outcome = await session.call('show_products', {
      product_ids: ['p_0013', 'p_0007'],
      title: 'Picks',
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.action).toBeUndefined();
    expect(outcome.result).toMatchObject({
      feature: 'product_grid',
      title: 'Picks',
      shown: 2,
      products: [{ product_id: 'p_0013' }, { product_id: 'p_0007' }],
    });
  });

  it('show_product preselects a variant and refuses a foreign sku', async () => {
    const session = await createCommerceSession();
    expect(
      (await session.call('show_product', { product_id: 'p_0152', sku: 'SHO-0152-OLV-9' })).result,
    ).toMatchObject({
      feature: 'product_detail',
      selected_sku: 'SHO-0152-OLV-9',
      product: { product_id: 'p_0152' },
    });
    expect(
      (await session.call('show_product', { product_id: 'p_0152', sku: 'AUD-0001-SAG' })).error,
    ).toMatch(/SKU 'AUD-0001-SAG' is not a variant of product p_0152/);
  });

  it('show_comparison returns the comparison table', async () => {
    const session = await createCommerceSession();
    const result = (await session.call('show_comparison', { product_ids: ['p_0100', 'p_0116'] }))
      .result as {
      feature: string;
      rows: unknown[];
    };
    expect(result.feature).toBe('comparison');
    expect(result.rows.length).toBeGreaterThan(4);
  });

  it('does not change the db', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const before = structuredClone(session.state.db);
    await session.call('show_products', { product_ids: ['p_0001'] });
    await session.call('search_products', { query: 'laptop' });
    await session.call('compare_products', { product_ids: ['p_0001', 'p_0002'] });
    expect(session.state.db).toEqual(before);
    expect(session.state.actions).toEqual([]);
  });
});

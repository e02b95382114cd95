/**
 * Hostile input: `__proto__` / `constructor` / `prototype` keys in scenario files, tool
 * arguments and initialization arguments must be refused without polluting any prototype.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkExpectedState } from './scenarios/expected-state.js';
import { ScenarioFileError } from './scenarios/file-error.js';
import { loadScenarioFile } from './scenarios/loader.js';
import { createCommerceSession } from './session.js';

function expectNoPollution(): void {
  const probe: Record<string, unknown> = {};
  expect(probe['polluted']).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Array.prototype).not.toHaveProperty('polluted');
}

const BASE =
  '"name": "hostile", "description": "x", "user": {"who": "w", "wants": "w"}, ' +
  '"initialization": {"agent": [{"func_name": "sign_in", "arguments": {"user_id": "u_001"}}]}';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'commerce-hostile-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  expectNoPollution();
});

async function issuesOf(text: string): Promise<string[]> {
  const file = path.join(dir, 'hostile.json');
  await writeFile(file, text);
  const error = await loadScenarioFile(file).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ScenarioFileError);
  return (error as ScenarioFileError).issues.map((i) => `${i.path}: ${i.message}`);
}

describe('scenario files', () => {
  it('refuses __proto__ at the top level', async () => {
    const issues = await issuesOf(`{${BASE}, "gold_actions": [], "__proto__": {"polluted": true}}`);
    expect(issues).toEqual(["$.__proto__: the key '__proto__' is not allowed"]);
  });

  it('refuses __proto__, constructor and prototype nested anywhere', async () => {
    const issues = await issuesOf(
      `{${BASE}, "gold_actions": [{"name": "add_to_cart", "arguments": {"product_id": "p_0133", "__proto__": {"polluted": 1}}}],` +
        ` "expected_state": {"orders[o_1001].status": {"constructor": {"prototype": {"polluted": 1}}}}}`,
    );
    expect(issues).toEqual([
      '$.expected_state["orders[o_1001].status"].constructor: the key \'constructor\' is not allowed',
      "$.gold_actions[0].arguments.__proto__: the key '__proto__' is not allowed",
    ]);
  });

  it('refuses prototype paths in expected_state keys', async () => {
    const issues = await issuesOf(
      `{${BASE}, "gold_actions": [], "expected_state": {"__proto__.polluted": true}}`,
    );
    expect(issues).toEqual([
      `$.expected_state["__proto__.polluted"]: bad path: forbidden path segment '__proto__' in '__proto__.polluted'`,
    ]);
    expect(
      checkExpectedState(
        {},
        JSON.parse('{"constructor.prototype.polluted": 1}') as Record<string, unknown>,
      ).ok,
    ).toBe(false);
  });
});

describe('deeply nested files', () => {
  it('refuses nesting beyond the limit quickly, naming where it starts', async () => {
    const depth = 200_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const started = performance.now();
    const issues = await issuesOf(
      `{${BASE}, "gold_actions": [{"name": "get_cart", "arguments": {"x": ${deep}}}]}`,
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(
      /^\$\.gold_actions\[0\]\.arguments\.x(\[0\]){60}: nested more than 64 levels deep$/,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('still reports deeply nested broken JSON', async () => {
    const issues = await issuesOf(`{"a": ${'['.repeat(200_000)}`);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^\$: invalid JSON: /);
  });
});

describe('tool arguments', () => {
  it('refuses a __proto__ argument before the tool runs', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    const args: unknown = JSON.parse(
      '{"product_id": "p_0133", "__proto__": {"polluted": true, "quantity": 10}}',
    );
    const outcome = await session.call('add_to_cart', args);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toMatch(/unexpected argument '__proto__'/);
    expect(session.state.actions).toEqual([]);
    const nested: unknown = JSON.parse(
      '{"product_ids": ["p_0001", {"__proto__": {"polluted": true}}]}',
    );
    expect((await session.call('compare_products', nested)).ok).toBe(false);
  });

  it('treats prototype names as ordinary unknown ids and words', async () => {
    const session = await createCommerceSession({ userId: 'u_001' });
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']) {
      expect((await session.call('get_product_details', { product_id: name })).error).toBe(
        `Unknown product id '${name}'. Use search_products to find product ids.`,
      );
      expect((await session.call('remove_from_cart', { sku: name })).ok).toBe(false);
      expect((await session.call('get_order_details', { order_id: name })).ok).toBe(false);
      expect((await session.call('add_to_cart', { product_id: 'p_0007', sku: name })).ok).toBe(
        false,
      );
      expect(
        (
          await session.call('place_order', {
            payment_method_id: name,
            shipping_address_id: 'addr_001_home',
          })
        ).ok,
      ).toBe(false);
    }
    const search = await session.call('search_products', {
      query: '__proto__ constructor prototype toString',
    });
    expect(search.ok).toBe(true);
  });

  it('refuses hostile initialization arguments', async () => {
    await expect(
      createCommerceSession({
        initialization: [
          {
            func_name: 'sign_in',
            arguments: JSON.parse('{"user_id": "u_001", "__proto__": {"polluted": 1}}') as Record<
              string,
              unknown
            >,
          },
        ],
      }),
    ).rejects.toThrow(/'sign_in' raised: Error: invalid arguments for sign_in/);
    await expect(
      createCommerceSession({
        initialization: [{ func_name: 'sign_in', arguments: { user_id: '__proto__' } }],
      }),
    ).rejects.toThrow(/Unknown user id '__proto__'/);
  });
});

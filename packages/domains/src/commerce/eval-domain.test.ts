import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DomainRegistry } from '@scenaro/agent/scenario';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMERCE_DATA_ROOT } from './data-root.js';
import { commerceEvalDomain, resolveCommerceDataRoot } from './eval-domain.js';
import { replayCommerceScenario } from './replay.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'commerce-root-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('COMMERCE_DATA_ROOT', () => {
  it('is the package data folder, from the sources and from the build', () => {
    expect(existsSync(path.join(COMMERCE_DATA_ROOT, 'commerce', 'db.json'))).toBe(true);
    expect(existsSync(path.join(COMMERCE_DATA_ROOT, 'commerce', 'policy.md'))).toBe(true);
    const pkg = path.resolve(COMMERCE_DATA_ROOT, '..');
    expect(existsSync(path.join(pkg, 'package.json'))).toBe(true);
    // dist/commerce/data-root.js sits at the same depth as src/commerce/data-root.ts.
    const fromDist = fileURLToPath(
      new URL('../../data', `file://${path.join(pkg, 'dist', 'commerce', 'data-root.js')}`),
    );
    expect(fromDist).toBe(COMMERCE_DATA_ROOT);
  });
});

describe('commerceEvalDomain', () => {
  it('announces its shipped data root and registers cleanly', () => {
    expect(commerceEvalDomain.name).toBe('commerce');
    expect(commerceEvalDomain.dataRoot).toBe(COMMERCE_DATA_ROOT);
    const registry = new DomainRegistry().register(commerceEvalDomain.module);
    expect(registry.toolsOf('commerce')).toHaveLength(18);
    expect(registry.initializationFunctionNames('commerce')).toEqual([
      'seed_cart',
      'seed_selection',
      'set_gift_card_balance',
      'set_order_status',
      'set_stock',
      'sign_in',
    ]);
    expect(registry.predicateNames('commerce')).toEqual(['value_at_path']);
  });

  it('loads the shipped scenarios for a data root without a commerce folder', async () => {
    expect(await resolveCommerceDataRoot(dir)).toBe(COMMERCE_DATA_ROOT);
    const scenarios = await commerceEvalDomain.loadScenarios(dir);
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    expect(scenarios[0]?.source.startsWith(COMMERCE_DATA_ROOT)).toBe(true);
  });

  it('lets a data root with commerce/scenarios override scenarios, policy and db', async () => {
    const root = path.join(dir, 'data');
    await mkdir(path.join(root, 'commerce', 'scenarios'), { recursive: true });
    await cp(
      path.join(COMMERCE_DATA_ROOT, 'commerce', 'db.json'),
      path.join(root, 'commerce', 'db.json'),
    );
    await writeFile(path.join(root, 'commerce', 'policy.md'), '# Our policy\n');
    await cp(
      path.join(COMMERCE_DATA_ROOT, 'commerce', 'scenarios', 'checkout_with_card.json'),
      path.join(root, 'commerce', 'scenarios', 'checkout_with_card.json'),
    );
    const scenarios = await commerceEvalDomain.loadScenarios(root);
    expect(scenarios.map((s) => s.name)).toEqual(['commerce__checkout_with_card']);
    expect(
      scenarios[0]?.agent.prompt.startsWith('# Our policy\n\n## Additional Notes to Follow'),
    ).toBe(true);
    const replay = await replayCommerceScenario(scenarios[0]!, { dataRoot: root });
    expect(replay.failures).toEqual([]);
    expect(replay.hashMatches).toBe(true);
  });

  it('predicate value_at_path reads expected-state paths', async () => {
    const [scenario] = await commerceEvalDomain.loadScenarios(dir);
    const replay = await replayCommerceScenario(scenario!);
    const predicate = commerceEvalDomain.module.predicates?.['value_at_path'];
    expect(predicate?.(replay.state.db ?? {}, { path: 'users[u_005].cart.items' })).toEqual([]);
    expect(predicate?.(replay.state.db ?? {}, { path: 'users[u_404]' })).toBeNull();
    expect(() => predicate?.(replay.state.db ?? {}, {})).toThrow(/needs a string 'path'/);
  });
});

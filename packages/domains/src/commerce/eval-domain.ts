/**
 * The commerce domain as the evaluation harness uses it.
 *
 * @module
 */
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { EvalDomain, Scenario } from '../scenario.js';
import { COMMERCE_DATA_ROOT, COMMERCE_DOMAIN } from './data-root.js';
import { commerceDomain } from './domain.js';
import { loadCommercePolicy, loadScenarioDir } from './scenarios/loader.js';

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The data root commerce scenarios are read from: `dataRoot` when it has a
 * `commerce/scenarios/` folder (your own scenarios and db), else the shipped
 * {@link COMMERCE_DATA_ROOT}. The agent bot must serve the same root, since scenarios point
 * it at `commerce/db.json` inside its data root.
 */
export async function resolveCommerceDataRoot(dataRoot?: string): Promise<string> {
  if (dataRoot !== undefined && (await isDirectory(path.join(dataRoot, 'commerce', 'scenarios')))) {
    return path.resolve(dataRoot);
  }
  return COMMERCE_DATA_ROOT;
}

/**
 * Load the commerce scenarios of a data root (see {@link resolveCommerceDataRoot}); the agent
 * prompt is that root's `commerce/policy.md` (the shipped policy when it has none).
 */
export async function loadCommerceScenarios(dataRoot?: string): Promise<Scenario[]> {
  const root = await resolveCommerceDataRoot(dataRoot);
  const policyFile = path.join(root, 'commerce', 'policy.md');
  const policy = await loadCommercePolicy(
    (await stat(policyFile).catch(() => undefined)) ? root : undefined,
  );
  return loadScenarioDir(path.join(root, 'commerce', 'scenarios'), { policy });
}

/**
 * The commerce {@link EvalDomain}: our own voice-shopping domain. Its data and scenarios ship
 * with the package in {@link COMMERCE_DATA_ROOT}, announced as `dataRoot` so bots and replay
 * resolve `commerce/db.json` there when their own data root has no `commerce/` folder. A bot
 * started without that fallback must be given {@link COMMERCE_DATA_ROOT} as its data root (or a
 * root containing the same `commerce/` folder).
 */
export const commerceEvalDomain: EvalDomain = {
  name: COMMERCE_DOMAIN,
  module: commerceDomain,
  dataRoot: COMMERCE_DATA_ROOT,
  loadScenarios: (dataRoot: string) => loadCommerceScenarios(dataRoot),
};

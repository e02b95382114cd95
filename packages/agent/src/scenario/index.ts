/**
 * `@scenaro/agent/scenario`: the scenario machinery: domain registries, scenario state, tool
 * execution, db loading, hashing and diffs, and the Python semantics the hashes depend on.
 *
 * @module
 */
export * from './types.js';
export * from './registry.js';
export * from './delta-path.js';
export * from './tool-executor.js';
export { applyBindHooks } from './bind-hooks.js';
export * from './initialize.js';
export {
  canonicalJson,
  HASH_EXCLUDED_KEYS,
  normalizeForComparison,
  ORDER_INDEPENDENT_FIELDS,
  writeCanonicalJson,
} from './canonical-json.js';
export * from './db-hash.js';
export * from './db-diff.js';
export * from './db-revision.js';
export * from './db-loader.js';
export * from './control-tools.js';
export {
  compareCodePoints,
  DbHashDepthError,
  DEFAULT_MAX_DEPTH,
  PyFloat,
  pyFloat,
  pythonFloatRepr,
  pythonJsonDumps,
  pythonRepr,
  pythonTypeName,
} from '../python/index.js';
export type { DbHashOptions, PythonJsonDumpsOptions } from '../python/index.js';

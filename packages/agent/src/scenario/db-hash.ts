/**
 * The two SHA-256 database hashes (see `reference/db-hash.md`): NeMo/EVA `get_dict_hash`
 * ({@link getDictHash}, over `canonicalJson`) — the one a bot reports over the control
 * plane — and tau2-bench's `get_db_hash` of a typed pydantic dump ({@link getTau2DbHash}).
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { maxDepthOf } from '../python/depth-limit.js';
import type { DbHashOptions } from '../python/depth-limit.js';
import { writeJson } from '../python/json-dumps.js';
import { writeCanonicalJson } from './canonical-json.js';

/** NeMo/EVA `get_dict_hash`: SHA-256 (lowercase hex) of `canonicalJson`. */
export function getDictHash(value: unknown, options?: DbHashOptions): string {
  const hash = createHash('sha256');
  // The canonical form is pure ASCII, so latin1 encoding is byte-exact (and fastest).
  writeCanonicalJson(value, (chunk) => void hash.update(chunk, 'latin1'), options);
  return hash.digest('hex');
}

/**
 * tau2-bench `get_dict_hash` of a pydantic `model_dump()`: SHA-256 of Python `json.dumps` with
 * default separators and `sort_keys=True`, no normalization, no session drop. The caller must
 * supply the typed dump: every optional field present (`null`), float-typed fields wrapped in
 * `PyFloat`, dates pre-rendered as Python `str()` strings.
 */
export function getTau2DbHash(value: unknown, options?: DbHashOptions): string {
  const hash = createHash('sha256');
  const layout = { itemSep: ', ', keySep: ': ', maxDepth: maxDepthOf(options), baseDepth: 0 };
  writeJson(value, layout, null, null, (chunk) => void hash.update(chunk, 'latin1'));
  return hash.digest('hex');
}

/**
 * A debugging diff of two databases (tables → records → fields), each record normalized as the
 * NeMo hash normalizes it. Not used for scoring: the hash comparison is the verdict.
 *
 * @module
 */
import { isJsonObject } from '@scenaro/sdk/util';
import { DbHashDepthError, maxDepthOf } from '../python/depth-limit.js';
import type { DbHashOptions } from '../python/depth-limit.js';
import { isPlainObject, setDictItem } from '../python/dict.js';
import { pyEquals } from '../python/equality.js';
import { pythonTypeName } from '../python/repr.js';
import { compareCodePoints } from '../python/strings.js';
import { normalizeAt, ORDER_INDEPENDENT_FIELDS, sortOrderIndependent } from './canonical-json.js';

type Dict = Record<string, unknown>;

/** `{type: "type_mismatch"}`: the two sides have different Python types. */
export interface TypeMismatchDiff {
  type: 'type_mismatch';
  expected: unknown;
  actual: unknown;
  expected_type: string;
  actual_type: string;
}
/** Field-level diff of two dicts (names of added/removed fields, diffs of modified ones). */
export interface DictDiff {
  fields_added: string[];
  fields_removed: string[];
  fields_modified: Record<string, ValueDiff>;
}
/** Lists of different lengths. */
export interface ListLengthMismatchDiff {
  type: 'list_length_mismatch';
  expected: unknown[];
  actual: unknown[];
  expected_length: number;
  actual_length: number;
}
/** Same-length lists with differing elements. */
export interface ListDifferencesDiff {
  type: 'list_differences';
  differences: { index: number; diff: ValueDiff }[];
}
/** Differing primitive values of the same type. */
export interface ValueMismatchDiff {
  type: 'value_mismatch';
  expected: unknown;
  actual: unknown;
}
/** Any record/field-level diff. */
export type ValueDiff =
  TypeMismatchDiff | DictDiff | ListLengthMismatchDiff | ListDifferencesDiff | ValueMismatchDiff;
/** A differing table that is not a dict on at least one side. */
export interface NonDictTableDiff {
  type: 'non_dict_table';
  expected: unknown;
  actual: unknown;
}
/** Record-level diff of a dict table. */
export interface RecordsDiff {
  records_added: string[];
  records_removed: string[];
  records_modified: Record<string, ValueDiff>;
}
/** Result of {@link computeDbDiff}. */
export interface DbDiff {
  tables_added: string[];
  tables_removed: string[];
  tables_modified: Record<string, NonDictTableDiff | RecordsDiff>;
}

function isDict(v: unknown): v is Dict {
  return isJsonObject(v) && isPlainObject(v);
}

function keyDiff(a: Dict, b: Dict): { added: string[]; removed: string[]; common: string[] } {
  const added = Object.keys(b).filter((k) => !Object.hasOwn(a, k));
  const removed = Object.keys(a).filter((k) => !Object.hasOwn(b, k));
  const common = Object.keys(a).filter((k) => Object.hasOwn(b, k));
  return {
    added: added.sort(compareCodePoints),
    removed: removed.sort(compareCodePoints),
    common: common.sort(compareCodePoints),
  };
}

/** Diff of two already-normalized values; `null` when equal. */
function diffValues(
  exp: unknown,
  act: unknown,
  field: string | null,
  maxDepth: number,
  depth: number,
): ValueDiff | null {
  const et = pythonTypeName(exp);
  const at = pythonTypeName(act);
  if (et !== at) {
    return {
      type: 'type_mismatch',
      expected: exp,
      actual: act,
      expected_type: et,
      actual_type: at,
    };
  }
  if (depth >= maxDepth) throw new DbHashDepthError(maxDepth);
  if (isDict(exp) && isDict(act)) {
    const { added, removed, common } = keyDiff(exp, act);
    const modified: Record<string, ValueDiff> = {};
    let any = added.length > 0 || removed.length > 0;
    for (const k of common) {
      const d = diffValues(exp[k], act[k], k, maxDepth, depth + 1);
      if (d !== null) {
        setDictItem(modified, k, d);
        any = true;
      }
    }
    return any ? { fields_added: added, fields_removed: removed, fields_modified: modified } : null;
  }
  if (Array.isArray(exp) && Array.isArray(act)) {
    let e: unknown[] = exp;
    let a: unknown[] = act;
    if (field !== null && ORDER_INDEPENDENT_FIELDS.has(field)) {
      e = [...exp];
      a = [...act];
      sortOrderIndependent(e, maxDepth, depth + 1);
      sortOrderIndependent(a, maxDepth, depth + 1);
    }
    if (e.length !== a.length) {
      return {
        type: 'list_length_mismatch',
        expected: e,
        actual: a,
        expected_length: e.length,
        actual_length: a.length,
      };
    }
    const differences: { index: number; diff: ValueDiff }[] = [];
    for (let i = 0; i < e.length; i++) {
      const d = diffValues(e[i], a[i], null, maxDepth, depth + 1);
      if (d !== null) differences.push({ index: i, diff: d });
    }
    return differences.length > 0 ? { type: 'list_differences', differences } : null;
  }
  return pyEquals(exp, act, { maxDepth, depth })
    ? null
    : { type: 'value_mismatch', expected: exp, actual: act };
}

/**
 * Debugging diff between two databases (dicts of tables). Table names only on one side are listed
 * in `tables_added`/`tables_removed`; a differing table that is not a dict on both sides becomes
 * `non_dict_table`; dict tables are compared record by record, each record normalized with
 * {@link normalizeForComparison} first. Identical inputs give
 * `{tables_added: [], tables_removed: [], tables_modified: {}}`. The result is plain JSON data; it
 * may share sub-values with the normalized records and, for `non_dict_table`, with the inputs
 * (treat it as read-only). Not used for scoring: the hash comparison is the verdict.
 *
 * @throws TypeError if either side is not a plain object.
 * @throws DbHashDepthError if the inputs nest deeper than `maxDepth` or the call stack runs out.
 */
export function computeDbDiff(expected: unknown, actual: unknown, options?: DbHashOptions): DbDiff {
  if (!isDict(expected) || !isDict(actual)) {
    throw new TypeError('computeDbDiff expects two plain objects (dicts of tables)');
  }
  const maxDepth = maxDepthOf(options);
  const { added, removed, common } = keyDiff(expected, actual);
  const tablesModified: Record<string, NonDictTableDiff | RecordsDiff> = {};
  try {
    for (const table of common) {
      const et = expected[table];
      const at = actual[table];
      if (!isDict(et) || !isDict(at)) {
        if (!pyEquals(et, at, { maxDepth, depth: 1 })) {
          setDictItem(tablesModified, table, { type: 'non_dict_table', expected: et, actual: at });
        }
        continue;
      }
      const rec = keyDiff(et, at);
      const recordsModified: Record<string, ValueDiff> = {};
      let any = rec.added.length > 0 || rec.removed.length > 0;
      for (const key of rec.common) {
        const e = normalizeAt(et[key], maxDepth, 2, false);
        const a = normalizeAt(at[key], maxDepth, 2, false);
        const d = diffValues(e, a, null, maxDepth, 2);
        if (d !== null) {
          setDictItem(recordsModified, key, d);
          any = true;
        }
      }
      if (any) {
        setDictItem(tablesModified, table, {
          records_added: rec.added,
          records_removed: rec.removed,
          records_modified: recordsModified,
        });
      }
    }
  } catch (err) {
    if (
      err instanceof RangeError &&
      !(err instanceof DbHashDepthError) &&
      /call stack/i.test(err.message)
    ) {
      throw new DbHashDepthError(maxDepth, { cause: err });
    }
    throw err;
  }
  return { tables_added: added, tables_removed: removed, tables_modified: tablesModified };
}

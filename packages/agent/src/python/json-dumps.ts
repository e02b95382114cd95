/**
 * Python's `json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)`, byte for byte:
 * keys sorted by code point, `\uXXXX` escapes with lowercase hex for everything outside printable
 * ASCII, ints printed exactly, floats with Python `repr`, bare `NaN`/`Infinity`.
 *
 * The serializer is iterative (explicit stack), so nesting never overflows the JS call stack;
 * nesting deeper than `maxDepth` throws {@link DbHashDepthError}. It can stream its output in
 * chunks (the db hash feeds them to SHA-256) and can apply a {@link JsonNormalizer} while
 * writing (the NeMo hash's normalization, see `scenario/canonical-json.ts`).
 *
 * @module
 */
import { DbHashDepthError, maxDepthOf } from './depth-limit.js';
import type { DbHashOptions } from './depth-limit.js';
import { PyFloat, pythonFloatRepr } from './float.js';
import { isPlainObject } from './dict.js';
import { compareCodePoints } from './strings.js';

type Dict = Record<string, unknown>;

const TWO_POW_53 = 2 ** 53;

/**
 * Formats a JS number as `json.dumps` prints the Python value it stands for: integral → exact
 * Python int (`-0` → `0`), anything else (fractional, NaN, ±Infinity) → Python float repr.
 */
export function formatJsonNumber(x: number): string {
  if (Number.isInteger(x)) {
    // String(-0) is "0"; beyond 2^53 JS prints shortest digits, Python the exact integer.
    return x < TWO_POW_53 && x > -TWO_POW_53 ? String(x) : BigInt(x).toString();
  }
  return pythonFloatRepr(x);
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f\u007f-\uffff]/;
const NON_ASCII = /[\u007f-\uffff]/g;

function hex4(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/** Python `json.dumps(s, ensure_ascii=True)` for a string, quotes included. */
function quoteString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  // JSON.stringify handles `"`, `\`, the short escapes, other controls and lone surrogates
  // (lowercase hex); what remains is U+007F and every non-ASCII code unit (pairs stay split).
  return JSON.stringify(s).replace(NON_ASCII, hex4);
}

const SURROGATE = /[\ud800-\udfff]/;

/** Sorts keys in place by code point (fast default sort unless a surrogate is present). */
function sortKeys(keys: string[]): string[] {
  keys.sort();
  for (let i = 0; i < keys.length; i++) {
    if (SURROGATE.test(keys[i]!)) return keys.sort(compareCodePoints);
  }
  return keys;
}

/**
 * A normalization applied while writing. Under a normalizer, {@link PyFloat} markers are written
 * like plain numbers (whole values as ints).
 */
export interface JsonNormalizer {
  /** Whether string `s` is written as `null`. */
  isNull(s: string): boolean;
  /** Whether a list under the dict key `key` is replaced by {@link JsonNormalizer.reorder}. */
  reorders(key: string): boolean;
  /**
   * The normalized, reordered copy of `list`, written as is (not normalized again). `depth` is
   * the number of containers enclosing `list`.
   */
  reorder(list: readonly unknown[], maxDepth: number, depth: number): unknown;
}

/** Separators and depth bookkeeping of one serialization. */
export interface JsonLayout {
  itemSep: string;
  keySep: string;
  maxDepth: number;
  /** Containers enclosing the value being written (counts toward `maxDepth`). */
  baseDepth: number;
  /** Write dict keys sorted by code point (`sort_keys=True`). @default true */
  sortKeys?: boolean;
}

interface Frame {
  arr: readonly unknown[] | null;
  obj: Dict | null;
  keys: string[] | null;
  i: number;
  /** The normalizer applied on the fly to this container's children, if any. */
  norm: JsonNormalizer | null;
  emitted: boolean;
}

interface WriteContext extends JsonLayout {
  /** Receives completed chunks; the unflushed remainder is returned by {@link serialize}. */
  sink: ((chunk: string) => void) | null;
}

/**
 * Output is handed off in ~64 KiB pieces: measured on the 4.8 MB airline db, growing one string
 * with `+=` to full size is ~5x slower (V8 rope flattening) than hashing or joining 64 KiB chunks;
 * 16 KiB was no better and 128 KiB was slower.
 */
const CHUNK = 1 << 16;

/**
 * `{...layout, sink}` written out: object spread of a non-literal costs ~1 µs here, which is most
 * of the time for a small value (and is paid per element when sorting order-independent lists).
 */
function withSink(layout: JsonLayout, sink: (chunk: string) => void): WriteContext {
  return {
    itemSep: layout.itemSep,
    keySep: layout.keySep,
    maxDepth: layout.maxDepth,
    baseDepth: layout.baseDepth,
    sortKeys: layout.sortKeys !== false,
    sink,
  };
}

/**
 * Serializes `value` and returns the whole output. Chunks are copied into byte buffers as they
 * complete (the output is pure ASCII, so latin1 is exact): keeping the 64 KiB rope strings alive
 * until a final `join` measured ~5x slower on the airline db.
 */
export function dumpJson(
  value: unknown,
  layout: JsonLayout,
  normalizer: JsonNormalizer | null,
  dropTopLevel: ReadonlySet<string> | null,
): string {
  const parts: Buffer[] = [];
  const sink = (c: string): void => void parts.push(Buffer.from(c, 'latin1'));
  const rest = serialize(value, withSink(layout, sink), normalizer, dropTopLevel);
  if (parts.length === 0) return rest;
  parts.push(Buffer.from(rest, 'latin1'));
  return Buffer.concat(parts).toString('latin1');
}

/** Serializes `value` into `sink`, in ~64 KiB ASCII chunks (the last one may be shorter). */
export function writeJson(
  value: unknown,
  layout: JsonLayout,
  normalizer: JsonNormalizer | null,
  dropTopLevel: ReadonlySet<string> | null,
  sink: (chunk: string) => void,
): void {
  sink(serialize(value, withSink(layout, sink), normalizer, dropTopLevel));
}

/**
 * Iterative Python-`json.dumps` style serializer. With a `normalizer`, it is applied while
 * writing (lists it reorders are normalized and sorted out of line). `dropTopLevel` keys are
 * left out of a top-level dict.
 */
function serialize(
  value: unknown,
  ctx: WriteContext,
  normalizer: JsonNormalizer | null,
  dropTopLevel: ReadonlySet<string> | null,
): string {
  const { itemSep, keySep, maxDepth, baseDepth, sink } = ctx;
  const sorted = ctx.sortKeys !== false;
  const stack: Frame[] = [];
  let out = '';

  const write = (v: unknown, norm: JsonNormalizer | null, isRoot: boolean): void => {
    switch (typeof v) {
      case 'string':
        out += norm !== null && norm.isNull(v) ? 'null' : quoteString(v);
        return;
      case 'number':
        out += formatJsonNumber(v);
        return;
      case 'boolean':
        out += v ? 'true' : 'false';
        return;
      case 'bigint':
        out += v.toString();
        return;
      case 'undefined':
        out += 'null';
        return;
      case 'object':
        break;
      default:
        out += quoteString(String(v));
        return;
    }
    if (v === null) {
      out += 'null';
      return;
    }
    if (v instanceof PyFloat) {
      // Python float: whole values are ints after normalization, otherwise repr.
      out += norm !== null ? formatJsonNumber(v.value) : pythonFloatRepr(v.value);
      return;
    }
    const isArr = Array.isArray(v);
    if (!isArr && !isPlainObject(v)) {
      out += quoteString(String(v)); // Python default=str
      return;
    }
    if (baseDepth + stack.length >= maxDepth) throw new DbHashDepthError(maxDepth);
    if (isArr) {
      out += '[';
      stack.push({ arr: v, obj: null, keys: null, i: 0, norm, emitted: false });
    } else {
      let keys = Object.keys(v);
      if (isRoot && dropTopLevel !== null) keys = keys.filter((k) => !dropTopLevel.has(k));
      out += '{';
      stack.push({
        arr: null,
        obj: v,
        keys: sorted ? sortKeys(keys) : keys,
        i: 0,
        norm,
        emitted: false,
      });
    }
  };

  write(value, normalizer, true);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.keys === null) {
      const arr = f.arr!;
      if (f.i < arr.length) {
        if (f.i > 0) out += itemSep;
        write(arr[f.i++], f.norm, false);
      } else {
        out += ']';
        stack.pop();
      }
    } else {
      const keys = f.keys;
      const obj = f.obj!;
      let key: string | null = null;
      let v: unknown;
      while (f.i < keys.length) {
        const k = keys[f.i++]!;
        v = obj[k];
        if (v !== undefined) {
          key = k;
          break;
        }
      }
      if (key === null) {
        out += '}';
        stack.pop();
      } else {
        if (f.emitted) out += itemSep;
        else f.emitted = true;
        out += quoteString(key) + keySep;
        if (f.norm !== null && Array.isArray(v) && f.norm.reorders(key)) {
          write(f.norm.reorder(v, maxDepth, baseDepth + stack.length), null, false);
        } else {
          write(v, f.norm, false);
        }
      }
    }
    if (sink !== null && out.length >= CHUNK) {
      sink(out);
      out = '';
    }
  }
  return out;
}

/** Options for {@link pythonJsonDumps}. */
export interface PythonJsonDumpsOptions extends DbHashOptions {
  /** `'compact'` = `(",", ":")`; `'default'` = Python's `(", ", ": ")`. @default 'default' */
  separators?: 'compact' | 'default';
  /**
   * `sort_keys`: false keeps each dict's own key order, as `json.dumps(value)` does with a dict
   * built in that order. @default true
   */
  sortKeys?: boolean;
}

/**
 * Python `json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)` (no normalization;
 * `sortKeys: false` for `sort_keys=False`):
 * keys sorted by code point, ints printed exactly (integral JS numbers and `bigint`s are ints),
 * fractional numbers and {@link PyFloat} markers printed with Python `repr`, bare
 * `NaN`/`Infinity`, `undefined` object members skipped (`null` elsewhere), other objects as
 * `String(value)`.
 */
export function pythonJsonDumps(value: unknown, options?: PythonJsonDumpsOptions): string {
  const compact = options?.separators === 'compact';
  return dumpJson(
    value,
    {
      itemSep: compact ? ',' : ', ',
      keySep: compact ? ':' : ': ',
      maxDepth: maxDepthOf(options),
      baseDepth: 0,
      sortKeys: options?.sortKeys !== false,
    },
    null,
    null,
  );
}

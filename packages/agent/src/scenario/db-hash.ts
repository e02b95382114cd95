/**
 * Byte-identical TypeScript port of the NeMo/EVA `get_dict_hash` database hash (see
 * `reference/db-hash.md` §1): drop the top-level `session` key, normalize, serialize like Python's
 * `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)` and take the
 * SHA-256 lowercase hex digest.
 *
 * Also exposes the pure Python-`json.dumps` serializer ({@link pythonJsonDumps}) and a small tau2
 * variant helper ({@link getTau2DbHash} with {@link PyFloat} markers), plus a debugging diff
 * ({@link computeDbDiff}).
 *
 * Depth: serialization and normalization are iterative (explicit stacks), so nesting never
 * overflows the JS call stack; nesting deeper than `maxDepth` (default 10,000 containers) throws
 * {@link DbHashDepthError}. {@link computeDbDiff} recurses and is guarded the same way.
 *
 * No function here mutates its input, and objects it builds treat `__proto__` as ordinary data.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** Default maximum nesting depth (number of enclosing arrays/objects). */
export const DEFAULT_MAX_DEPTH = 10_000;

/** List fields sorted (at any depth) before hashing because their order carries no meaning. */
export const ORDER_INDEPENDENT_FIELDS: ReadonlySet<string> = new Set([
  'standby_list',
  'notifications',
  'bookings',
  'system_accounts',
  'group_memberships',
  'asset_recoveries',
]);

/** Top-level keys removed before hashing. */
export const HASH_EXCLUDED_KEYS: ReadonlySet<string> = new Set(['session']);

/** Options shared by the hashing, normalization and diff functions. */
export interface DbHashOptions {
  /**
   * Maximum nesting depth (arrays/objects enclosing a value) before {@link DbHashDepthError} is
   * thrown. @default 10000
   */
  maxDepth?: number;
}

/** Thrown when a value nests deeper than the configured `maxDepth` (or contains a cycle). */
export class DbHashDepthError extends RangeError {
  override readonly name = 'DbHashDepthError';
  /** The depth limit that was exceeded. */
  readonly maxDepth: number;

  constructor(maxDepth: number, options?: { cause?: unknown }) {
    super(
      `value nests deeper than maxDepth=${maxDepth} (too deep or cyclic); raise maxDepth if the input is legitimate`,
      options,
    );
    this.maxDepth = maxDepth;
  }
}

/**
 * Marks a number as a Python `float` so {@link pythonJsonDumps} prints it with Python `repr`
 * (`10` → `10.0`). Only needed for the tau2 variant, which hashes typed pydantic dumps.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Wraps `x` in a {@link PyFloat} marker. */
export function pyFloat(x: number): PyFloat {
  return new PyFloat(x);
}

// ---------------------------------------------------------------------------------------------
// Scalars
// ---------------------------------------------------------------------------------------------

type Dict = Record<string, unknown>;

/** Plain data object: prototype is null or an `Object.prototype` (any realm). */
function isPlainObject(v: object): v is Dict {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** Defines `obj[key] = value` as an own data property, so `__proto__` stays data. */
function setOwn(obj: Dict, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}

/**
 * Python `repr(float)`: shortest round-trip digits; fixed notation with a fractional part when the
 * decimal exponent e satisfies -4 <= e < 16, else `d[.ddd]e±XX` (at least two exponent digits).
 * Non-finite values are rendered as Python's `json` module emits them: `NaN`, `Infinity`,
 * `-Infinity`.
 */
export function pythonFloatRepr(x: number): string {
  if (x !== x) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const ax = x < 0 ? -x : x;
  if (ax >= 1e-4 && ax < 1e16) {
    // JS uses fixed notation over this whole range, with the same shortest digits.
    const s = String(x);
    return Number.isInteger(x) ? s + '.0' : s;
  }
  const exp = x.toExponential();
  const at = exp.indexOf('e');
  const sign = exp.charAt(at + 1);
  const digits = exp.slice(at + 2);
  return exp.slice(0, at) + 'e' + sign + (digits.length < 2 ? '0' + digits : digits);
}

const TWO_POW_53 = 2 ** 53;

/**
 * Formats a JS number the way the NeMo variant sees it: integral → exact Python int (`-0` → `0`),
 * anything else (fractional, NaN, ±Infinity) → Python float repr.
 */
function formatNumber(x: number): string {
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

/**
 * Compares two strings by Unicode code point (Python `str` ordering) rather than UTF-16 code
 * unit. Returns a negative number, zero or a positive number.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let k = 0;
  while (k < n && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  if (k === n) return a.length - b.length;
  // Back up onto a shared high surrogate so the pair is compared as one code point.
  const prev = k > 0 ? a.charCodeAt(k - 1) : 0;
  if (prev >= 0xd800 && prev <= 0xdbff) {
    const ca = a.codePointAt(k - 1)!;
    const cb = b.codePointAt(k - 1)!;
    if (ca !== cb) return ca - cb;
  }
  return a.codePointAt(k)! - b.codePointAt(k)!;
}

/** Sorts keys in place by code point (fast default sort unless a surrogate is present). */
function sortKeys(keys: string[]): string[] {
  keys.sort();
  for (let i = 0; i < keys.length; i++) {
    if (SURROGATE.test(keys[i]!)) return keys.sort(compareCodePoints);
  }
  return keys;
}

function isPyWhitespace(c: number): boolean {
  if (c <= 0x20) return (c >= 0x09 && c <= 0x0d) || c >= 0x1c;
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** `s.strip().lower() in ("none", "null")` with Python's whitespace set. */
function isNoneString(s: string): boolean {
  const len = s.length;
  if (len < 4) return false;
  let start = 0;
  let end = len;
  if (len !== 4) {
    // Only whitespace at either end can shrink the string to four characters.
    while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
    while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
    if (end - start !== 4) return false;
  }
  const core = (start === 0 && end === len ? s : s.slice(start, end)).toLowerCase();
  return core === 'none' || core === 'null';
}

/** Normalizes a non-container value (step 2 of the algorithm). */
function normalizeScalar(v: unknown): unknown {
  if (typeof v === 'string') return isNoneString(v) ? null : v;
  if (typeof v === 'number') return v === 0 ? 0 : v; // -0.0 → int 0; other numbers are as-is
  if (v instanceof PyFloat) return normalizeScalar(v.value);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Serializer (iterative)
// ---------------------------------------------------------------------------------------------

interface Frame {
  arr: readonly unknown[] | null;
  obj: Dict | null;
  keys: string[] | null;
  i: number;
  /** Apply NeMo normalization on the fly to this container's children. */
  norm: boolean;
  emitted: boolean;
}

interface WriteContext {
  itemSep: string;
  keySep: string;
  maxDepth: number;
  baseDepth: number;
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
 * `{...ctx, sink}` written out: object spread of a non-literal costs ~1 µs here, which is most of
 * the time for a small value (and is paid per element when sorting order-independent lists).
 */
function withSink(ctx: Omit<WriteContext, 'sink'>, sink: (chunk: string) => void): WriteContext {
  return {
    itemSep: ctx.itemSep,
    keySep: ctx.keySep,
    maxDepth: ctx.maxDepth,
    baseDepth: ctx.baseDepth,
    sink,
  };
}

/**
 * Runs {@link serialize} and returns the whole output. Chunks are copied into byte buffers as
 * they complete (the output is pure ASCII, so latin1 is exact): keeping the 64 KiB rope strings
 * alive until a final `join` measured ~5x slower on the airline db.
 */
function serializeToString(
  value: unknown,
  ctx: Omit<WriteContext, 'sink'>,
  normalize: boolean,
  dropTopLevel: ReadonlySet<string> | null,
): string {
  const parts: Buffer[] = [];
  const sink = (c: string): void => void parts.push(Buffer.from(c, 'latin1'));
  const rest = serialize(value, withSink(ctx, sink), normalize, dropTopLevel);
  if (parts.length === 0) return rest;
  parts.push(Buffer.from(rest, 'latin1'));
  return Buffer.concat(parts).toString('latin1');
}

/**
 * Iterative Python-`json.dumps` style serializer. With `normalize`, NeMo normalization is applied
 * while writing (order-independent lists are normalized and sorted out of line).
 */
function serialize(
  value: unknown,
  ctx: WriteContext,
  normalize: boolean,
  dropTopLevel: ReadonlySet<string> | null,
): string {
  const { itemSep, keySep, maxDepth, baseDepth, sink } = ctx;
  const stack: Frame[] = [];
  let out = '';

  const write = (v: unknown, norm: boolean, isRoot: boolean): void => {
    switch (typeof v) {
      case 'string':
        out += norm && isNoneString(v) ? 'null' : quoteString(v);
        return;
      case 'number':
        out += formatNumber(v);
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
      out += norm ? formatNumber(v.value) : pythonFloatRepr(v.value);
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
      stack.push({ arr: null, obj: v, keys: sortKeys(keys), i: 0, norm, emitted: false });
    }
  };

  write(value, normalize, true);
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
        if (f.norm && Array.isArray(v) && ORDER_INDEPENDENT_FIELDS.has(key)) {
          const sorted = normalizeImpl(v, maxDepth, baseDepth + stack.length, true);
          write(sorted, false, false);
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

/** Python `json.dumps(el, sort_keys=True, default=str)` (default separators): the sort key. */
function pythonSortKey(el: unknown, maxDepth: number, baseDepth: number): string {
  return serializeToString(el, { itemSep: ', ', keySep: ': ', maxDepth, baseDepth }, false, null);
}

/** Stable in-place sort of an already-normalized list by its Python sort key. */
function sortOrderIndependent(list: unknown[], maxDepth: number, baseDepth: number): void {
  if (list.length < 2) return;
  const keyed = list.map((el) => ({ el, key: pythonSortKey(el, maxDepth, baseDepth) }));
  // Keys are pure ASCII (ensure_ascii), so code-unit comparison equals code-point comparison.
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let i = 0; i < keyed.length; i++) list[i] = keyed[i]!.el;
}

// ---------------------------------------------------------------------------------------------
// Normalization (iterative)
// ---------------------------------------------------------------------------------------------

interface NormFrame {
  src: readonly unknown[] | Dict;
  out: unknown[] | Dict;
  keys: string[] | null;
  i: number;
  sortOnDone: boolean;
}

function normalizeImpl(
  value: unknown,
  maxDepth: number,
  baseDepth: number,
  sortRoot: boolean,
): unknown {
  const stack: NormFrame[] = [];
  const begin = (v: unknown, sortOnDone: boolean): unknown => {
    if (typeof v !== 'object' || v === null || v instanceof PyFloat) return normalizeScalar(v);
    if (Array.isArray(v)) {
      if (baseDepth + stack.length >= maxDepth) throw new DbHashDepthError(maxDepth);
      const out: unknown[] = new Array<unknown>(v.length);
      stack.push({ src: v, out, keys: null, i: 0, sortOnDone });
      return out;
    }
    if (!isPlainObject(v)) return v;
    if (baseDepth + stack.length >= maxDepth) throw new DbHashDepthError(maxDepth);
    const out: Dict = {};
    stack.push({ src: v, out, keys: Object.keys(v), i: 0, sortOnDone: false });
    return out;
  };

  const result = begin(value, sortRoot);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.keys === null) {
      const src = f.src as readonly unknown[];
      if (f.i < src.length) {
        const idx = f.i++;
        (f.out as unknown[])[idx] = begin(src[idx], false);
        continue;
      }
    } else if (f.i < f.keys.length) {
      const k = f.keys[f.i++]!;
      const v = (f.src as Dict)[k];
      setOwn(f.out as Dict, k, begin(v, Array.isArray(v) && ORDER_INDEPENDENT_FIELDS.has(k)));
      continue;
    }
    stack.pop();
    // Children are complete (post-order), so the sort keys see normalized elements.
    // The list's own depth is baseDepth + stack.length + 1; its elements sit below it.
    if (f.sortOnDone) {
      sortOrderIndependent(f.out as unknown[], maxDepth, baseDepth + stack.length + 1);
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

function depthOf(options: DbHashOptions | undefined): number {
  const d = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(d) || d < 1)
    throw new RangeError(`maxDepth must be a positive integer, got ${d}`);
  return d;
}

/**
 * NeMo step 2, `normalize_for_comparison`: returns a new value where whole numbers are ints
 * (`-0` → `0`), strings whose Python-`strip().lower()` is `"none"`/`"null"` become `null`, and the
 * six {@link ORDER_INDEPENDENT_FIELDS} lists are stably sorted by their Python `json.dumps`
 * (default separators) key, at any depth. The input is not mutated.
 */
export function normalizeForComparison(value: unknown, options?: DbHashOptions): unknown {
  return normalizeImpl(value, depthOf(options), 0, false);
}

/** Options for {@link pythonJsonDumps}. */
export interface PythonJsonDumpsOptions extends DbHashOptions {
  /** `'compact'` = `(",", ":")`; `'default'` = Python's `(", ", ": ")`. @default 'default' */
  separators?: 'compact' | 'default';
}

/**
 * Python `json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)` (no normalization):
 * keys sorted by code point, ints printed exactly (integral JS numbers and `bigint`s are ints),
 * fractional numbers and {@link PyFloat} markers printed with Python `repr`, bare
 * `NaN`/`Infinity`, `undefined` object members skipped (`null` elsewhere), other objects as
 * `String(value)`.
 */
export function pythonJsonDumps(value: unknown, options?: PythonJsonDumpsOptions): string {
  const compact = options?.separators === 'compact';
  return serializeToString(
    value,
    {
      itemSep: compact ? ',' : ', ',
      keySep: compact ? ':' : ': ',
      maxDepth: depthOf(options),
      baseDepth: 0,
    },
    false,
    null,
  );
}

function nemoContext(options: DbHashOptions | undefined): Omit<WriteContext, 'sink'> {
  return { itemSep: ',', keySep: ':', maxDepth: depthOf(options), baseDepth: 0 };
}

/**
 * The exact string NeMo/EVA `get_dict_hash` hashes for `value`: top-level `session` dropped (plain
 * objects only), {@link normalizeForComparison} applied, then
 * `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str)`.
 * Idempotent on already-normalized input.
 */
export function canonicalJson(value: unknown, options?: DbHashOptions): string {
  return serializeToString(value, nemoContext(options), true, HASH_EXCLUDED_KEYS);
}

/** NeMo/EVA `get_dict_hash`: SHA-256 (lowercase hex) of {@link canonicalJson}. */
export function getDictHash(value: unknown, options?: DbHashOptions): string {
  const hash = createHash('sha256');
  // The canonical form is pure ASCII, so latin1 encoding is byte-exact (and fastest).
  const sink = (chunk: string): void => void hash.update(chunk, 'latin1');
  sink(serialize(value, withSink(nemoContext(options), sink), true, HASH_EXCLUDED_KEYS));
  return hash.digest('hex');
}

/**
 * tau2-bench `get_dict_hash` of a pydantic `model_dump()`: SHA-256 of Python `json.dumps` with
 * default separators and `sort_keys=True`, no normalization, no session drop. The caller must
 * supply the typed dump: every optional field present (`null`), float-typed fields wrapped in
 * {@link PyFloat}, dates pre-rendered as Python `str()` strings.
 */
export function getTau2DbHash(value: unknown, options?: DbHashOptions): string {
  const hash = createHash('sha256');
  const sink = (chunk: string): void => void hash.update(chunk, 'latin1');
  const ctx = { itemSep: ', ', keySep: ': ', maxDepth: depthOf(options), baseDepth: 0, sink };
  sink(serialize(value, ctx, false, null));
  return hash.digest('hex');
}

// ---------------------------------------------------------------------------------------------
// Diff helper (debugging only)
// ---------------------------------------------------------------------------------------------

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
  return typeof v === 'object' && v !== null && !Array.isArray(v) && isPlainObject(v);
}

/** Python type name of a (normalized) value. */
function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'string':
      return 'str';
    case 'object':
      if (Array.isArray(v)) return 'list';
      if (v instanceof PyFloat) return 'float';
      return isPlainObject(v) ? 'dict' : (v.constructor?.name ?? 'object');
    default:
      return typeof v;
  }
}

/** Python `==` for JSON-like data (NaN compares equal to itself: same-source data). */
function pyEqual(a: unknown, b: unknown, maxDepth: number, depth: number): boolean {
  if (a === b) return true;
  if (a instanceof PyFloat) return pyEqual(a.value, b, maxDepth, depth);
  if (b instanceof PyFloat) return pyEqual(a, b.value, maxDepth, depth);
  if (typeof a === 'number' && typeof b === 'number') return a !== a && b !== b;
  if (
    (typeof a === 'bigint' || typeof a === 'number') &&
    (typeof b === 'bigint' || typeof b === 'number')
  ) {
    // Loose equality compares a bigint and a number by value.
    return a == b;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth >= maxDepth) throw new DbHashDepthError(maxDepth);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!pyEqual(a[i], b[i], maxDepth, depth + 1)) return false;
    return true;
  }
  if (!isDict(a) || !isDict(b)) return String(a) === String(b);
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.hasOwn(b, k) || !pyEqual(a[k], b[k], maxDepth, depth + 1)) return false;
  }
  return true;
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
  const et = pyTypeName(exp);
  const at = pyTypeName(act);
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
        setOwn(modified, k, d);
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
  return pyEqual(exp, act, maxDepth, depth)
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
  const maxDepth = depthOf(options);
  const { added, removed, common } = keyDiff(expected, actual);
  const tablesModified: Record<string, NonDictTableDiff | RecordsDiff> = {};
  try {
    for (const table of common) {
      const et = expected[table];
      const at = actual[table];
      if (!isDict(et) || !isDict(at)) {
        if (!pyEqual(et, at, maxDepth, 1)) {
          setOwn(tablesModified, table, { type: 'non_dict_table', expected: et, actual: at });
        }
        continue;
      }
      const rec = keyDiff(et, at);
      const recordsModified: Record<string, ValueDiff> = {};
      let any = rec.added.length > 0 || rec.removed.length > 0;
      for (const key of rec.common) {
        const e = normalizeImpl(et[key], maxDepth, 2, false);
        const a = normalizeImpl(at[key], maxDepth, 2, false);
        const d = diffValues(e, a, null, maxDepth, 2);
        if (d !== null) {
          setOwn(recordsModified, key, d);
          any = true;
        }
      }
      if (any) {
        setOwn(tablesModified, table, {
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

/**
 * Python `float` semantics: `repr`/`str` of a float, `float(value)`, `round(x, ndigits)`, and
 * the {@link PyFloat} marker that tells the JSON serializer a whole number is a Python float.
 *
 * @module
 */
import { pythonStrip } from './strings.js';

/**
 * Marks a number as a Python `float` so `pythonJsonDumps` prints it with Python `repr`
 * (`10` → `10.0`). Only needed for the tau2 variant, which hashes typed pydantic dumps.
 */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Wraps `x` in a {@link PyFloat} marker. */
export function pyFloat(x: number): PyFloat {
  return new PyFloat(x);
}

/**
 * Python `repr(float)`: shortest round-trip digits; fixed notation with a fractional part when the
 * decimal exponent e satisfies -4 <= e < 16, else `d[.ddd]e±XX` (at least two exponent digits).
 * Non-finite values are rendered as Python's `json` module emits them: `NaN`, `Infinity`,
 * `-Infinity` ({@link pyFloatStr} gives `repr`'s `nan`, `inf`, `-inf`).
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

/** Python's `str(x)` / `repr(x)` for a float, including `inf`, `-inf` and `nan`. */
export function pyFloatStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return pythonFloatRepr(x);
}

const DIGITS = '\\d(?:_?\\d)*';
const FLOAT_LITERAL = new RegExp(
  `^[+-]?(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.?)(?:[eE][+-]?${DIGITS})?$`,
);
const FLOAT_SPECIAL = /^([+-]?)(inf|infinity|nan)$/i;

/**
 * Python's `float(value)`: the number, or `undefined` where Python raises. Accepts numbers,
 * booleans (`True` is 1.0), bigints and strings in Python's float syntax (surrounding whitespace,
 * `_` between digits, `inf`/`infinity`/`nan` in any case).
 */
export function pythonFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'string') return undefined;
  const text = pythonStrip(value);
  const special = FLOAT_SPECIAL.exec(text);
  if (special) {
    if ((special[2] ?? '').toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? -Infinity : Infinity;
  }
  if (!FLOAT_LITERAL.test(text)) return undefined;
  return Number(text.replace(/_/g, ''));
}

/**
 * Python's `round(x, ndigits)` for a float: the decimal result nearest to the
 * exact binary value of `x`, ties to even, returned as the nearest double.
 *
 * A double is exactly halfway between two `ndigits`-decimals only when
 * `x * 2^(ndigits+1)` is an odd integer (the tie `(2k+1) / (2 * 10^n)` must be
 * a dyadic rational, which forces `5^n` to divide `2k+1`). Every other value
 * is rounded correctly by `toFixed`, which works on the exact binary value.
 */
export function pyRound(x: number, ndigits = 2): number {
  if (!Number.isFinite(x) || !Number.isInteger(ndigits) || ndigits < 0 || ndigits > 20) return x;
  if (Math.abs(x) >= 1e21) return x;
  const fixed = x.toFixed(ndigits);
  const scaled = x * 2 ** (ndigits + 1);
  const isTie = Number.isInteger(scaled) && Math.abs(scaled % 2) === 1;
  if (!isTie) return Number(fixed);
  // `toFixed` resolved the tie away from zero; step back toward zero when that digit is odd.
  const negative = fixed.startsWith('-');
  const digits = (negative ? fixed.slice(1) : fixed).replace('.', '');
  let magnitude = BigInt(digits);
  if (magnitude % 2n === 1n) magnitude -= 1n;
  const text = magnitude.toString().padStart(ndigits + 1, '0');
  const cut = text.length - ndigits;
  const decimal = ndigits === 0 ? text : `${text.slice(0, cut)}.${text.slice(cut)}`;
  return Number(`${negative ? '-' : ''}${decimal}`);
}

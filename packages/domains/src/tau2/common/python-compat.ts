/**
 * Small pieces of Python semantics the tau2 tools depend on: `round(x, n)`,
 * `str(float)`, `textwrap.indent` and `sorted()` of strings.
 *
 * @module
 */
import { compareCodePoints, pythonFloatRepr } from '@scenaro/agent';

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

/** Python's `str(x)` / `repr(x)` for a float, including `inf`, `-inf` and `nan`. */
export function pyFloatStr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return pythonFloatRepr(x);
}

/** Python's `textwrap.indent(text, prefix)`: prefix every line that is not whitespace only. */
export function textwrapIndent(text: string, prefix: string): string {
  return text
    .split(/(?<=\n)/)
    .map((line) => (line.trim() === '' ? line : prefix + line))
    .join('');
}

/** Python's `sorted()` of strings (code point order), as a new array. */
export function pySortedStrings(values: readonly string[]): string[] {
  return [...values].sort(compareCodePoints);
}

/**
 * Python's `repr()` of a flat JSON-like value, for messages that interpolate
 * a dict (`{'a': 'x', 'b': None}`).
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatStr(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `{${entries.map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

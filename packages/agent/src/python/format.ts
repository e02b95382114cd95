/**
 * Python's `format(x, '.Nf')` and `format(x, ',.Nf')` for floats: fixed notation with `N`
 * decimals rounded half to even on the exact binary value, the sign of negative values kept
 * (`-0.00`), and `,` between groups of three integer digits.
 *
 * @module
 */
import { pyRound } from './float.js';

/** Options of {@link pyFormatFixed}. */
export interface PyFormatFixedOptions {
  /** The `,` option: thousands separators in the integer part. @default false */
  grouping?: boolean;
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `format(x, '.{decimals}f')` (or `',.{decimals}f'` with `grouping`). */
export function pyFormatFixed(
  x: number,
  decimals: number,
  options: PyFormatFixedOptions = {},
): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const magnitude = Math.abs(x);
  let text: string;
  if (magnitude >= 1e21) {
    // Integral at this size; `toFixed` would switch to exponent notation.
    text = BigInt(magnitude).toString() + (decimals > 0 ? `.${'0'.repeat(decimals)}` : '');
  } else {
    text = Math.abs(pyRound(magnitude, decimals)).toFixed(decimals);
  }
  if (options.grouping) {
    const dot = text.indexOf('.');
    text = dot < 0 ? group(text) : group(text.slice(0, dot)) + text.slice(dot);
  }
  return negative ? `-${text}` : text;
}

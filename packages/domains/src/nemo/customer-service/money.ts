/**
 * The money strings of customer_service accounts (`'$1,299.00'`, `'-$49.99'`), parsed and
 * formatted as NeMo's tools do (Python `float()` and `format(v, ',.2f')`).
 *
 * @module
 */
import {
  PythonError,
  pyFloatCall,
  pyFormatFixed,
  pythonStrip,
  pythonTypeName,
} from '@scenaro/agent/python';

/** `'-$1,234.56'` -> -1234.56: strip, drop commas, a leading `-` makes it negative. */
export function parseMoney(value: unknown): number {
  if (typeof value !== 'string') {
    throw new PythonError(
      'AttributeError',
      `'${pythonTypeName(value)}' object has no attribute 'strip'`,
    );
  }
  const text = pythonStrip(value).replace(/,/g, '');
  const negative = text.startsWith('-');
  const digits = text.replace(/^[-+]+/, '').replace(/^\$+/, '');
  const amount = pyFloatCall(digits);
  return negative ? -amount : amount;
}

/** `-49.99` -> `'-$49.99'`, `1299` -> `'$1,299.00'` (`-0.0` gives `'$-0.00'`, as in Python). */
export function formatMoney(value: number): string {
  if (value < 0) return `-$${pyFormatFixed(Math.abs(value), 2, { grouping: true })}`;
  return `$${pyFormatFixed(value, 2, { grouping: true })}`;
}

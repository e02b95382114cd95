/**
 * Python's `float(x)`, `int(s)` and `bool(x)` as called on JSON-like values, raising Python's
 * exceptions with Python's messages (tool errors that reach the model quote them).
 *
 * @module
 */
import { isJsonObject } from '@scenaro/sdk/util';
import { PythonError } from './arithmetic.js';
import { pythonFloat } from './float.js';
import { pythonRepr, pythonTypeName } from './repr.js';
import { pythonStrip } from './strings.js';

/**
 * `float(value)`: numbers, booleans and strings in Python's float syntax; otherwise raises
 * `ValueError: could not convert string to float: '<s>'` for a string and `TypeError: float()
 * argument must be a string or a real number, not '<type>'` for anything else.
 */
export function pyFloatCall(value: unknown): number {
  const x = pythonFloat(value);
  if (x !== undefined) return x;
  if (typeof value === 'string') {
    throw new PythonError('ValueError', `could not convert string to float: ${pythonRepr(value)}`);
  }
  throw new PythonError(
    'TypeError',
    `float() argument must be a string or a real number, not '${pythonTypeName(value)}'`,
  );
}

const INT_LITERAL = /^[+-]?\d(?:_?\d)*$/;

/**
 * `int(text)` in base 10: surrounding whitespace, a sign and `_` between digits are allowed;
 * anything else raises `ValueError: invalid literal for int() with base 10: '<text>'`.
 */
export function pyIntFromString(text: string): number {
  const stripped = pythonStrip(text);
  if (!INT_LITERAL.test(stripped)) {
    throw new PythonError(
      'ValueError',
      `invalid literal for int() with base 10: ${pythonRepr(text)}`,
    );
  }
  return Number(stripped.replace(/_/g, ''));
}

/** `bool(value)` of a JSON-like value: `None`, `False`, `0`, `""`, `[]` and `{}` are false. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * Python's `float(x)` and `int(s)` as called on JSON-like values, raising Python's exceptions with
 * Python's messages (tool errors that reach the model quote them).
 *
 * @module
 */
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

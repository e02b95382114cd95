/**
 * Python `str` semantics: its whitespace set (`str.strip()`, `str.isspace()`), code-point
 * ordering (`sorted()` of strings, `sort_keys`) and `textwrap.indent`.
 *
 * @module
 */

/**
 * The characters Python's `str.isspace()` accepts (and `str.strip()` removes), as the body of a
 * regular-expression character class: U+0009–U+000D, U+001C–U+0020, U+0085, U+00A0, U+1680,
 * U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000. JS `trim()` differs: it strips U+FEFF
 * and keeps U+001C–U+001F and U+0085.
 */
export const PYTHON_WHITESPACE_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const STRIP = new RegExp(`^[${PYTHON_WHITESPACE_CLASS}]+|[${PYTHON_WHITESPACE_CLASS}]+$`, 'g');

/** Whether UTF-16 code unit `c` is in Python's whitespace set ({@link PYTHON_WHITESPACE_CLASS}). */
export function isPythonWhitespace(c: number): boolean {
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

/** Python's `s.strip()` (no argument): Python's whitespace set removed from both ends. */
export function pythonStrip(s: string): string {
  return s.replace(STRIP, '');
}

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

/** Python's `sorted()` of strings (code point order), as a new array. */
export function pySortedStrings(values: readonly string[]): string[] {
  return [...values].sort(compareCodePoints);
}

// Python's `str.splitlines()` boundaries: \r\n, then \n \r \v \f \x1c \x1d \x1e \x85 \u2028 \u2029.
// eslint-disable-next-line no-control-regex
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/g;

/**
 * Python's `textwrap.indent(text, prefix)`: `prefix` before every line (`str.splitlines(True)`)
 * that is not whitespace only (`line.strip()` empty).
 */
export function textwrapIndent(text: string, prefix: string): string {
  const indent = (line: string): string => (pythonStrip(line) === '' ? line : prefix + line);
  let out = '';
  let start = 0;
  for (const m of text.matchAll(LINE_BREAK)) {
    const end = m.index + m[0].length;
    out += indent(text.slice(start, end));
    start = end;
  }
  return start < text.length ? out + indent(text.slice(start)) : out;
}

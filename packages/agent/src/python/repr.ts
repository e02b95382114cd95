/**
 * Python `repr()` / `str()` and type names of JSON-like values, as the Python object they stand
 * for would print: dicts with quoted keys, `True`/`False`/`None`, ints for integral numbers and
 * float `repr` for the rest (`-0` is the float `-0.0`, since no Python int is negative zero).
 *
 * @module
 */
import { PyFloat, pyFloatStr } from './float.js';
import { isPlainObject } from './dict.js';

/** Characters Python's `str.isprintable()` rejects (other than the ASCII space). */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hexEscape(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && NON_PRINTABLE.test(ch)) out += hexEscape(code);
    else out += ch;
  }
  return out + quote;
}

/**
 * Python's `repr` of the Python object a JSON-like value stands for: dicts with single-quoted
 * keys, `True`/`False`/`None` (`undefined` too), ints for integral numbers, float repr (`nan`,
 * `inf`) for the rest, strings escaped and quoted as Python does. Cycles print as `[...]`/`{...}`.
 */
export function pythonRepr(value: unknown): string {
  const seen = new Set<object>();
  const render = (v: unknown): string => {
    if (v === null || v === undefined) return 'None';
    if (v === true) return 'True';
    if (v === false) return 'False';
    if (typeof v === 'string') return reprString(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') {
      return Number.isInteger(v) && !Object.is(v, -0) ? String(v) : pyFloatStr(v);
    }
    if (typeof v !== 'object') return reprString(String(v));
    if (seen.has(v)) return Array.isArray(v) ? '[...]' : '{...}';
    seen.add(v);
    try {
      if (Array.isArray(v)) return `[${v.map(render).join(', ')}]`;
      if (v instanceof Uint8Array) return `b'<${v.byteLength} bytes>'`;
      const entries = Object.keys(v).map(
        (k) => `${reprString(k)}: ${render((v as Record<string, unknown>)[k])}`,
      );
      return `{${entries.join(', ')}}`;
    } finally {
      seen.delete(v);
    }
  };
  return render(value);
}

/** Python's `str()`: a string as itself, anything else as {@link pythonRepr}. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/**
 * Python's type name of a JSON-like value (`NoneType`, `bool`, `int`, `float`, `str`, `list`,
 * `dict`), for error texts the reference's clients know. A {@link PyFloat} marker is a `float`;
 * another class instance is named by its constructor.
 */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  switch (typeof value) {
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    case 'string':
      return 'str';
    case 'object':
      if (Array.isArray(value)) return 'list';
      if (value instanceof PyFloat) return 'float';
      return isPlainObject(value) ? 'dict' : (value.constructor?.name ?? 'object');
    default:
      return typeof value;
  }
}

/**
 * Python `repr()` / `str()` of JSON-like values, so that `get_context_history`
 * can answer in the form the Python reference bridge reads (it `eval`s it).
 */
import { pythonFloatRepr } from '../scenario/db-hash.js';

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
 * Render a JSON-like value as Python's `repr` would render the equivalent
 * Python object: dicts with single-quoted keys, `True`/`False`/`None`, ints for
 * integral numbers and Python float repr for the rest.
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
      if (Number.isNaN(v)) return 'nan';
      if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
      return Number.isInteger(v) && !Object.is(v, -0) ? String(v) : pythonFloatRepr(v);
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

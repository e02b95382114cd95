/**
 * The text `get_context_history` answers with: the sanitized context as Python `str()` (what
 * the reference bridge `eval`s) or as JSON. Rendering a big context takes long (Python string
 * escaping walks every character), so it is done in short slices that yield to the event loop
 * between them, and the result is kept until the context changes: a client asking again and
 * again costs one rendering, and other sessions are never held up for long.
 */
import type { ConversationContext } from './context.js';
import { pythonRepr } from '../python/repr.js';
import { sanitizeContextForTransport } from './sanitize.js';

/** The two forms of `get_context_history`. */
export type ContextTextFormat = 'python' | 'json';

/** Longest run of work between two yields to the event loop. */
const SLICE_MS = 4;
/** Characters of a long string rendered at a time. */
const STRING_SLICE = 2 * 1024;
/** Deeper than this, a value is rendered in one go (context messages nest far less). */
const MAX_SLICED_DEPTH = 64;

interface Cached {
  revision: number;
  texts: Map<ContextTextFormat, Promise<ContextHistory>>;
}

/** The `get_context_history` result; frozen, and the same object while the context is unchanged. */
export interface ContextHistory {
  readonly context: string;
}

const cache = new WeakMap<ConversationContext, Cached>();

/** The context as `format` text, from cache while the context is unchanged. */
export async function contextText(
  context: ConversationContext,
  format: ContextTextFormat,
): Promise<string> {
  return (await contextHistory(context, format)).context;
}

/** The `get_context_history` result for `format`, from cache while the context is unchanged. */
export function contextHistory(
  context: ConversationContext,
  format: ContextTextFormat,
): Promise<ContextHistory> {
  let cached = cache.get(context);
  if (!cached || cached.revision !== context.revision) {
    cached = { revision: context.revision, texts: new Map() };
    cache.set(context, cached);
  }
  let text = cached.texts.get(format);
  if (!text) {
    text = render(sanitizeContextForTransport(context.messages()), format).then((rendered) =>
      Object.freeze({ context: rendered }),
    );
    cached.texts.set(format, text);
    const entry = cached;
    text.catch(() => entry.texts.delete(format));
  }
  return text;
}

/** Renders `value` like `pythonRepr` / `JSON.stringify`, yielding every few milliseconds. */
async function render(value: unknown, format: ContextTextFormat): Promise<string> {
  let sliceStart = performance.now();
  const pause = async (): Promise<void> => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  const leaf = (v: unknown): string =>
    format === 'python' ? pythonRepr(v) : (JSON.stringify(v) ?? 'null');

  const visit = async (v: unknown, depth: number): Promise<string> => {
    if (typeof v === 'string' && v.length > STRING_SLICE) return longString(v, format, pause);
    if (v === null || typeof v !== 'object' || depth > MAX_SLICED_DEPTH || !isPlain(v)) {
      const text = leaf(v);
      await pause();
      return text;
    }
    if (Array.isArray(v)) {
      const items: string[] = [];
      for (const item of v) {
        items.push(format === 'json' && !isJsonValue(item) ? 'null' : await visit(item, depth + 1));
      }
      return `[${items.join(format === 'python' ? ', ' : ',')}]`;
    }
    const entries: string[] = [];
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      if (format === 'json') {
        if (isJsonValue(item))
          entries.push(`${JSON.stringify(key)}:${await visit(item, depth + 1)}`);
      } else {
        entries.push(`${pythonRepr(key)}: ${await visit(item, depth + 1)}`);
      }
    }
    return `{${entries.join(format === 'python' ? ', ' : ',')}}`;
  };
  return visit(value, 0);
}

/** A plain array or object (anything else is rendered whole by the leaf renderer). */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (
    (proto === Object.prototype || proto === null) &&
    typeof (v as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** What `JSON.stringify` keeps as an object member (it drops undefined, functions, symbols). */
function isJsonValue(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

/**
 * A long string rendered slice by slice, exactly as the leaf renderer renders it whole. Python
 * picks its quote from the whole string; each slice is forced to the same quote by appending the
 * other quote character, which is then cut off again. Slices never split a surrogate pair.
 */
async function longString(
  s: string,
  format: ContextTextFormat,
  pause: () => Promise<void>,
): Promise<string> {
  const quote = format === 'json' ? '"' : s.includes("'") && !s.includes('"') ? '"' : "'";
  const other = quote === '"' ? "'" : '"';
  const parts: string[] = [quote];
  for (let at = 0; at < s.length;) {
    let end = Math.min(at + STRING_SLICE, s.length);
    const last = s.charCodeAt(end - 1);
    if (end < s.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const slice = s.slice(at, end);
    parts.push(
      format === 'json'
        ? JSON.stringify(slice).slice(1, -1)
        : pythonRepr(slice + other).slice(1, -2),
    );
    at = end;
    await pause();
  }
  parts.push(quote);
  return parts.join('');
}

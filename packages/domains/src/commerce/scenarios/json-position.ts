/**
 * Positions in JSON text, for error messages that point at a line and column: where the value at
 * a JSON path starts, found with `jsonc-parser`'s syntax tree.
 *
 * @module
 */
import { parseTree } from 'jsonc-parser';
import type { Node, ParseError, ParseOptions } from 'jsonc-parser';

/** A 1-based line and column (columns count UTF-16 code units, like editors do). */
export interface LineColumn {
  line: number;
  column: number;
}

/** A position in the text. */
export interface JsonLocation extends LineColumn {
  /** 0-based offset in the text. */
  offset: number;
}

/** One step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;

/** RFC 8259 JSON: no comments, no trailing commas, no empty document. */
export const STRICT_JSON: ParseOptions = {
  disallowComments: true,
  allowTrailingComma: false,
  allowEmptyContent: false,
};

/** Line and column of `offset` in `text` (only `\n` starts a line). */
export function lineColumnAt(text: string, offset: number): LineColumn {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1 };
}

/** The offset with its line and column. */
export function locationAt(text: string, offset: number): JsonLocation {
  return { offset, ...lineColumnAt(text, offset) };
}

/** `$.gold_actions[2].arguments["odd key"]`: a JSON path in JSONPath notation. */
export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * The property node of `key` in an object node. With duplicate keys, the last one: the one
 * `JSON.parse` keeps.
 */
function propertyOf(node: Node, key: string): Node | undefined {
  if (node.type !== 'object') return undefined;
  return node.children?.findLast((p) => p.children?.[0]?.value === key && p.children.length === 2);
}

/**
 * Where the value at `path` starts in `text` (the key's position when `atKey` is set and the
 * value is an object property). When the path does not exist, the position of its deepest
 * existing ancestor. Undefined when the text is not valid JSON or nests too deeply to parse.
 */
export function locateJsonPath(
  text: string,
  path: readonly JsonPathSegment[],
  atKey = false,
): JsonLocation | undefined {
  const errors: ParseError[] = [];
  let node: Node | undefined;
  try {
    node = parseTree(text, errors, STRICT_JSON);
  } catch {
    return undefined; // too deep for the recursive parser
  }
  if (!node || errors.length > 0) return undefined;
  let offset = node.offset;
  for (const [depth, segment] of path.entries()) {
    let key: Node | undefined;
    if (typeof segment === 'number') {
      node = node.type === 'array' ? node.children?.[segment] : undefined;
    } else {
      const property = propertyOf(node, segment);
      key = property?.children?.[0];
      node = property?.children?.[1];
    }
    if (!node) break;
    offset = atKey && key && depth === path.length - 1 ? key.offset : node.offset;
  }
  return locationAt(text, offset);
}

/**
 * Structure checks of a parsed scenario file that run before anything recurses into it: keys that
 * could reach a prototype, and nesting deeper than any scenario needs.
 *
 * @module
 */
import { FORBIDDEN_KEYS } from '@scenaro/agent/scenario';
import type { RawIssue } from './file-error.js';
import { formatJsonPath } from './json-position.js';
import type { JsonPathSegment } from './json-position.js';

/** Deepest nesting a scenario file may use (objects and arrays); real files need about 6. */
export const MAX_SCENARIO_NESTING = 64;

interface WalkNode {
  value: unknown;
  depth: number;
  parent: WalkNode | undefined;
  key: JsonPathSegment | undefined;
}

function pathOf(node: WalkNode | undefined): JsonPathSegment[] {
  const out: JsonPathSegment[] = [];
  for (let n = node; n && n.key !== undefined; n = n.parent) out.push(n.key);
  return out.reverse();
}

/**
 * Every `__proto__` / `constructor` / `prototype` key in the parsed value, by path, and the first
 * place the nesting exceeds {@link MAX_SCENARIO_NESTING} (checked before anything recurses).
 */
export function structureIssues(root: unknown): RawIssue[] {
  const issues: RawIssue[] = [];
  const stack: WalkNode[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as WalkNode;
    const { value, depth } = node;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_SCENARIO_NESTING) {
      issues.push({
        path: pathOf(node),
        message: `nested more than ${MAX_SCENARIO_NESTING} levels deep`,
      });
      break;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, depth: depth + 1, parent: node, key: i }));
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: WalkNode = {
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        parent: node,
        key,
      };
      if (FORBIDDEN_KEYS.has(key)) {
        issues.push({
          path: pathOf(child),
          message: `the key '${key}' is not allowed`,
          atKey: true,
        });
      } else {
        stack.push(child);
      }
    }
  }
  return issues.sort((a, b) => formatJsonPath(a.path).localeCompare(formatJsonPath(b.path)));
}

/**
 * How deep JSON values nest. Every check here is iterative, so a value of any depth is safe to
 * measure; keeping client data and session dbs within {@link MAX_NESTING_DEPTH} is what makes
 * everything that recurses over them (cloning, hashing, encoding) safe in turn.
 */

/**
 * Deepest nesting of objects and arrays accepted from a client (about where
 * Python's `json` gives up). Deeper values could not be cloned, hashed or
 * encoded again (`structuredClone` overflows near 2,000 levels), so letting one
 * into a db would wedge the session.
 */
export const MAX_NESTING_DEPTH = 1000;

/**
 * How many levels of objects and arrays `value` nests (0 for a scalar, 1 for `{}`), counting at
 * most to `cap + 1`: a deeper value reports `cap + 1` without being walked further down.
 */
export function nestingDepth(value: unknown, cap: number = MAX_NESTING_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (depth > cap) return cap + 1;
    for (const child of Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/** Does `value` nest objects/arrays deeper than `maxDepth` levels? Iterative, so any depth is safe. */
export function exceedsNestingDepth(value: unknown, maxDepth: number = MAX_NESTING_DEPTH): boolean {
  return nestingDepth(value, maxDepth) > maxDepth;
}

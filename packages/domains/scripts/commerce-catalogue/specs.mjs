/**
 * How a product type's specs are drawn (see `./index.mjs`). A type's `specs` is a table from spec
 * name to how its value is drawn, in the order the generator draws them:
 *
 * - a list: one of its values (`r.pick`),
 * - `chance(p)`: true with probability `p`,
 * - `between(lo, hi)`: a whole number from `lo` to `hi`,
 * - anything else: that value, fixed (nothing is drawn).
 */

/** True with probability `p`. */
export const chance = (p) => (r) => r.chance(p);

/** A whole number from `lo` to `hi`, both included. */
export const between = (lo, hi) => (r) => r.int(lo, hi);

/** Draws the spec values of `table` with `r`, one after another in the table's order. */
export function drawSpecs(r, table) {
  const specs = {};
  for (const [name, how] of Object.entries(table)) {
    if (Array.isArray(how)) specs[name] = r.pick(how);
    else if (typeof how === 'function') specs[name] = how(r);
    else specs[name] = how;
  }
  return specs;
}

/**
 * How a product type's specs are drawn and described (see `./index.mjs`).
 *
 * A type's `specs` is a table from spec name to how its value is drawn, in the order the
 * generator draws them:
 *
 * - a list: one of its values (`r.pick`),
 * - `{"chance": p}`: true with probability `p`,
 * - `{"between": [lo, hi]}`: a whole number from `lo` to `hi`, both included,
 * - anything else: that value, fixed (nothing is drawn).
 *
 * Its `desc` is a template: `{name}` stands for that spec's value, `{name?text}` for `text` when
 * the spec is true (nothing otherwise), `{name?yes|no}` for one or the other.
 */

/** Draws the spec values of `table` with `r`, one after another in the table's order. */
export function drawSpecs(r, table) {
  const specs = {};
  for (const [name, how] of Object.entries(table)) {
    if (Array.isArray(how)) specs[name] = r.pick(how);
    else if (how !== null && typeof how === 'object' && 'chance' in how)
      specs[name] = r.chance(how.chance);
    else if (how !== null && typeof how === 'object' && 'between' in how)
      specs[name] = r.int(how.between[0], how.between[1]);
    else specs[name] = how;
  }
  return specs;
}

/** A type's description: its `template` filled in with `specs`. */
export function describe(template, specs) {
  return template.replace(/\{(\w+)(?:\?([^|}]*)(?:\|([^}]*))?)?\}/g, (_, name, yes, no) => {
    if (!Object.hasOwn(specs, name))
      throw new Error(`a description names '${name}', which is not one of the type's specs`);
    const value = specs[name];
    if (yes === undefined) return String(value);
    return value ? yes : (no ?? '');
  });
}

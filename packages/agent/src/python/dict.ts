/**
 * Python `dict` semantics on JS objects: what counts as a dict (a plain data object), and
 * `d[key] = value` where every key, `__proto__` included, is ordinary data.
 *
 * @module
 */

/** Plain data object: prototype is null or an `Object.prototype` (any realm). */
export function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Python's `d[key] = value`: defines `key` as an own enumerable data property of `target`,
 * replacing whatever property was there (an accessor too), so a key named `__proto__` is stored
 * as data instead of changing the prototype. On a fresh plain object, plain assignment does the
 * same for every other key, faster.
 */
export function setDictItem(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

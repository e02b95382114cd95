/**
 * Python's `key in container`, `container[key]` and `for x in value` on JSON-like values, with
 * the `TypeError`s Python raises for the wrong types (tools that index what the model sent).
 *
 * @module
 */
import { PythonError, pythonRepr, pythonTypeName } from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';

/** `key in container` for a string key. */
export function pyContains(container: unknown, key: string): boolean {
  if (isJsonObject(container)) return Object.hasOwn(container, key);
  if (typeof container === 'string') return container.includes(key);
  if (Array.isArray(container)) return container.includes(key);
  throw new PythonError(
    'TypeError',
    `argument of type '${pythonTypeName(container)}' is not iterable`,
  );
}

/** `container[key]` for a string key. */
export function pyItem(container: unknown, key: string): unknown {
  if (isJsonObject(container)) {
    if (!Object.hasOwn(container, key)) throw new PythonError('KeyError', pythonRepr(key));
    return container[key];
  }
  if (typeof container === 'string' || Array.isArray(container)) {
    const what = typeof container === 'string' ? 'string' : 'list';
    const allowed = what === 'list' ? 'integers or slices' : 'integers';
    throw new PythonError('TypeError', `${what} indices must be ${allowed}, not 'str'`);
  }
  throw new PythonError('TypeError', `'${pythonTypeName(container)}' object is not subscriptable`);
}

/** The items `for x in value` visits: list items, a string's characters, a dict's keys. */
export function pyIterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isJsonObject(value)) return Object.keys(value);
  throw new PythonError('TypeError', `'${pythonTypeName(value)}' object is not iterable`);
}

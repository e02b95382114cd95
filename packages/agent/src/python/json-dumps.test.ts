import { describe, expect, it } from 'vitest';
import { DbHashDepthError } from './depth-limit.js';
import { pyFloat } from './float.js';
import { pythonJsonDumps } from './json-dumps.js';

/**
 * `[value, json.dumps(value, sort_keys=True), json.dumps(value, sort_keys=True,
 * separators=(',', ':'))]` as printed by CPython 3.11.7 (`python3 -c` over the same values as
 * Python literals; `2.0` is a float, hence the PyFloat marker).
 */
const DUMPS_VECTORS: [value: unknown, dumps: string, compact: string][] = [
  [{ b: [1, 'None'], a: pyFloat(2) }, '{"a": 2.0, "b": [1, "None"]}', '{"a":2.0,"b":[1,"None"]}'],
  [
    { é: 'Zoë', z: [1.5, 1e-5, pyFloat(1e16), null, true] },
    '{"z": [1.5, 1e-05, 1e+16, null, true], "\\u00e9": "Zo\\u00eb"}',
    '{"z":[1.5,1e-05,1e+16,null,true],"\\u00e9":"Zo\\u00eb"}',
  ],
  [
    ["\u007f\u0080/<>&'", '\b\f\r\u001f'],
    '["\\u007f\\u0080/<>&\'", "\\b\\f\\r\\u001f"]',
    '["\\u007f\\u0080/<>&\'","\\b\\f\\r\\u001f"]',
  ],
  [
    { '\ud83d\ude00': 1, '\uffff': 2, a: 3 },
    '{"a": 3, "\\uffff": 2, "\\ud83d\\ude00": 1}',
    '{"a":3,"\\uffff":2,"\\ud83d\\ude00":1}',
  ],
  [[NaN, Infinity, -Infinity], '[NaN, Infinity, -Infinity]', '[NaN,Infinity,-Infinity]'],
  [12345678901234567890n, '12345678901234567890', '12345678901234567890'],
  [{ n: { m: [] } }, '{"n": {"m": []}}', '{"n":{"m":[]}}'],
];

describe('pythonJsonDumps', () => {
  it.each(DUMPS_VECTORS)('vector %#: %s', (value, dumps, compact) => {
    expect(pythonJsonDumps(value)).toBe(dumps);
    expect(pythonJsonDumps(value, { separators: 'compact' })).toBe(compact);
  });

  it('compact separators on request, no normalization', () => {
    expect(pythonJsonDumps({ b: [1, 'None'], a: pyFloat(2) }, { separators: 'compact' })).toBe(
      '{"a":2.0,"b":[1,"None"]}',
    );
  });

  it('keeps insertion order without sort_keys (CPython: json.dumps(d))', () => {
    expect(pythonJsonDumps({ b: 1, a: [1.5, { z: null, y: 'é' }] }, { sortKeys: false })).toBe(
      '{"b": 1, "a": [1.5, {"z": null, "y": "\\u00e9"}]}',
    );
  });

  it('throws DbHashDepthError beyond maxDepth', () => {
    expect(pythonJsonDumps([[1]], { maxDepth: 2 })).toBe('[[1]]');
    expect(() => pythonJsonDumps([[[1]]], { maxDepth: 2 })).toThrow(DbHashDepthError);
  });
});

import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PyFloat } from './float.js';
import { pythonRepr, pythonStr, pythonTypeName } from './repr.js';

function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'pass']);
    return true;
  } catch {
    return false;
  }
}
const python = hasPython();
if (!python) console.warn('pythonRepr reference test skipped: python3 is not installed');

/** Python's repr of each JSON value, computed by python3 itself. */
function pythonReprs(values: unknown[]): string[] {
  const script = 'import json,sys\nfor v in json.load(sys.stdin): print(json.dumps(repr(v)))';
  const out = execFileSync('python3', ['-c', script], {
    input: JSON.stringify(values),
    encoding: 'utf8',
  });
  return out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as string);
}

const tricky = [
  'plain',
  "it's",
  'say "hi"',
  `both ' and "`,
  'back\\slash',
  'tab\tnew\nline\rret',
  '\u0000\u0001\u001f\u007f\u0085\u00a0\u00ad',
  'a\u200bb\u200e\u2028\u2029\u3000\ufeff',
  'Zoë 東京 😀 \u{1f3f3}\u{fe0f}',
  '\ue000 private',
  '',
];

/**
 * `[value, repr(value)]` as printed by CPython 3.11.7, `python3 -c` running
 * `for v in VALUES: print(json.dumps([v, repr(v)], ensure_ascii=True))` over the same values as
 * Python literals. Integral JS numbers stand for Python ints; `-0` and fractional numbers for
 * floats.
 */
const REPR_VECTORS: [value: unknown, repr: string][] = [
  ['x\r\u0007y', "'x\\r\\x07y'"],
  [-0, '-0.0'],
  [0, '0'],
  [1.5, '1.5'],
  [10000000000000000, '10000000000000000'],
  [123456789.125, '123456789.125'],
  [Infinity, 'inf'],
  [-Infinity, '-inf'],
  ['plain', "'plain'"],
  ["it's", `"it's"`],
  ['say "hi"', `'say "hi"'`],
  [`both ' and "`, `'both \\' and "'`],
  ['back\\slash', "'back\\\\slash'"],
  ['tab\tnew\nline\rret', "'tab\\tnew\\nline\\rret'"],
  ['\u0000\u0001\u001f\u007f\u0085\u00a0\u00ad', "'\\x00\\x01\\x1f\\x7f\\x85\\xa0\\xad'"],
  ['a\u200bb\u200e\u2028\u2029\u3000\ufeff', "'a\\u200bb\\u200e\\u2028\\u2029\\u3000\\ufeff'"],
  [
    'Zo\u00eb \u6771\u4eac \ud83d\ude00 \ud83c\udff3\ufe0f',
    "'Zo\u00eb \u6771\u4eac \ud83d\ude00 \ud83c\udff3\ufe0f'",
  ],
  ['\ue000 private', "'\\ue000 private'"],
  ['', "''"],
  [{ a: 'x', b: null, c: [true, 1.5] }, "{'a': 'x', 'b': None, 'c': [True, 1.5]}"],
  [[1, 2.5, -0.5, 1e-5, false, null], '[1, 2.5, -0.5, 1e-05, False, None]'],
  [{ 'k"ey': { nested: ['x'] }, "o'k": [] }, `{'k"ey': {'nested': ['x']}, "o'k": []}`],
  [
    { server_address: '192.168.0.1', protocol: 'OpenVPN', ctrl: 'a\rb' },
    "{'server_address': '192.168.0.1', 'protocol': 'OpenVPN', 'ctrl': 'a\\rb'}",
  ],
  [['camera', 'microphone'], "['camera', 'microphone']"],
];

describe('pythonRepr: CPython vectors', () => {
  it.each(REPR_VECTORS)('repr(%j) = %s', (value, repr) => {
    expect(pythonRepr(value)).toBe(repr);
  });

  it('renders dicts like repr()', () => {
    expect(pythonRepr({ a: 'x', b: null, c: [true, 1.5] })).toBe(
      "{'a': 'x', 'b': None, 'c': [True, 1.5]}",
    );
  });
});

describe('pythonStr and pythonTypeName', () => {
  it('str() is the string itself, repr() for everything else', () => {
    expect(pythonStr('a\rb')).toBe('a\rb');
    expect(pythonStr(null)).toBe('None');
    expect(pythonStr(true)).toBe('True');
    expect(pythonStr(12)).toBe('12');
    expect(pythonStr(0.5)).toBe('0.5');
    expect(pythonStr(['x'])).toBe("['x']");
  });

  it('names Python types', () => {
    const names = [null, undefined, true, 1, 1.5, 2n, 'x', [], {}, new PyFloat(1), new Date(0)].map(
      pythonTypeName,
    );
    expect(names).toEqual([
      'NoneType',
      'NoneType',
      'bool',
      'int',
      'float',
      'int',
      'str',
      'list',
      'dict',
      'float',
      'Date',
    ]);
  });
});

describe.skipIf(!python)('pythonRepr against python3 on this machine', () => {
  it('renders strings exactly as Python does', () => {
    expect(tricky.map((s) => pythonRepr(s))).toEqual(pythonReprs(tricky));
  });

  it('renders nested values exactly as Python does', () => {
    const values = [
      [
        { role: 'system', content: "You're helpful" },
        { role: 'tool', content: null, ok: true, n: 3, x: 15.1 },
      ],
      { a: [1, 2.5, -0.5, 1e-5, 1e22 + 0.5, false, null], 'k"ey': { nested: ['x'] } },
    ];
    expect(values.map((v) => pythonRepr(v))).toEqual(pythonReprs(values));
  });

  it('agrees with Python on random strings from a mixed alphabet', () => {
    const alphabet = fc.constantFrom(
      ...'aZ09 \'"\\\t\n\u0001\u007f\u00a0\u00e9\u200b\u3000\u6771😀\ud55c\u2028',
    );
    const strings = fc.sample(
      fc.array(alphabet, { maxLength: 12 }).map((cs) => cs.join('')),
      { numRuns: 400, seed: 7 },
    );
    expect(strings.map((s) => pythonRepr(s))).toEqual(pythonReprs(strings));
  });
});

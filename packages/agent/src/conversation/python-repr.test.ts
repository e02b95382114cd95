// pythonRepr checked against the real Python `repr` (python3 on this machine).
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonRepr } from './python-repr.js';

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

describe.skipIf(!python)('pythonRepr', () => {
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

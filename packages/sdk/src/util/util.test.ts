import { describe, expect, it } from 'vitest';
import { editDistance, errorMessage, isJsonObject, seededRandom } from './index.js';

describe('isJsonObject', () => {
  it('accepts objects and refuses null, arrays and primitives', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject({ a: 1 })).toBe(true);
    expect(isJsonObject(Object.create(null))).toBe(true);
    for (const value of [null, undefined, [], [1], 'x', 0, true]) {
      expect(isJsonObject(value)).toBe(false);
    }
  });
});

describe('errorMessage', () => {
  it("reads an Error's message and stringifies anything else", () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  it('puts the name first when asked', () => {
    expect(errorMessage(new TypeError('bad'), { withName: true })).toBe('TypeError: bad');
    expect(errorMessage('plain', { withName: true })).toBe('plain');
  });
});

describe('editDistance', () => {
  it.each([
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
    ['garcia', 'garica', 2],
    ['same', 'same', 0],
  ])('%j to %j is %d', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });
});

describe('seededRandom', () => {
  it('draws uniform numbers in [0, 1), the same ones from the same seed', () => {
    const r = seededRandom(3);
    const xs = Array.from({ length: 10_000 }, r);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    expect(Array.from({ length: 5 }, seededRandom(3))).toEqual(xs.slice(0, 5));
  });
});

import { describe, expect, it } from 'vitest';
import { formatJsonPath, lineColumnAt, locateJsonPath } from './json-position.js';

describe('lineColumnAt', () => {
  it('counts 1-based lines and columns', () => {
    const text = 'ab\ncd\r\nef';
    expect(lineColumnAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt(text, 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumnAt(text, 7)).toEqual({ line: 3, column: 1 });
    expect(lineColumnAt(text, 999)).toEqual({ line: 3, column: 3 });
  });
});

describe('locateJsonPath', () => {
  const text =
    '{\n  "name": "x",\n  "gold_actions": [\n    { "name": "a" },\n    { "name": "b", "arguments": {} }\n  ]\n}';

  it('finds values, keys and the nearest existing ancestor', () => {
    expect(locateJsonPath(text, ['gold_actions', 1, 'name'])).toMatchObject({
      line: 5,
      column: 15,
    });
    expect(locateJsonPath(text, ['gold_actions', 1, 'name'], true)).toMatchObject({
      line: 5,
      column: 7,
    });
    expect(locateJsonPath(text, ['gold_actions', 1, 'arguments', 'missing'])).toMatchObject({
      line: 5,
      column: 33,
    });
    expect(locateJsonPath(text, [])).toMatchObject({ line: 1, column: 1 });
    expect(locateJsonPath('{', ['a'])).toBeUndefined();
  });

  it('formats paths as JSONPath', () => {
    expect(formatJsonPath([])).toBe('$');
    expect(formatJsonPath(['gold_actions', 2, 'arguments', 'odd key'])).toBe(
      '$.gold_actions[2].arguments["odd key"]',
    );
    expect(formatJsonPath(['expected_state', 'users[u_1].cart'])).toBe(
      '$.expected_state["users[u_1].cart"]',
    );
  });
});

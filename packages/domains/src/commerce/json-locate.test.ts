import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findJsonSyntaxError,
  formatJsonPath,
  lineColumnAt,
  locateJsonPath,
} from './json-locate.js';

describe('lineColumnAt', () => {
  it('counts 1-based lines and columns', () => {
    const text = 'ab\ncd\r\nef';
    expect(lineColumnAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt(text, 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumnAt(text, 7)).toEqual({ line: 3, column: 1 });
    expect(lineColumnAt(text, 999)).toEqual({ line: 3, column: 3 });
  });
});

describe('findJsonSyntaxError', () => {
  const cases: [string, string, number, number][] = [
    ['{\n  "a": 1,\n}', "trailing comma before '}'", 3, 1],
    ['[1, 2,]', "trailing comma before ']'", 1, 7],
    ['{\n  "a" 1\n}', `expected ':' after property name "a", found '1'`, 2, 7],
    ['{"a": tru}', "unexpected 't'; a value was expected", 1, 7],
    ['{"a": 1 "b": 2}', "expected ',' or '}' after a property value, found '\"'", 1, 9],
    ['{"a": "x\ny"}', 'line break inside a string (unterminated string?)', 1, 9],
    ["{'a': 1}", "expected a property name in double quotes, found '''", 1, 2],
    ['{"a": 01}', 'malformed number', 1, 8],
    ['{"a": "\\q"}', "bad escape '\\q' in string", 1, 8],
    ['', 'unexpected end of input; a value was expected', 1, 1],
    ['{"a": [1, 2}', "expected ',' or ']' after an array element, found '}'", 1, 12],
    ['{} {}', "unexpected '{' after the end of the JSON value", 1, 4],
    ['{"a": "open', 'unterminated string', 1, 7],
  ];
  it.each(cases)('%j -> %s at %i:%i', (text, message, line, column) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toMatchObject({ message, line, column });
  });

  it('agrees with JSON.parse on valid documents', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2, '\t'), (value, space) => {
        expect(findJsonSyntaxError(JSON.stringify(value, null, space))).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on arbitrary text', () => {
    const alphabet = fc.constantFrom(...'{}[]:,"\\ \n01-.eEtruefalsn'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => {
        const text = chars.join('');
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(findJsonSyntaxError(text) === undefined).toBe(valid);
      }),
      { numRuns: 3000 },
    );
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

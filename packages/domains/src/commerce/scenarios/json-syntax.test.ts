import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from './json-syntax.js';

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

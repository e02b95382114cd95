/**
 * JSON syntax errors with a position and a plain description (`trailing comma before '}'`,
 * `expected ':' after property name "a"`), for text `JSON.parse` refused. `jsonc-parser`, held
 * to strict JSON, finds the first error; its place in the grammar (what was expected there)
 * gives the description.
 *
 * @module
 */
import { printParseErrorCode, visit } from 'jsonc-parser';
import type { JSONVisitor, ParseErrorCode } from 'jsonc-parser';
import { locationAt, STRICT_JSON } from './json-position.js';
import type { JsonLocation } from './json-position.js';

/** A JSON syntax error with its position. */
export interface JsonSyntaxProblem extends JsonLocation {
  message: string;
  /** True when the text nests too deeply to parse; the position is then meaningless (0). */
  tooDeep?: boolean;
}

/** Where the parser stood: the last thing it read, and the container it is in. */
interface GrammarState {
  last: 'start' | 'object-start' | 'array-start' | 'key' | 'colon' | 'comma' | 'value';
  containers: ('object' | 'array')[];
  /** The last property name read. */
  key: string;
  /** Where the last token ended, and whether it was a number. */
  end: number;
  afterNumber: boolean;
}

/** Thrown from the visitor to stop at the first error. */
class FirstError {
  constructor(
    readonly code: ParseErrorCode,
    readonly offset: number,
  ) {}
}

const STRING_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  if (ch === '\n') return 'a line break';
  return `'${ch}'`;
}

/** The first mistake inside the broken string starting at `start` (its opening quote). */
function stringProblem(text: string, start: number): { message: string; offset: number } {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') break;
    if (c === '\\') {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
          return { message: 'bad \\u escape in string', offset: i };
        i += 5;
      } else if (e === undefined || !STRING_ESCAPES.has(e)) {
        const escape = describeChar(e === undefined ? undefined : `\\${e}`);
        return { message: `bad escape ${escape} in string`, offset: i };
      } else {
        i++;
      }
    } else if (c.charCodeAt(0) < 0x20) {
      const message =
        c === '\n'
          ? 'line break inside a string (unterminated string?)'
          : 'control character in string';
      return { message, offset: i };
    }
  }
  return { message: 'unterminated string', offset: start };
}

/** Where a number starting at `start` stops being one. */
function numberEnd(text: string, start: number): number {
  const number = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  number.lastIndex = start;
  return number.exec(text) ? number.lastIndex : start;
}

/** What was wrong at `offset`, given what the grammar expected there. */
function describe(
  text: string,
  state: GrammarState,
  offset: number,
): { message: string; offset: number } {
  const c = text[offset];
  const container = state.containers.at(-1);
  const found = describeChar(c);
  switch (state.last) {
    case 'object-start':
      return { message: `expected a property name in double quotes, found ${found}`, offset };
    case 'key':
      return {
        message: `expected ':' after property name "${state.key}", found ${found}`,
        offset,
      };
    case 'value':
      if (state.afterNumber && offset === state.end && c !== undefined && /[0-9.eE+-]/.test(c))
        return { message: 'malformed number', offset };
      if (container === 'object')
        return { message: `expected ',' or '}' after a property value, found ${found}`, offset };
      if (container === 'array')
        return { message: `expected ',' or ']' after an array element, found ${found}`, offset };
      return { message: `unexpected ${found} after the end of the JSON value`, offset };
    case 'comma':
      if (container === 'object') {
        if (c === '}') return { message: "trailing comma before '}'", offset };
        return { message: `expected a property name in double quotes, found ${found}`, offset };
      }
      if (c === ']') return { message: "trailing comma before ']'", offset };
  }
  // A value was expected.
  if (c === undefined) return { message: 'unexpected end of input; a value was expected', offset };
  if (c === "'")
    return { message: 'strings must use double quotes ("), not single quotes (\')', offset };
  if (c === '-' || (c >= '0' && c <= '9')) return { message: 'malformed number', offset };
  const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, offset));
  if (literal !== undefined) {
    // `truex`: the literal is fine, what follows it is not.
    const end = offset + literal.length;
    return describe(text, { ...state, last: 'value', end, afterNumber: false }, end);
  }
  return { message: `unexpected ${found}; a value was expected`, offset };
}

/** The first error (`code` at `offset`) in words, and exactly where it is. */
function explain(
  text: string,
  state: GrammarState,
  code: ParseErrorCode,
  offset: number,
): { message: string; offset: number } {
  const container = state.containers.at(-1);
  const expectsKey =
    state.last === 'object-start' || (state.last === 'comma' && container === 'object');
  const expectsValue =
    state.last === 'start' ||
    state.last === 'colon' ||
    state.last === 'array-start' ||
    (state.last === 'comma' && container === 'array');
  switch (printParseErrorCode(code)) {
    case 'UnexpectedEndOfString':
    case 'InvalidUnicode':
    case 'InvalidEscapeCharacter':
    case 'InvalidCharacter':
      // A broken string where a key or a value may stand.
      if (expectsKey || expectsValue) return stringProblem(text, offset);
      break;
    case 'UnexpectedEndOfNumber':
      if (expectsValue) return { message: 'malformed number', offset: numberEnd(text, offset) };
      break;
  }
  return describe(text, state, offset);
}

/**
 * Find the first syntax error in `text`, or undefined when `text` is valid JSON.
 * Text that nests too deeply to parse is reported at offset 0 with `tooDeep`.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const state: GrammarState = {
    last: 'start',
    containers: [],
    key: '',
    end: 0,
    afterNumber: false,
  };
  const read = (last: GrammarState['last'], end: number, afterNumber = false): void => {
    state.last = last;
    state.end = end;
    state.afterNumber = afterNumber;
  };
  const close = (closer: string) => (offset: number) => {
    // The parser also ends a container at the end of the input; the error follows.
    if (text[offset] !== closer) return;
    state.containers.pop();
    read('value', offset + 1);
  };
  const visitor: JSONVisitor = {
    onObjectBegin: (offset) => {
      state.containers.push('object');
      read('object-start', offset + 1);
    },
    onObjectProperty: (key, offset, length) => {
      state.key = key;
      read('key', offset + length);
    },
    onObjectEnd: close('}'),
    onArrayBegin: (offset) => {
      state.containers.push('array');
      read('array-start', offset + 1);
    },
    onArrayEnd: close(']'),
    onLiteralValue: (value, offset, length) =>
      read('value', offset + length, typeof value === 'number'),
    onSeparator: (separator, offset) => read(separator === ':' ? 'colon' : 'comma', offset + 1),
    onError: (code, offset) => {
      throw new FirstError(code, offset);
    },
  };
  try {
    visit(text, visitor, STRICT_JSON);
    return undefined;
  } catch (err) {
    if (err instanceof RangeError) {
      return { message: 'nesting too deep to scan', tooDeep: true, ...locationAt(text, 0) };
    }
    if (!(err instanceof FirstError)) throw err;
    const { message, offset } = explain(text, state, err.code, err.offset);
    return { message, ...locationAt(text, offset) };
  }
}

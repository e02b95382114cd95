import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  isPythonWhitespace,
  pySortedStrings,
  PYTHON_WHITESPACE_CLASS,
  pythonStrip,
  textwrapIndent,
} from './strings.js';

/**
 * Every code point for which CPython 3.11.7 says `chr(c).isspace()` (the set `str.strip()`
 * removes): `python3 -c 'print([c for c in range(0x110000) if chr(c).isspace()])'`.
 */
const PYTHON_SPACES = [
  9, 10, 11, 12, 13, 28, 29, 30, 31, 32, 133, 160, 5760, 8192, 8193, 8194, 8195, 8196, 8197, 8198,
  8199, 8200, 8201, 8202, 8232, 8233, 8239, 8287, 12288,
];

describe('Python whitespace', () => {
  it('isPythonWhitespace and PYTHON_WHITESPACE_CLASS are exactly str.isspace()', () => {
    const byFunction: number[] = [];
    const byClass: number[] = [];
    const inClass = new RegExp(`^[${PYTHON_WHITESPACE_CLASS}]$`);
    for (let c = 0; c <= 0xffff; c++) {
      if (isPythonWhitespace(c)) byFunction.push(c);
      if (inClass.test(String.fromCharCode(c))) byClass.push(c);
    }
    expect(byFunction).toEqual(PYTHON_SPACES);
    expect(byClass).toEqual(PYTHON_SPACES);
  });

  // `[s, s.strip()]` from CPython 3.11.7.
  it.each([
    ['\u001c none \u0085', 'none'],
    ['\ufeffx\ufeff', '\ufeffx\ufeff'],
    ['\u200bx', '\u200bx'],
    ['\t\n\u000b\f\r x \u3000', 'x'],
  ])('%j.strip() = %j', (s, stripped) => {
    expect(pythonStrip(s)).toBe(stripped);
  });
});

describe('code-point order', () => {
  it('sorts keys by code point, not UTF-16 code unit', () => {
    expect(compareCodePoints('\ud83d\ude00', '\ud83dA')).toBeGreaterThan(0);
    expect(compareCodePoints('\ud83d\ude00', '\ud83d\uffff')).toBeGreaterThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
  });

  it('pySortedStrings is sorted() (CPython 3.11.7 output)', () => {
    const input = ['b', 'a', 'B', '\uffff', '\ud83d\ude00', '\ue000', '\u00e9', 'aa', ''];
    expect(pySortedStrings(input)).toEqual([
      '',
      'B',
      'a',
      'aa',
      'b',
      '\u00e9',
      '\ue000',
      '\uffff',
      '\ud83d\ude00',
    ]);
    expect(input[0]).toBe('b');
  });
});

describe('textwrapIndent (textwrap.indent)', () => {
  it('indents non-blank lines like textwrap.indent', () => {
    expect(textwrapIndent('a\n\nb\n', '\t')).toBe('\ta\n\n\tb\n');
  });

  // `[text, textwrap.indent(text, '\t')]` from CPython 3.11.7 (`python3 -c` over these texts).
  it.each([
    ['a\n\nb\n', '\ta\n\n\tb\n'],
    ['a\r\nb\rc', '\ta\r\n\tb\r\tc'],
    ['x\n \n\ty', '\tx\n \n\t\ty'],
    ['one\u000btwo\fthree', '\tone\u000b\ttwo\f\tthree'],
    ['p\u001cq\u0085r\u2028s', '\tp\u001c\tq\u0085\tr\u2028\ts'],
    ['blank\n\u3000\nend', '\tblank\n\u3000\n\tend'],
    ['no newline', '\tno newline'],
    ['', ''],
    ['\n\n', '\n\n'],
  ])('indent(%j)', (text, indented) => {
    expect(textwrapIndent(text, '\t')).toBe(indented);
  });
});

/**
 * Source positions in JSON text, for error messages that point at a line and column:
 * where a syntax error is (V8's `JSON.parse` messages do not always carry a position), and
 * where the value at a JSON path starts.
 *
 * The scanner follows RFC 8259 and is only run on text that is already known to be bad, or to
 * locate a path, so its speed does not matter; it recurses, and deeply nested input simply
 * yields no location.
 *
 * @module
 */

/** A 1-based line and column (columns count UTF-16 code units, like editors do). */
export interface LineColumn {
  line: number;
  column: number;
}

/** A position in the text. */
export interface JsonLocation extends LineColumn {
  /** 0-based offset in the text. */
  offset: number;
}

/** One step of a JSON path: an object key or an array index. */
export type JsonPathSegment = string | number;

/** Line and column of `offset` in `text`. */
export function lineColumnAt(text: string, offset: number): LineColumn {
  const clamped = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: clamped - lineStart + 1 };
}

function location(text: string, offset: number): JsonLocation {
  return { offset, ...lineColumnAt(text, offset) };
}

/** `$.gold_actions[2].arguments["odd key"]`: a JSON path in JSONPath notation. */
export function formatJsonPath(path: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

class ScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'end of input';
  if (ch === '\n') return 'a line break';
  return `'${ch}'`;
}

type Visit = (
  path: readonly JsonPathSegment[],
  valueOffset: number,
  keyOffset: number | undefined,
) => void;

/** A recursive-descent JSON scanner that reports value positions by path. */
class Scanner {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly visit: Visit | undefined,
  ) {}

  scan(): void {
    this.ws();
    this.value([], undefined);
    this.ws();
    if (this.pos < this.text.length) {
      throw new ScanError(
        `unexpected ${describeChar(this.text[this.pos])} after the end of the JSON value`,
        this.pos,
      );
    }
  }

  private ws(): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else break;
    }
  }

  private value(path: JsonPathSegment[], keyOffset: number | undefined): void {
    const c = this.text[this.pos];
    this.visit?.(path, this.pos, keyOffset);
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') {
      this.string();
      return;
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    if (c === undefined)
      throw new ScanError('unexpected end of input; a value was expected', this.pos);
    if (c === "'")
      throw new ScanError('strings must use double quotes ("), not single quotes (\')', this.pos);
    throw new ScanError(`unexpected ${describeChar(c)}; a value was expected`, this.pos);
  }

  private object(path: JsonPathSegment[]): void {
    this.pos++; // {
    this.ws();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.ws();
      const keyOffset = this.pos;
      const c = this.text[this.pos];
      if (c === '}') throw new ScanError("trailing comma before '}'", keyOffset);
      if (c !== '"') {
        throw new ScanError(
          `expected a property name in double quotes, found ${describeChar(c)}`,
          keyOffset,
        );
      }
      const key = this.string();
      this.ws();
      if (this.text[this.pos] !== ':') {
        throw new ScanError(
          `expected ':' after property name "${key}", found ${describeChar(this.text[this.pos])}`,
          this.pos,
        );
      }
      this.pos++;
      this.ws();
      this.value([...path, key], keyOffset);
      this.ws();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === '}') {
        this.pos++;
        return;
      }
      throw new ScanError(
        `expected ',' or '}' after a property value, found ${describeChar(next)}`,
        this.pos,
      );
    }
  }

  private array(path: JsonPathSegment[]): void {
    this.pos++; // [
    this.ws();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (let index = 0; ; index++) {
      this.ws();
      if (this.text[this.pos] === ']') throw new ScanError("trailing comma before ']'", this.pos);
      this.value([...path, index], undefined);
      this.ws();
      const next = this.text[this.pos];
      if (next === ',') {
        this.pos++;
        continue;
      }
      if (next === ']') {
        this.pos++;
        return;
      }
      throw new ScanError(
        `expected ',' or ']' after an array element, found ${describeChar(next)}`,
        this.pos,
      );
    }
  }

  /** Scans a string starting at the opening quote; returns its decoded value. */
  private string(): string {
    const start = this.pos;
    this.pos++; // "
    let out = '';
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) throw new ScanError('unterminated string', start);
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c === '\\') {
        const e = this.text[this.pos + 1];
        if (e === 'u') {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex))
            throw new ScanError('bad \\u escape in string', this.pos);
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
          continue;
        }
        const simple: Record<string, string> = {
          '"': '"',
          '\\': '\\',
          '/': '/',
          b: '\b',
          f: '\f',
          n: '\n',
          r: '\r',
          t: '\t',
        };
        if (e === undefined || !Object.prototype.hasOwnProperty.call(simple, e)) {
          throw new ScanError(
            `bad escape ${describeChar(e === undefined ? undefined : `\\${e}`)} in string`,
            this.pos,
          );
        }
        out += simple[e];
        this.pos += 2;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) {
        throw new ScanError(
          c === '\n'
            ? 'line break inside a string (unterminated string?)'
            : 'control character in string',
          this.pos,
        );
      }
      out += c;
      this.pos++;
    }
  }

  private number(): void {
    const match = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (!match) throw new ScanError('malformed number', this.pos);
    this.pos += match[0].length;
    const next = this.text[this.pos];
    if (next !== undefined && /[0-9.eE+-]/.test(next))
      throw new ScanError('malformed number', this.pos);
  }
}

/** A JSON syntax error with its position. */
export interface JsonSyntaxProblem extends JsonLocation {
  message: string;
  /** True when the text nests too deeply to scan; the position is then meaningless (0). */
  tooDeep?: boolean;
}

/**
 * Find the first syntax error in `text`, or undefined when `text` is valid JSON.
 * Deeply nested text that exhausts the stack is reported at offset 0.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  try {
    new Scanner(text, undefined).scan();
    return undefined;
  } catch (err) {
    if (err instanceof ScanError) return { message: err.message, ...location(text, err.offset) };
    return { message: 'nesting too deep to scan', tooDeep: true, ...location(text, 0) };
  }
}

/**
 * Where the value at `path` starts in `text` (the key's position when `atKey` is set and the
 * value is an object property). When the path does not exist, the position of its deepest
 * existing ancestor. Undefined when the text cannot be scanned.
 */
export function locateJsonPath(
  text: string,
  path: readonly JsonPathSegment[],
  atKey = false,
): JsonLocation | undefined {
  let best: { depth: number; offset: number } | undefined;
  const visit: Visit = (at, valueOffset, keyOffset) => {
    if (at.length > path.length || (best && at.length <= best.depth)) return;
    for (let i = 0; i < at.length; i++) if (at[i] !== path[i]) return;
    const offset =
      atKey && at.length === path.length && keyOffset !== undefined ? keyOffset : valueOffset;
    best = { depth: at.length, offset };
  };
  try {
    new Scanner(text, visit).scan();
  } catch {
    return undefined;
  }
  return best ? location(text, best.offset) : undefined;
}

/**
 * A Python-faithful evaluator for the arithmetic that tau2's `calculate` tool
 * hands to `eval` after its character allow-list (`0123456789+-*\/(). `):
 * int and float literals, unary `+`/`-`, `+ - * / // **` and parentheses,
 * with Python's int/float typing (ints are exact, `/` always gives a float)
 * and Python's error messages.
 *
 * @module
 */

type PyValue = { kind: 'int'; value: bigint } | { kind: 'float'; value: number };

/** A Python exception raised while evaluating, with its type name. */
export class PythonError extends Error {
  constructor(
    readonly pythonType: string,
    message: string,
  ) {
    super(message);
    this.name = pythonType;
  }
}

type Token =
  | { type: 'num'; text: string; pos: number }
  | { type: 'op'; text: string; pos: number }
  | { type: 'end'; text: ''; pos: number };

function syntaxError(): PythonError {
  return new PythonError('SyntaxError', 'invalid syntax (<string>, line 1)');
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === ' ') {
      i++;
      continue;
    }
    if ((c >= '0' && c <= '9') || c === '.') {
      const match = /^(?:\d+\.?\d*|\.\d+)/.exec(source.slice(i));
      if (!match) throw syntaxError();
      tokens.push({ type: 'num', text: match[0], pos: i });
      i += match[0].length;
      continue;
    }
    if (c === '*' || c === '/') {
      const double = source[i + 1] === c;
      tokens.push({ type: 'op', text: double ? c + c : c, pos: i });
      i += double ? 2 : 1;
      continue;
    }
    if (c === '+' || c === '-' || c === '(' || c === ')') {
      tokens.push({ type: 'op', text: c, pos: i });
      i++;
      continue;
    }
    throw syntaxError();
  }
  tokens.push({ type: 'end', text: '', pos: source.length });
  return tokens;
}

function literal(text: string): PyValue {
  if (text.includes('.')) {
    // A number directly followed by another literal (`1.2.3`) never reaches here: the tokenizer
    // stops at the second dot and the parser then sees two adjacent numbers (a syntax error).
    return { kind: 'float', value: Number(text) };
  }
  if (text.length > 1 && text.startsWith('0') && /[1-9]/.test(text)) {
    throw new PythonError(
      'SyntaxError',
      'leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<string>, line 1)',
    );
  }
  return { kind: 'int', value: BigInt(text) };
}

const MAX_INT_BITS = 1_000_000;

function toFloat(v: PyValue): number {
  if (v.kind === 'float') return v.value;
  const n = Number(v.value);
  if (!Number.isFinite(n))
    throw new PythonError('OverflowError', 'int too large to convert to float');
  return n;
}

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function binary(op: string, a: PyValue, b: PyValue): PyValue {
  if (a.kind === 'int' && b.kind === 'int') {
    switch (op) {
      case '+':
        return { kind: 'int', value: a.value + b.value };
      case '-':
        return { kind: 'int', value: a.value - b.value };
      case '*':
        return { kind: 'int', value: a.value * b.value };
      case '/':
        if (b.value === 0n) throw new PythonError('ZeroDivisionError', 'division by zero');
        return { kind: 'float', value: toFloat(a) / toFloat(b) };
      case '//':
        if (b.value === 0n)
          throw new PythonError('ZeroDivisionError', 'integer division or modulo by zero');
        return { kind: 'int', value: floorDivBig(a.value, b.value) };
      case '**': {
        if (b.value < 0n) {
          if (a.value === 0n) {
            throw new PythonError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
          }
          return { kind: 'float', value: toFloat(a) ** toFloat(b) };
        }
        const bits =
          a.value === 0n || a.value === 1n || a.value === -1n ? 1 : a.value.toString(2).length;
        if (bits * Number(b.value) > MAX_INT_BITS) {
          throw new PythonError('OverflowError', 'int too large to convert to float');
        }
        return { kind: 'int', value: a.value ** b.value };
      }
    }
    throw syntaxError();
  }
  const x = toFloat(a);
  const y = toFloat(b);
  switch (op) {
    case '+':
      return { kind: 'float', value: x + y };
    case '-':
      return { kind: 'float', value: x - y };
    case '*':
      return { kind: 'float', value: x * y };
    case '/':
      if (y === 0) throw new PythonError('ZeroDivisionError', 'float division by zero');
      return { kind: 'float', value: x / y };
    case '//':
      if (y === 0) throw new PythonError('ZeroDivisionError', 'float floor division by zero');
      return { kind: 'float', value: Math.floor(x / y) };
    case '**': {
      if (x === 0 && y < 0) {
        throw new PythonError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
      }
      if (x < 0 && !Number.isInteger(y)) {
        // Python returns a complex number here, which `float()` then refuses.
        throw new PythonError(
          'TypeError',
          "float() argument must be a string or a real number, not 'complex'",
        );
      }
      const r = x ** y;
      if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) {
        throw new PythonError('OverflowError', "(34, 'Numerical result out of range')");
      }
      return { kind: 'float', value: r };
    }
  }
  throw syntaxError();
}

const ADDITIVE: ReadonlySet<string> = new Set(['+', '-']);
const MULTIPLICATIVE: ReadonlySet<string> = new Set(['*', '/', '//']);

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.i] as Token;
  }

  private next(): Token {
    return this.tokens[this.i++] as Token;
  }

  parse(): PyValue | 'tuple' {
    if (this.peek().type === 'end') throw syntaxError();
    const value = this.expr();
    if (this.peek().type !== 'end') throw syntaxError();
    return value;
  }

  // expr: term (('+' | '-') term)*
  private expr(): PyValue | 'tuple' {
    return this.leftAssociative(ADDITIVE, () => this.term());
  }

  // term: factor (('*' | '/' | '//') factor)*
  private term(): PyValue | 'tuple' {
    return this.leftAssociative(MULTIPLICATIVE, () => this.factor());
  }

  /** `operand (op operand)*` for the operators `ops`, applied left to right. */
  private leftAssociative(
    ops: ReadonlySet<string>,
    operand: () => PyValue | 'tuple',
  ): PyValue | 'tuple' {
    let left = operand();
    for (let t = this.peek(); t.type === 'op' && ops.has(t.text); t = this.peek()) {
      this.next();
      left = this.apply(t.text, left, operand());
    }
    return left;
  }

  // factor: ('+' | '-') factor | power
  private factor(): PyValue | 'tuple' {
    const t = this.peek();
    if (t.type === 'op' && (t.text === '+' || t.text === '-')) {
      this.next();
      const operand = this.factor();
      if (operand === 'tuple') {
        throw new PythonError('TypeError', `bad operand type for unary ${t.text}: 'tuple'`);
      }
      if (t.text === '+') return operand;
      return operand.kind === 'int'
        ? { kind: 'int', value: -operand.value }
        : { kind: 'float', value: -operand.value };
    }
    return this.power();
  }

  // power: atom ['**' factor]
  private power(): PyValue | 'tuple' {
    const base = this.atom();
    const t = this.peek();
    if (t.type === 'op' && t.text === '**') {
      this.next();
      return this.apply('**', base, this.factor());
    }
    return base;
  }

  private atom(): PyValue | 'tuple' {
    const t = this.next();
    if (t.type === 'num') return literal(t.text);
    if (t.type === 'op' && t.text === '(') {
      if (this.peek().type === 'op' && this.peek().text === ')') {
        this.next();
        return 'tuple';
      }
      const inner = this.expr();
      const close = this.next();
      if (close.type !== 'op' || close.text !== ')') throw syntaxError();
      return inner;
    }
    throw syntaxError();
  }

  private apply(op: string, a: PyValue | 'tuple', b: PyValue | 'tuple'): PyValue {
    if (a === 'tuple' || b === 'tuple') {
      const symbol = op === '**' ? '** or pow()' : op;
      const left = a === 'tuple' ? 'tuple' : a.kind;
      const right = b === 'tuple' ? 'tuple' : b.kind;
      throw new PythonError(
        'TypeError',
        `unsupported operand type(s) for ${symbol}: '${left}' and '${right}'`,
      );
    }
    return binary(op, a, b);
  }
}

/**
 * Evaluate `expression` as Python would with `float(eval(expression))`.
 * Throws {@link PythonError} with Python's exception message on failure.
 */
export function evaluatePythonArithmetic(expression: string): number {
  const result = new Parser(tokenize(expression)).parse();
  if (result === 'tuple') {
    throw new PythonError(
      'TypeError',
      "float() argument must be a string or a real number, not 'tuple'",
    );
  }
  return toFloat(result);
}

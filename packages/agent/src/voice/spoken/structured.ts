/**
 * JSON, Python-like literals and tool-call syntax described in words. A
 * call `update_reservation_flights(reservation_id="M05KNL", cabin="economy")`
 * becomes "update reservation flights: reservation id M05KNL; cabin economy":
 * the name and keys lose their underscores, the values stay written (the
 * token rules read them afterwards), brackets and quotes are dropped.
 */

/** A parsed literal: a scalar, a list, a keyed record or a call. */
export type Literal =
  | { kind: 'scalar'; text: string }
  | { kind: 'list'; items: Literal[] }
  | { kind: 'record'; entries: Array<[string | undefined, Literal]> }
  | { kind: 'call'; name: string; args: Array<[string | undefined, Literal]> };

const MAX_DEPTH = 12;
/** Values listed before "and N more". */
const MAX_ITEMS = 12;

class Parser {
  pos: number;
  constructor(
    readonly text: string,
    start: number,
  ) {
    this.pos = start;
  }

  /** Moves past white space. */
  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
  }

  /** The next character that is not white space ("" at the end). */
  private peek(): string {
    this.skipSpace();
    return this.text[this.pos] ?? '';
  }

  /** The value at the current position, or undefined if none parses. */
  value(depth: number): Literal | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const c = this.peek();
    if (c === '{') return this.record(depth);
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')', depth);
    if (c === '"' || c === "'") {
      const text = this.string();
      return text === undefined ? undefined : { kind: 'scalar', text };
    }
    const word = /^[-+]?[\w.@$%:/]+/u.exec(this.text.slice(this.pos, this.pos + 200));
    if (!word) return undefined;
    this.pos += word[0].length;
    if (/^[A-Za-z_][\w.]*$/.test(word[0]) && this.text[this.pos] === '(') {
      const args = this.entries(')', depth);
      return args && { kind: 'call', name: word[0], args };
    }
    return { kind: 'scalar', text: word[0] };
  }

  /** A quoted string at the current position, escapes resolved. */
  private string(): string | undefined {
    const quote = this.text[this.pos]!;
    let out = '';
    for (let i = this.pos + 1; i < this.text.length; i++) {
      const c = this.text[i]!;
      if (c === '\\' && i + 1 < this.text.length) {
        const next = this.text[++i]!;
        out += next === 'n' || next === 't' ? ' ' : next;
      } else if (c === quote) {
        this.pos = i + 1;
        return out;
      } else {
        out += c;
      }
    }
    return undefined;
  }

  /** A list (`[...]` or `(...)`) at the current position. */
  private list(close: string, depth: number): Literal | undefined {
    this.pos++;
    const items: Literal[] = [];
    while (this.peek() !== close) {
      const item = this.value(depth + 1);
      if (!item) return undefined;
      items.push(item);
      const next = this.peek();
      if (next === ',') this.pos++;
      else if (next !== close) return undefined;
    }
    this.pos++;
    return { kind: 'list', items };
  }

  /** A record `{...}` at the current position. */
  private record(depth: number): Literal | undefined {
    const entries = this.entries('}', depth);
    return entries && { kind: 'record', entries };
  }

  /** `key: value` / `key=value` / `value` entries up to `close`, the opener at `pos`. */
  private entries(close: string, depth: number): Array<[string | undefined, Literal]> | undefined {
    this.pos++;
    const entries: Array<[string | undefined, Literal]> = [];
    while (this.peek() !== close) {
      const save = this.pos;
      let key: string | undefined;
      const c = this.peek();
      const keyText =
        c === '"' || c === "'"
          ? this.string()
          : /^[A-Za-z_][\w-]*/.exec(this.text.slice(this.pos, this.pos + 100))?.[0];
      if (keyText !== undefined) {
        if (c !== '"' && c !== "'") this.pos += keyText.length;
        const sep = this.peek();
        if (sep === ':' || sep === '=') {
          key = keyText;
          this.pos++;
        } else {
          this.pos = save;
        }
      }
      const value = this.value(depth + 1);
      if (!value) return undefined;
      entries.push([key, value]);
      const next = this.peek();
      if (next === ',') this.pos++;
      else if (next !== close) return undefined;
    }
    this.pos++;
    return entries;
  }
}

/** The literal starting at `start` in `text` and where it ends, or undefined if none parses there. */
export function parseLiteral(
  text: string,
  start: number,
): { value: Literal; end: number } | undefined {
  const parser = new Parser(text, start);
  const value = parser.value(0);
  return value && { value, end: parser.pos };
}

/** An identifier in words: `reservation_id` and `reservationId` -> "reservation id". */
export function humanizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.\-\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** A scalar in words: booleans as yes/no, null as none. */
function describeScalar(text: string): string {
  if (text === 'true' || text === 'True') return 'yes';
  if (text === 'false' || text === 'False') return 'no';
  if (text === 'null' || text === 'None' || text === 'undefined') return 'none';
  return text.trim();
}

/** Entries as "key value" joined by `separator`, at most MAX_ITEMS of them. */
function describeEntries(entries: Array<[string | undefined, Literal]>, separator: string): string {
  const shown = entries.slice(0, MAX_ITEMS).map(([key, value]) => {
    const described = describeLiteral(value);
    return key === undefined ? described : `${humanizeName(key)} ${described}`.trim();
  });
  if (entries.length > MAX_ITEMS) shown.push(`and ${entries.length - MAX_ITEMS} more`);
  return shown.filter((s) => s !== '').join(separator);
}

/**
 * A record shaped like a tool call, `{"name": "f", "arguments": {...}}`
 * (or `args`, `parameters`, `input`), as that call; otherwise undefined.
 */
function asToolCall(entries: Array<[string | undefined, Literal]>): Literal | undefined {
  const name = entries.find(([key]) => key === 'name')?.[1];
  const args = entries.find(
    ([key]) => key === 'arguments' || key === 'args' || key === 'parameters' || key === 'input',
  )?.[1];
  if (entries.length !== 2 || name?.kind !== 'scalar' || args?.kind !== 'record') return undefined;
  if (!/^[A-Za-z_][\w.]*$/.test(name.text)) return undefined;
  return { kind: 'call', name: name.text, args: args.entries };
}

/** A literal in words: records as "key value, key value", lists joined by commas, calls as "name: args". */
export function describeLiteral(value: Literal): string {
  switch (value.kind) {
    case 'scalar':
      return describeScalar(value.text);
    case 'list': {
      const nested = value.items.some((item) => item.kind !== 'scalar');
      return describeEntries(
        value.items.map((item): [undefined, Literal] => [undefined, item]),
        nested ? '; ' : ', ',
      );
    }
    case 'record': {
      const call = asToolCall(value.entries);
      return call ? describeLiteral(call) : describeEntries(value.entries, ', ');
    }
    case 'call': {
      const args = describeEntries(value.args, '; ');
      const name = humanizeName(value.name);
      return args === '' ? name : `${name}: ${args}`;
    }
  }
}

/** Whether a parsed call at this place is code rather than prose like "item(s)". */
function looksLikeCall(value: Literal): boolean {
  if (value.kind !== 'call') return false;
  if (/[_.]/.test(value.name) || /[a-z][A-Z]/.test(value.name) || value.args.length === 0)
    return true;
  return value.args.some(([key, arg]) => key !== undefined || arg.kind !== 'scalar');
}

/**
 * `text` with every JSON value, Python-like literal and function call
 * replaced by its description ({@link describeLiteral}). Brackets that do
 * not parse are left for the caller to drop.
 */
export function describeStructured(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const prev = i > 0 ? text[i - 1]! : ' ';
    let parsed: { value: Literal; end: number } | undefined;
    if (c === '{' || c === '[') {
      parsed = parseLiteral(text, i);
    } else if (/[A-Za-z_]/.test(c) && !/[\w.]/.test(prev)) {
      const name = /^[A-Za-z_][\w.]*\(/.exec(text.slice(i, i + 120));
      if (name) {
        parsed = parseLiteral(text, i);
        if (parsed && !looksLikeCall(parsed.value)) parsed = undefined;
      }
    }
    if (parsed && parsed.end > i) {
      out += describeLiteral(parsed.value);
      i = parsed.end;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * Sentences out of streamed text: a reply is spoken sentence by sentence as
 * the policy streams it, so its first sentence is heard before the rest
 * exists. A sentence ends at `.`, `!`, `?` or `…` (closing quotes and
 * brackets included) followed by white space, or at a line break; a period
 * after a common abbreviation or between digits does not end one.
 */

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'approx',
  'inc',
  'ltd',
  'co',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

/** Where the first sentence of `text` ends (the index after it), or -1 when it may go on. */
function sentenceEnd(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') return i + 1;
    if (c !== '.' && c !== '!' && c !== '?' && c !== '…') continue;
    let end = i + 1;
    while (end < text.length && /[.!?…"'”’)\]]/.test(text[end]!)) end++;
    if (end >= text.length) return -1; // more may follow: "3." could be "3.5"
    if (!/\s/.test(text[end]!)) {
      i = end - 1;
      continue;
    }
    if (c === '.' && end === i + 1) {
      const word = /([\p{L}.]+)$/u.exec(text.slice(0, i))?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(word) || word.includes('.')) continue;
    }
    return end;
  }
  return -1;
}

/** Collects streamed text and hands out each sentence once it is complete. */
export class SentenceSplitter {
  #buffer = '';

  /** Add streamed text; returns the sentences it completed (trimmed, never empty). */
  push(delta: string): string[] {
    this.#buffer += delta;
    const out: string[] = [];
    for (;;) {
      const end = sentenceEnd(this.#buffer);
      if (end < 0) break;
      const sentence = this.#buffer.slice(0, end).trim();
      this.#buffer = this.#buffer.slice(end);
      if (sentence) out.push(sentence);
    }
    return out;
  }

  /** True when text that is not yet a complete sentence is waiting. */
  get pending(): boolean {
    return this.#buffer.trim().length > 0;
  }

  /** The text left over (the end of a reply): one last sentence, or none when blank. */
  flush(): string[] {
    const rest = this.#buffer.trim();
    this.#buffer = '';
    return rest ? [rest] : [];
  }

  /** Drop what was collected. */
  reset(): void {
    this.#buffer = '';
  }
}

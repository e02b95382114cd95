/**
 * Markdown, HTML and code turned into plain sentences: code blocks are
 * dropped, inline code keeps its text, links keep their words, headings and
 * list items become sentences, tables are read cell by cell, and JSON and
 * tool calls are described in words ({@link describeStructured}). The result
 * is one line.
 */
import { describeStructured } from './structured.js';

const LIST_ITEM = /^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const ENDS_SENTENCE = /[.!?:;,]$/;
/** Marks a plain line among the sentences of {@link blockSentences}. */
const PLAIN = '\u0000';

/** `items` as one sentence: "a and b", "a, b, and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]!} and ${items[1]!}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]!}`;
}

/** `text` trimmed, with a period unless it already ends with punctuation. */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return ENDS_SENTENCE.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** Items short enough to be said in one breath as a series. */
function isShortItem(item: string): boolean {
  return item.split(/\s+/).length <= 5 && !/[.!?:;,]/.test(item);
}

/** List items as sentences: short items as one series, longer ones one sentence each. */
function listSentences(items: string[]): string[] {
  const clean = items.map((item) => item.trim()).filter((item) => item !== '');
  if (clean.length >= 2 && clean.every(isShortItem)) return [sentence(joinList(clean))];
  return clean.map(sentence);
}

/** A table row as one sentence of its cells. */
function tableRow(line: string): string {
  const cells = line
    .split('|')
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '');
  return cells.length === 0 ? '' : sentence(cells.join(', '));
}

/** Inline markup removed: emphasis, inline code, links, images and HTML tags. */
export function stripInline(text: string): string {
  return text
    .replace(/!\[([^\]\n]{0,300})\]\([^)\n]{0,500}\)/g, '$1')
    .replace(/\[([^\]\n]{1,300})\]\((?:[^()\n]|\([^)\n]*\)){0,500}\)/g, '$1')
    .replace(/\[([^\]\n]{1,300})\]\[[^\]\n]{0,100}\]/g, '$1')
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1')
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]{0,500})?\/?>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, ' less than ')
    .replace(/&gt;/g, ' greater than ')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/\*\*(?=\S)([^*\n]{0,500}?\S)\*\*/g, '$1')
    .replace(/(?<![\w*])\*(?=\S)([^*\n]{0,500}?\S)\*(?![\w*])/g, '$1')
    .replace(/(?<![A-Za-z0-9_])__(?=\S)([^\n]{0,500}?\S)__(?![A-Za-z0-9_])/g, '$1')
    .replace(/(?<![A-Za-z0-9_])_(?=[^\s_])([^_\n]{0,500}?[^\s_])_(?![A-Za-z0-9_])/g, '$1')
    .replace(/~~([^\n]{0,500}?)~~/g, '$1');
}

/** The lines of `text` as sentences (headings, lists, tables, quotes handled). */
function blockSentences(text: string): string[] {
  const out: string[] = [];
  let list: string[] = [];
  const flush = (): void => {
    if (list.length > 0) out.push(...listSentences(list));
    list = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/^\s*(?:>\s?)+/, '');
    const item = LIST_ITEM.exec(line);
    if (item && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      list.push(item[1]!);
      continue;
    }
    flush();
    if (/^\s*([-*_=])(\s*\1){2,}\s*$/.test(line) || TABLE_SEPARATOR.test(line)) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)[\s#]*$/.exec(line);
    if (heading) {
      out.push(sentence(heading[1]!));
    } else if ((line.match(/\|/g) ?? []).length >= 2) {
      out.push(tableRow(line));
    } else {
      out.push(line.trim() === '' ? '' : PLAIN + line.trim());
    }
  }
  flush();
  const kept = out.filter((s) => s !== '');
  // A plain line ends as a sentence unless it is the last one.
  return kept.map((s, i) =>
    s.startsWith(PLAIN) ? (i === kept.length - 1 ? s.slice(1) : sentence(s.slice(1))) : s,
  );
}

/**
 * Plain sentences from markdown: code blocks dropped, structured values and
 * calls described, every line ending as a sentence, all on one line.
 */
export function stripMarkup(text: string): string {
  const withoutCode = text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/(^|\n)[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[^\n]*(?=\n|$)|$)/g, '$1')
    .replace(/```[\s\S]*?(?:```|$)/g, ' ');
  const inline = stripInline(withoutCode);
  const described = describeStructured(inline);
  return blockSentences(described).join(' ');
}

/**
 * Clock times from heard words: "two thirty p m" -> "14:30", "nine oh five
 * am" -> "09:05", "nine o'clock" -> "09:00", "noon" -> "12:00".
 */
import { normalizeWords } from '../metrics/wer.js';
import type { Read } from './heard.js';
import { readNumberChunk } from './numbers.js';

/** The meridiem at `words[i]` ("am", "a m", "pm", "p m"), and the index after it. */
function readMeridiem(words: readonly string[], i: number): Read<'am' | 'pm'> | undefined {
  const word = words[i];
  if (word === 'am' || word === 'pm') return { value: word, end: i + 1 };
  if ((word === 'a' || word === 'p') && words[i + 1] === 'm') {
    return { value: word === 'a' ? 'am' : 'pm', end: i + 2 };
  }
  return undefined;
}

/** `HH:MM` of an hour and minute. */
function clock(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * A clock time from `words[start..]` as `HH:MM` (24-hour). With
 * `needsMarker`, only a time said with AM/PM or "o'clock" (or "noon",
 * "midnight") is read, so a bare "nine" stays a number.
 */
export function readTime(
  words: readonly string[],
  start: number,
  needsMarker = false,
): Read<string> | undefined {
  const first = words[start];
  if (first === 'noon' || first === 'midday') return { value: '12:00', end: start + 1 };
  if (first === 'midnight') return { value: '00:00', end: start + 1 };
  const hour = readNumberChunk(words, start);
  if (!hour || hour.ordinal || hour.value > 23 || !/^[a-z]/.test(first ?? '')) return undefined;
  let i = hour.end;
  let minute = 0;
  let marked = false;
  if (words[i] === "o'clock") {
    marked = true;
    i++;
  } else if (words[i] === 'oh' && /^[1-9]$/.test(String(readNumberChunk(words, i + 1)?.value))) {
    minute = readNumberChunk(words, i + 1)!.value;
    i += 2;
  } else {
    const chunk = readNumberChunk(words, i);
    if (chunk && !chunk.ordinal && chunk.value >= 10 && chunk.value <= 59) {
      minute = chunk.value;
      i = chunk.end;
    }
  }
  const meridiem = readMeridiem(words, i);
  if (meridiem) {
    if (hour.value < 1 || hour.value > 12) return undefined;
    const h = (hour.value % 12) + (meridiem.value === 'pm' ? 12 : 0);
    return { value: clock(h, minute), end: meridiem.end };
  }
  if (needsMarker && !marked) return undefined;
  return { value: clock(hour.value, minute), end: i };
}

/** A whole text as a clock time (`HH:MM`, {@link readTime}), or undefined. */
export function parseSpokenTime(text: string): string | undefined {
  const words = normalizeWords(text);
  const read = readTime(words, 0);
  return read && read.end === words.length ? read.value : undefined;
}

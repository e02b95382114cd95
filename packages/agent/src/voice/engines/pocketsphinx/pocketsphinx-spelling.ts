/**
 * Hearing a spelled answer. After the bot asks the caller to spell something, the next utterance
 * is decoded twice: by the session's recognizer with its general language model, as always, and,
 * when that heard the spelling alphabet ("oscar papa hotel ..."), once more by a recognizer
 * limited to a grammar of the spelling alphabet's words, digits and separators, as an IVR
 * switches to a grammar when it asks for a spelling. The general model hears "sierra oscar papa"
 * as "c or oscar pop a"; the grammar cannot. When the general model's words already fit the
 * grammar they stand: the grammar, forced to choose among alphabet words, hears "alpha" as
 * "delta" more often than the general model does. Letters said as letters ("s, o, p") are left to
 * the general model: in the grammar they are inserted into every pause.
 *
 * The grammar's run is one short process per spelled utterance (`pocketsphinx_continuous` on the
 * utterance's audio, seeded dither, so the same audio gives the same words). Its words replace
 * the utterance's text; if it hears nothing or fails, the general model's text stands.
 */
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATO_ALPHABET } from '../../spoken/heard.js';
import { DIGIT_WORDS } from '../../spoken/numbers.js';
import { RecognizerProcess } from './pocketsphinx-process.js';

/**
 * Words of the grammar's vocabulary (alphabet words, digits, separators) the general model must
 * hear, one of them an alphabet word, before the grammar is tried.
 */
export const MIN_SPELLING_WORDS = 3;

/** Most audio of a spelled utterance kept for the grammar (ms). */
export const MAX_SPELLED_MS = 30_000;

/** Audio kept from before an utterance's start (the VAD starts an utterance late), in ms. */
export const SPELLED_LEAD_MS = 1000;

const SEPARATORS = ['underscore', 'dash', 'hyphen'];
/** Words a caller says around a spelling ("sure, it's spelled ..."), outside the alphabet. */
const LEAD_WORDS = [
  'sure', 'yes', 'yeah', 'okay', 'so', "it's", 'it', 'is', "that's", 'that', 'my', 'the', 'user',
  'id', 'name', 'number', 'code', 'reservation', 'spelled', 'its', 'i', 'um', 'uh', 'and',
]; // prettier-ignore

const ITEM_SET: ReadonlySet<string> = new Set([
  ...Object.keys(NATO_ALPHABET),
  ...DIGIT_WORDS,
  ...SEPARATORS,
]);
const LEAD_SET: ReadonlySet<string> = new Set(LEAD_WORDS);

/** The words of what a recognizer heard, lower-cased. */
function heardWords(text: string): string[] {
  return text.toLowerCase().split(/\s+/).filter(Boolean);
}

const isAlphabetWord = (word: string): boolean => NATO_ALPHABET[word] !== undefined;

/** How many words of `text` belong to the spelling alphabet. */
export function alphabetWords(text: string): number {
  return heardWords(text).filter(isAlphabetWord).length;
}

/**
 * Whether a spelled answer the general model heard as `text` is decoded again with the grammar:
 * it heard at least {@link MIN_SPELLING_WORDS} words of the grammar's vocabulary, one of them an
 * alphabet word ("alpha underscore three six six eight": a spelling it partly misheard; "raj
 * underscore sanchez underscore seven three four zero" is not one), and its words do not
 * already fit the grammar.
 */
export function worthSpellingDecode(text: string): boolean {
  const words = heardWords(text);
  return (
    words.some(isAlphabetWord) &&
    words.filter((word) => ITEM_SET.has(word)).length >= MIN_SPELLING_WORDS &&
    !fitsGrammar(words)
  );
}

/**
 * Whether the grammar could have heard `text` as it is: lead words, then only alphabet words,
 * digits and separators. The general model's words then stand (it heard a clean spelling, and
 * its choice among the alphabet words was not forced), and the grammar is not tried.
 */
export function fitsSpellingGrammar(text: string): boolean {
  return fitsGrammar(heardWords(text));
}

function fitsGrammar(words: readonly string[]): boolean {
  let at = 0;
  while (at < words.length && LEAD_SET.has(words[at]!)) at++;
  return at < words.length && words.slice(at).every((word) => ITEM_SET.has(word));
}

/**
 * One word per letter: the first of its spellings the dictionary knows ("alpha", not also "alfa",
 * said the same), so that the grammar prints the word as a caller writes it.
 */
function alphabetSpellings(dictionary: ReadonlySet<string>): string[] {
  const byLetter = new Map<string, string>();
  for (const [word, letter] of Object.entries(NATO_ALPHABET))
    if (dictionary.has(word) && !byLetter.has(letter)) byLetter.set(letter, word);
  return [...byLetter.values()];
}

/**
 * The JSGF grammar of a spelled answer: lead words, then one or more alphabet words, digits and
 * separators. Only words in `dictionary` (the recognizer's pronunciations) are used.
 */
export function spellingGrammar(dictionary: ReadonlySet<string>): string {
  const known = (words: readonly string[]): string[] => words.filter((w) => dictionary.has(w));
  const items = known([...alphabetSpellings(dictionary), ...DIGIT_WORDS, ...SEPARATORS]);
  const lead = known(LEAD_WORDS);
  return [
    '#JSGF V1.0;',
    'grammar spelling;',
    'public <spelling> = <lead>* <item>+;',
    `<item> = ${items.join(' | ')};`,
    `<lead> = ${lead.join(' | ')};`,
    '',
  ].join('\n');
}

/** Where the recognizer's grammar is written, once per dictionary. */
const grammars = new Map<string, Promise<string>>();

/** The grammar file for the pronunciation dictionary at `dictPath`. */
export function spellingGrammarFile(dictPath: string): Promise<string> {
  let file = grammars.get(dictPath);
  if (!file) {
    file = (async () => {
      const text = await readFile(dictPath, 'utf8');
      const words = new Set(text.split('\n').map((line) => line.slice(0, line.indexOf(' '))));
      const grammar = spellingGrammar(words);
      // Named by its content: every process that needs the same grammar shares one file.
      const digest = createHash('sha256').update(grammar).digest('hex').slice(0, 16);
      const path = join(tmpdir(), `scenaro-spelling-${digest}.gram`);
      const partial = `${path}.${process.pid}.tmp`;
      await writeFile(partial, grammar);
      await rename(partial, path);
      return path;
    })();
    grammars.set(dictPath, file);
    file.catch(() => grammars.delete(dictPath));
  }
  return file;
}

/** What decoding a spelled utterance needs. */
export interface SpellingDecoder {
  binary: string;
  /** Acoustic model and dictionary options (`-hmm`, `-dict`) and the sample rate. */
  args: readonly string[];
  dict: string;
  nice: number;
}

/**
 * The words the spelling grammar hears in `pcm` (16 kHz mono PCM16); '' when it hears none.
 * Rejects when the recognizer cannot run.
 */
export async function decodeSpelling(decoder: SpellingDecoder, pcm: Uint8Array): Promise<string> {
  const grammar = await spellingGrammarFile(decoder.dict);
  const recognizer = new RecognizerProcess(
    decoder.binary,
    [
      '-infile', '/dev/stdin',
      ...decoder.args,
      '-jsgf', grammar,
      // Fewer inserted words in the pauses between letters.
      '-wip', '1e-2',
      // No noise removal (its estimate, made on the silence before a short clip, eats the
      // onsets of the words) and fewer phones inserted: together they read back 58 of 62
      // spelled answers of a run right, against 22 (BENCHMARKS.md, "Spelled answers").
      '-remove_noise', 'no',
      '-pip', '0.5',
      '-dither', 'yes', '-seed', '1',
    ], // prettier-ignore
    { nice: decoder.nice },
  );
  const lines: string[] = [];
  let failure: Error | undefined;
  recognizer.listen({
    stdout: (line) => lines.push(line.trim()),
    stderr: () => {},
    error: (error) => (failure ??= error),
  });
  await recognizer.write(pcm);
  recognizer.end();
  const exit = await recognizer.exited;
  if (failure) throw failure;
  if (exit.code !== 0)
    throw new Error(`the spelling recognizer exited (${exit.signal ?? `code ${exit.code}`})`);
  return lines.filter(Boolean).join(' ');
}

/** Recent audio of a stream, and the audio of one utterance from its start. */
export class SpelledAudio {
  readonly #rate: number;
  /** Recent chunks, for an utterance that starts in the past. */
  #recent: { at: number; pcm: Uint8Array }[] = [];
  #capture: { from: number; chunks: Uint8Array[]; bytes: number } | undefined;

  constructor(sampleRate: number) {
    this.#rate = sampleRate;
  }

  /** `pcm` was written at stream sample `at`. */
  push(pcm: Uint8Array, at: number): void {
    const copy = pcm.slice();
    this.#recent.push({ at, pcm: copy });
    const keepFrom = at - Math.round((SPELLED_LEAD_MS * this.#rate) / 1000);
    while (this.#recent.length > 1 && this.#recent[1]!.at <= keepFrom) this.#recent.shift();
    const capture = this.#capture;
    if (capture && capture.bytes < (MAX_SPELLED_MS * this.#rate * 2) / 1000) {
      capture.chunks.push(copy);
      capture.bytes += copy.length;
    }
  }

  /** Keep the audio from stream sample `from` on (what is still recent, then what comes). */
  start(from: number): void {
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (const { at, pcm } of this.#recent) {
      const end = at + (pcm.length >> 1);
      if (end <= from) continue;
      const piece = at >= from ? pcm : pcm.subarray((from - at) * 2);
      chunks.push(piece);
      bytes += piece.length;
    }
    this.#capture = { from, chunks, bytes };
  }

  /** The audio kept from the start up to stream sample `to` (and stop keeping it). */
  take(to: number): Uint8Array {
    const capture = this.#capture;
    this.#capture = undefined;
    if (!capture) return new Uint8Array(0);
    const all = new Uint8Array(capture.bytes);
    let at = 0;
    for (const chunk of capture.chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    return all.subarray(0, Math.max(0, Math.min(all.length, (to - capture.from) * 2)));
  }
}

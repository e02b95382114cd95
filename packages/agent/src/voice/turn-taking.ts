/**
 * When speech from the user interrupts the bot while it speaks: the interruption strategy, and
 * the phrases a caller says that are not turns (backchannels such as "mm-hmm", vocal tics, and
 * phrases said to someone else in the room, tau2-bench's "non-directed" speech).
 *
 * - `any` (the default): any speech interrupts the bot as soon as the VAD hears it (barge-in).
 * - `min-words:N`: speech that starts while the bot speaks interrupts it only once its transcript
 *   is in, and only when it is not a backchannel, a tic or a non-directed phrase and has at least
 *   N words; otherwise it is let go: no interruption, and no turn. And a conversation that can
 *   tell speech not meant for it (the scripted listening agent: a non-directed phrase) takes no
 *   turn on it, whenever it is said.
 */

/** How user speech during the bot's speech is treated. */
export type InterruptionStrategy = { kind: 'any' } | { kind: 'min-words'; words: number };

/** The default: any speech interrupts the bot. */
export const ANY_INTERRUPTION: InterruptionStrategy = Object.freeze({ kind: 'any' });

/** Largest word count `min-words` takes. */
export const MAX_INTERRUPTION_WORDS = 20;

/** `any` or `min-words:N` (N from 1 to {@link MAX_INTERRUPTION_WORDS}); throws otherwise. */
export function parseInterruptionStrategy(text: string): InterruptionStrategy {
  const value = text.trim();
  if (value === 'any') return ANY_INTERRUPTION;
  const match = /^min-words:(\d+)$/.exec(value);
  const words = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(words) || words < 1 || words > MAX_INTERRUPTION_WORDS)
    throw new Error(
      `an interruption strategy is any or min-words:N with N from 1 to ${MAX_INTERRUPTION_WORDS}, got '${text}'`,
    );
  return { kind: 'min-words', words };
}

/** The strategy as `parseInterruptionStrategy` reads it. */
export function formatInterruptionStrategy(strategy: InterruptionStrategy): string {
  return strategy.kind === 'any' ? 'any' : `min-words:${strategy.words}`;
}

/** Acknowledgements a listener says while the other one talks. */
export const BACKCHANNEL_PHRASES: readonly string[] = [
  'mm-hmm',
  'mhm',
  'uh-huh',
  'hmm',
  'okay',
  'ok',
  'right',
  'yeah',
  'yes',
  'yep',
  'sure',
  'i see',
  'got it',
  'alright',
  'all right',
  'uh huh',
  'mm',
];

/** Phrases a caller says to someone else in the room (tau2-bench's list). */
export const NON_DIRECTED_PHRASES: readonly string[] = [
  'not now',
  'hold on a second',
  "i'm on the phone",
  'just a minute',
  "i don't know",
  'give me a moment',
  'one second',
  "i'll be right with you",
  'can you wait',
  'shh quiet',
];

/** Words a recognizer writes for coughs, sniffles and fillers. */
export const VOCAL_TIC_WORDS: readonly string[] = [
  'cough',
  'ahem',
  'achoo',
  'uh',
  'um',
  'er',
  'ah',
  'oh',
  'hm',
  'huh',
];

/** Lower case words, without punctuation (hyphens and apostrophes kept inside words). */
export function spokenWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'\- ]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter((w) => w !== '');
}

const phraseKey = (text: string) => spokenWords(text.replace(/-/g, ' ')).join(' ');
const BACKCHANNELS = new Set(BACKCHANNEL_PHRASES.map(phraseKey));
const TICS = new Set(VOCAL_TIC_WORDS);
const NON_DIRECTED = NON_DIRECTED_PHRASES.map((p) => spokenWords(p.replace(/-/g, ' ')));

/** True when every word of `text` is a tic word, or `text` is made of backchannel phrases. */
export function isBackchannelOrTic(text: string): boolean {
  const words = spokenWords(text.replace(/-/g, ' '));
  if (words.length === 0) return true;
  if (words.every((w) => TICS.has(w))) return true;
  // "okay okay", "mm hmm right": backchannel phrases one after another, tics between them.
  let at = 0;
  while (at < words.length) {
    if (TICS.has(words[at]!)) {
      at++;
      continue;
    }
    const next = [3, 2, 1].find(
      (n) => at + n <= words.length && BACKCHANNELS.has(words.slice(at, at + n).join(' ')),
    );
    if (next === undefined) return false;
    at += next;
  }
  return true;
}

/** Word-level edit distance. */
function wordDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * True when `text` is, as a recognizer may have heard it, one of the non-directed phrases: at
 * most a third of its words (rounded down) away from one of them.
 */
export function isNonDirectedPhrase(text: string): boolean {
  const words = spokenWords(text.replace(/-/g, ' '));
  if (words.length === 0) return false;
  return NON_DIRECTED.some(
    (phrase) =>
      wordDistance(words, phrase) <= Math.floor(Math.max(words.length, phrase.length) / 3),
  );
}

/**
 * Whether an utterance that started while the bot spoke interrupts it under `strategy` (its
 * final transcript `text`).
 */
export function interruptsBot(text: string, strategy: InterruptionStrategy): boolean {
  if (strategy.kind === 'any') return true;
  if (isBackchannelOrTic(text) || isNonDirectedPhrase(text)) return false;
  return spokenWords(text).length >= strategy.words;
}

/**
 * One session's interruptions under a strategy: `any` barges in at the start of speech; under
 * `min-words`, speech that starts while the bot speaks waits for its transcript.
 */
export class InterruptionGate {
  readonly #strategy: InterruptionStrategy;
  /** Start samples of the utterances that began while the bot spoke. */
  readonly #duringSpeech = new Set<number>();

  constructor(strategy: InterruptionStrategy = ANY_INTERRUPTION) {
    this.#strategy = strategy;
  }

  /** Speech started at `sample` while the bot is (or is not) `speaking`: barge in now? */
  started(sample: number, speaking: boolean): boolean {
    if (speaking) this.#duringSpeech.add(sample);
    return this.#strategy.kind === 'any' || !speaking;
  }

  /**
   * The transcript of the utterance that started at `start`: a `turn` (the bot was not speaking
   * when it began, or it barged in already), an `interruption` (it interrupts the bot now, then
   * is a turn), or `let-go` (no interruption, no turn).
   */
  heard(text: string, start: number): 'turn' | 'interruption' | 'let-go' {
    if (!this.#began(start) || this.#strategy.kind === 'any') return 'turn';
    return interruptsBot(text, this.#strategy) ? 'interruption' : 'let-go';
  }

  /**
   * The utterance that started at `start` was heard as nothing: true when it began while the bot
   * was silent (an answer the bot may ask to hear again), false when it began over the bot.
   */
  answered(start: number): boolean {
    return !this.#began(start);
  }

  /** Did the utterance that started at `start` begin while the bot spoke? Forgets it and any before. */
  #began(start: number): boolean {
    for (const earlier of this.#duringSpeech)
      if (earlier < start) this.#duringSpeech.delete(earlier);
    return this.#duringSpeech.delete(start);
  }
}

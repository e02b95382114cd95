/**
 * A reply said sentence by sentence: each sentence of a bot's written reply
 * becomes what the text-to-speech engine says ({@link toSpokenForm}), with the
 * state a single sentence cannot carry: a code block opened in one sentence
 * and closed in a later one is never read, whatever falls between.
 */
import { toSpokenForm } from './spoken-form.js';
import type { SpokenFormOptions } from './spoken-form.js';

const FENCE = /```|~~~/g;

/** One reply's sentences, turned into their spoken form in order. */
export class SpokenReply {
  readonly #options: SpokenFormOptions;
  #inCode = false;

  constructor(options: SpokenFormOptions = {}) {
    this.#options = options;
  }

  /** What to say for the reply's next `sentence` (empty when nothing of it is said). */
  say(sentence: string): string {
    return toSpokenForm(this.#outsideCode(sentence), this.#options);
  }

  /** A new reply starts (an interruption or the end of the last one). */
  reset(): void {
    this.#inCode = false;
  }

  /** The parts of `sentence` outside code fences, the fence state carried to the next. */
  #outsideCode(sentence: string): string {
    let kept = '';
    let at = 0;
    for (const match of sentence.matchAll(FENCE)) {
      if (!this.#inCode) kept += sentence.slice(at, match.index);
      this.#inCode = !this.#inCode;
      at = match.index + match[0].length;
    }
    if (!this.#inCode) kept += sentence.slice(at);
    return kept;
  }
}

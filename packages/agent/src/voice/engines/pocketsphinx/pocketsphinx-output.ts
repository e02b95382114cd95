/**
 * Reading what `pocketsphinx_continuous -time yes` prints: for every
 * utterance its own VAD closes, the hypothesis on one line, then one line per
 * segment `word start end confidence` (times in seconds of the whole stream),
 * from `<s>` to `</s>`. Fillers (`<s>`, `<sil>`, `[NOISE]`, `++…++`) are
 * dropped and alternate pronunciations (`to(2)`) lose their marker.
 */

/** A recognised word with its place in the stream. */
export interface RecognizedWord {
  word: string;
  /** Seconds from the start of the stream. */
  start: number;
  end: number;
  confidence: number;
}

/** One utterance as pocketsphinx closed it. */
export interface RecognizedSegment {
  /** The hypothesis line. */
  text: string;
  /** The real words (fillers dropped). */
  words: RecognizedWord[];
  /** Seconds of stream pocketsphinx had processed when it closed the utterance (end of its last segment). */
  end: number;
}

const WORD_LINE = /^(\S+) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;

function isFiller(word: string): boolean {
  return /^<.*>$/.test(word) || /^\[.*\]$/.test(word) || /^\+\+.*\+\+$/.test(word);
}

/** Turns output lines into {@link RecognizedSegment}s. */
export class PocketsphinxOutputParser {
  private segment: RecognizedSegment | undefined;

  /** The segments `line` completes (usually none or one). */
  push(line: string): RecognizedSegment[] {
    const done: RecognizedSegment[] = [];
    const match = WORD_LINE.exec(line.trim());
    if (!match) {
      if (this.segment) done.push(this.segment);
      this.segment = { text: line.trim(), words: [], end: 0 };
      return done;
    }
    const segment = (this.segment ??= { text: '', words: [], end: 0 });
    const [, raw, start, end, confidence] = match;
    const endSeconds = Number(end);
    segment.end = Math.max(segment.end, endSeconds);
    if (!isFiller(raw!)) {
      segment.words.push({
        word: raw!.replace(/\(\d+\)$/, ''),
        start: Number(start),
        end: endSeconds,
        confidence: Number(confidence),
      });
    }
    if (raw === '</s>') {
      done.push(segment);
      this.segment = undefined;
    }
    return done;
  }

  /** The segment in progress at the end of the output, if any. */
  finish(): RecognizedSegment[] {
    const rest = this.segment;
    this.segment = undefined;
    return rest ? [rest] : [];
  }
}

/**
 * One user's stream recognized by `pocketsphinx_continuous` (see
 * `pocketsphinx-stt.ts` for the engine). The session feeds its recognizer the
 * whole stream and assigns the words it prints to the caller's utterances
 * (placed by {@link placeSegment}); an ended utterance is final once the
 * recognizer has printed a segment reaching past its end, or once the
 * recognizer has been quiet for `finalTimeoutMs` ({@link QuietWatch}).
 *
 * Audio is written as the recognizer takes it: `write` returns a promise that
 * resolves once the recognizer's input buffer is under its high-water mark,
 * so a caller that waits for it keeps the audio held for a slow recognizer
 * bounded.
 *
 * A recognizer that dies (or never loads: its start timeout) is replaced: the
 * finals it owed are given with the words it printed, the failure is reported
 * once (thrown by the next `write`, or the next final rejects with it, which
 * comes first), and a new recognizer hears the stream from there on. At most
 * `maxRestarts` replacements within `restartWindowMs`: after that the session
 * reports that it gave up, once, and hears nothing more (writes are dropped,
 * finals are empty).
 */
import { SpeechEngineError } from '../../engine-errors.js';
import { msToSamples } from '../../audio/pcm.js';
import { PocketsphinxOutputParser } from './pocketsphinx-output.js';
import type { RecognizedSegment, RecognizedWord } from './pocketsphinx-output.js';
import { placeSegment, utteranceAt } from './pocketsphinx-placement.js';
import type { RecognizerProcess } from './pocketsphinx-process.js';
import { QuietWatch } from './pocketsphinx-quiet.js';
import { UtteranceSession } from '../../utterance-session.js';
import type { TrackedUtterance } from '../../utterance-session.js';
import type { ExpectedSpeech } from '../../stt.js';
import { SpelledAudio, worthSpellingDecode } from './pocketsphinx-spelling.js';

/** Audio around a spelled utterance given to the spelling grammar (ms). */
const SPELL_MARGIN_MS = 300;

/** Options of a {@link PocketsphinxSession}. */
export interface PocketsphinxSessionOptions {
  /** How far outside an utterance's bounds a word may lie and still belong to it (ms). */
  boundaryMarginMs: number;
  /** How long an ended utterance waits for a quiet recognizer (ms). */
  finalTimeoutMs: number;
  /** Replacements of a dead recognizer allowed within `restartWindowMs`. */
  maxRestarts: number;
  /** The window the replacements are counted in (ms). */
  restartWindowMs: number;
  /**
   * Decode a spelled utterance's audio with a spelling grammar (see
   * `pocketsphinx-spelling.ts`); without it, {@link PocketsphinxSession.expect} does nothing.
   */
  spelling?: (pcm: Uint8Array) => Promise<string>;
}

interface PendingFinal {
  utterance: TrackedUtterance;
  resolve: (text: string) => void;
  reject: (error: Error) => void;
  /** When it was asked for (`performance.now()`). */
  since: number;
}

/** One recognizer process and what the session knows of its input and output. */
interface Feed {
  recognizer: RecognizerProcess;
  parser: PocketsphinxOutputParser;
  /** Session sample of its first input sample (set by the first write). */
  base: number | undefined;
  /** Samples written to it. */
  fed: number;
  /** Why writing to it failed, if it did. */
  error: Error | undefined;
}

const DRAINED: Promise<void> = Promise.resolve();

/** Why `feed`'s recognizer is gone, with the last errors it logged. */
function describeDeath(feed: Feed, code: number | null, signal: NodeJS.Signals | null): string {
  const { recognizer } = feed;
  if (recognizer.startFailure) return recognizer.startFailure;
  if (code === null && signal === null && feed.error)
    return `it could not run: ${feed.error.message}`;
  const errors = recognizer.errorLines();
  return `it exited (${signal ?? `code ${code}`}) ${errors.join(' | ')}`.trim();
}

/** A session's stream recognized by one PocketSphinx process at a time. */
export class PocketsphinxSession extends UtteranceSession {
  /** Utterances that may still receive words, with the words they got. */
  private readonly utterances = new Map<
    number,
    { utterance: TrackedUtterance; words: RecognizedWord[] }
  >();
  private readonly pending = new Map<number, PendingFinal>();
  private readonly watch: QuietWatch;
  private feed: Feed;
  /** Stream position (samples) the current recognizer has printed results up to. */
  private processed = 0;
  /** A failure not reported yet. */
  private owed: Error | undefined;
  private gaveUp = false;
  /** When recognizers were replaced (`performance.now()`), within the window. */
  private readonly restarts: number[] = [];
  private exited: Promise<void> = DRAINED;
  /** A spelling was asked for: the next utterance is one. */
  private spellNext = false;
  /** The utterance heard as a spelling, until its final is given. */
  private spelled: number | undefined;
  /** Their audio, kept while a spelling is expected or heard. */
  private readonly spelledAudio: SpelledAudio;

  constructor(
    private readonly start: () => RecognizerProcess,
    private readonly options: PocketsphinxSessionOptions,
    sampleRate: number,
  ) {
    super(sampleRate);
    this.watch = new QuietWatch(
      { activity: () => this.feed.recognizer.activity() },
      options.finalTimeoutMs,
      (quietSince) => this.expire(quietSince),
    );
    this.feed = this.attach(start());
    this.spelledAudio = new SpelledAudio(sampleRate);
  }

  expect(speech: ExpectedSpeech): void {
    if (speech === 'spelling' && this.options.spelling && !this.closed) this.spellNext = true;
  }

  /** The process id of the recognizer hearing the stream now. */
  get recognizerPid(): number | undefined {
    return this.feed.recognizer.pid;
  }

  protected onAudio(pcm: Uint8Array, atSample: number): Promise<void> {
    const owed = this.owed;
    if (owed) {
      this.owed = undefined;
      throw owed;
    }
    if (this.gaveUp) return DRAINED;
    if (this.spellNext || this.spelled !== undefined) this.spelledAudio.push(pcm, atSample);
    this.feed.base ??= atSample;
    this.feed.fed += pcm.length >> 1;
    return this.feed.recognizer.write(pcm);
  }

  protected override onStart(utterance: TrackedUtterance): void {
    this.utterances.set(utterance.utterance, { utterance, words: [] });
    if (!this.spellNext) return;
    this.spellNext = false;
    this.spelled = utterance.utterance;
    this.spelledAudio.start(utterance.startSample - msToSamples(SPELL_MARGIN_MS, this.sampleRate));
  }

  protected transcribe(utterance: TrackedUtterance): Promise<string> {
    const heard = this.transcribeHeard(utterance);
    const spelling = this.options.spelling;
    if (!spelling || this.spelled !== utterance.utterance) return heard;
    const end =
      (utterance.endSample ?? utterance.startSample) +
      msToSamples(SPELL_MARGIN_MS, this.sampleRate);
    /** The utterance's audio, no longer kept. */
    const taken = (): Uint8Array => {
      if (this.spelled === utterance.utterance) this.spelled = undefined;
      return this.spelledAudio.take(end);
    };
    return heard.then(
      async (text) => {
        const pcm = taken();
        if (!worthSpellingDecode(text) || this.closed) return text;
        try {
          return (await spelling(pcm)) || text;
        } catch {
          return text;
        }
      },
      (error: unknown) => {
        taken();
        throw error;
      },
    );
  }

  /** The utterance's words as the session's recognizer heard them. */
  private transcribeHeard(utterance: TrackedUtterance): Promise<string> {
    const owed = this.owed;
    if (owed) {
      this.owed = undefined;
      this.finish(utterance);
      return Promise.reject(owed);
    }
    if (this.gaveUp) return Promise.resolve(this.finish(utterance));
    return new Promise((resolve, reject) => {
      const since = performance.now();
      this.pending.set(utterance.utterance, { utterance, resolve, reject, since });
      this.settle();
      if (this.pending.has(utterance.utterance) && this.feed.recognizer.ready)
        this.watch.watch(since);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { recognizer } = this.feed;
    recognizer.end();
    const killer = setTimeout(() => recognizer.kill(), this.options.finalTimeoutMs);
    await this.exited;
    clearTimeout(killer);
    this.watch.stop();
    this.giveAll();
  }

  /** Make `recognizer` the one hearing the stream. */
  private attach(recognizer: RecognizerProcess): Feed {
    const feed: Feed = {
      recognizer,
      parser: new PocketsphinxOutputParser(),
      base: undefined,
      fed: 0,
      error: undefined,
    };
    const current = (): boolean => this.feed === feed;
    recognizer.listen({
      stdout: (line) => {
        if (!current()) return;
        this.heard();
        for (const segment of feed.parser.push(line)) this.onSegment(feed, segment);
      },
      stderr: () => {
        if (current()) this.heard();
      },
      error: (error) => {
        feed.error ??= error;
        recognizer.kill();
      },
    });
    this.processed = 0;
    this.exited = recognizer.exited.then(({ code, signal }) => {
      for (const segment of feed.parser.finish()) this.onSegment(feed, segment);
      if (this.closed) {
        // Closing: everything written has been recognised.
        this.processed = Number.POSITIVE_INFINITY;
        this.settle();
        return;
      }
      this.onDeath(feed, describeDeath(feed, code, signal));
    });
    return feed;
  }

  /** The recognizer printed a line: it is alive. O(1): the quiet timer reads the rest later. */
  private heard(): void {
    this.watch.output();
    const first = this.pending.values().next();
    if (!first.done && !this.watch.watching && this.feed.recognizer.ready)
      this.watch.watch(first.value.since);
  }

  /** The quiet timer expired: give the finals due; when the next one is due. */
  private expire(quietSince: number): number | undefined {
    const now = performance.now();
    for (const [id, final] of this.pending) {
      const due = Math.max(final.since, quietSince) + this.options.finalTimeoutMs;
      if (due > now) return due;
      this.pending.delete(id);
      final.resolve(this.finish(final.utterance));
    }
    return undefined;
  }

  private onSegment(feed: Feed, segment: RecognizedSegment): void {
    if (feed.base === undefined) return; // it heard nothing of ours yet
    const heard = segment.words.length > 0; // an empty segment only says how far it got
    const context = {
      base: feed.base,
      fed: feed.fed,
      rate: this.sampleRate,
      margin: msToSamples(this.options.boundaryMarginMs, this.sampleRate),
      utterances: heard ? [...this.utterances.values()].map((entry) => entry.utterance) : [],
      awaiting: heard ? [...this.pending.values()].map((final) => final.utterance) : [],
    };
    const offset = placeSegment(segment, context);
    const at = (seconds: number): number =>
      feed.base! + Math.round(seconds * this.sampleRate) + offset;
    const touched = new Set<number>();
    for (const word of segment.words) {
      const mid = at((word.start + word.end) / 2);
      const owner = utteranceAt(mid, context.utterances, context.margin);
      if (!owner) continue;
      this.utterances.get(owner.utterance)!.words.push(word);
      touched.add(owner.utterance);
    }
    if (feed !== this.feed) return;
    this.processed = Math.max(this.processed, Math.min(at(segment.end), feed.base + feed.fed));
    for (const id of touched) {
      const entry = this.utterances.get(id)!;
      if (!this.pending.has(id)) this.emitInterim(entry.utterance, this.text(entry.words));
    }
    this.settle();
  }

  /**
   * Resolve the finals the recognizer has gone past, stopping at the first it has not reached
   * (utterances end in stream order).
   */
  private settle(): void {
    // A segment ends a little after the speech in it; a caller's end within 200 ms of it is covered.
    const slack = msToSamples(200, this.sampleRate);
    for (const [id, final] of this.pending) {
      if (this.processed + slack < (final.utterance.endSample ?? 0)) break;
      this.pending.delete(id);
      final.resolve(this.finish(final.utterance));
    }
    if (this.pending.size === 0) this.watch.stop();
  }

  /** Give every waiting final with the words it has. */
  private giveAll(): void {
    this.watch.stop();
    for (const final of this.pending.values()) final.resolve(this.finish(final.utterance));
    this.pending.clear();
  }

  /**
   * The recognizer died (not closing): give what it owed, report it once and
   * replace it, unless it was replaced too often already.
   */
  private onDeath(feed: Feed, cause: string): void {
    if (feed !== this.feed) return;
    this.giveAll();
    const now = performance.now();
    while (this.restarts.length > 0 && this.restarts[0]! <= now - this.options.restartWindowMs)
      this.restarts.shift();
    if (this.restarts.length >= this.options.maxRestarts) {
      this.gaveUp = true;
      const window = `${Math.round(this.options.restartWindowMs / 1000)} s`;
      this.report(
        `${cause}; not restarted again (${this.restarts.length} restarts within ${window})`,
      );
      return;
    }
    this.restarts.push(now);
    let next: RecognizerProcess;
    try {
      next = this.start();
    } catch (error) {
      this.gaveUp = true;
      this.report(`${cause}; no new recognizer could start: ${(error as Error).message}`);
      return;
    }
    this.report(`${cause}; a new recognizer takes over`);
    this.feed = this.attach(next);
  }

  /** Report a failure once: the next write throws it, or the next final rejects with it. */
  private report(message: string): void {
    // A newer failure not reported yet replaces the older one: one report for a burst.
    this.owed = new SpeechEngineError(`PocketSphinx failed: ${message}`, {
      engine: 'pocketsphinx',
    });
  }

  private finish(utterance: TrackedUtterance): string {
    const entry = this.utterances.get(utterance.utterance);
    this.utterances.delete(utterance.utterance);
    return entry ? this.text(entry.words) : '';
  }

  private text(words: RecognizedWord[]): string {
    return words.map((w) => w.word).join(' ');
  }
}

/**
 * Where the bot's speech plays in the stream it hears, for a client that plays it on a clock of
 * its own: an evaluation relay on the fast clock gets each reply's audio as fast as it is made
 * and plays it later, in step with the audio it sends. It tells the bot where each reply started
 * playing with a mark (`client-message` `audio-playback`: the reply's number and the sample of
 * the bot's input stream at which its first audio played). With the marks, "the bot is speaking"
 * means what the listener hears, not what has been sent: a reply is audible from before it
 * starts playing (it is pending) until the input reaches its mark plus its length.
 *
 * @module
 */
import type { SpeechOutput } from '../conversation/hook.js';

/** One reply: its number (the bot's `bot-started-speaking` count) and what of it was sent. */
interface Reply {
  n: number;
  /** Samples sent, at the input rate. */
  samples: number;
  /** All of it was sent (`bot-stopped-speaking`). */
  ended: boolean;
  /** It was interrupted: nothing more of it is heard. */
  interrupted: boolean;
  /** Where it started playing in the input stream (from the client's mark). */
  start?: number;
}

/** A mark: reply `reply` started playing at input sample `start`. */
export interface PlaybackMark {
  reply: number;
  start: number;
}

/** The replies of one session and where they play. */
export class PlaybackTracker {
  readonly #inputRate: number;
  readonly #replies: Reply[] = [];
  #count = 0;
  /** Marks that came before their reply. */
  readonly #early = new Map<number, number>();

  constructor(inputRate: number) {
    this.#inputRate = inputRate;
  }

  /** The bot started speaking a reply. */
  started(): void {
    const n = ++this.#count;
    const start = this.#early.get(n);
    this.#early.delete(n);
    this.#replies.push({
      n,
      samples: 0,
      ended: false,
      interrupted: false,
      ...(start === undefined ? {} : { start }),
    });
    if (this.#replies.length > 4) this.#replies.shift();
  }

  /** `bytes` of the reply's PCM16 audio at `rate` were sent. */
  sent(bytes: number, rate: number): void {
    const reply = this.#replies.at(-1);
    if (reply) reply.samples += (bytes / 2) * (this.#inputRate / rate);
  }

  /** The reply's audio has all been sent. */
  stopped(): void {
    const reply = this.#replies.at(-1);
    if (reply) reply.ended = true;
  }

  /** The reply was interrupted. */
  interrupted(): void {
    const reply = this.#replies.at(-1);
    if (reply) reply.interrupted = true;
  }

  mark(mark: PlaybackMark): void {
    const reply = this.#replies.find((r) => r.n === mark.reply);
    if (reply) reply.start = mark.start;
    else if (mark.reply > this.#count) this.#early.set(mark.reply, mark.start);
  }

  /** Is the last reply audible (or pending) at input sample `at`? */
  audibleAt(at: number): boolean {
    const reply = this.#replies.at(-1);
    if (!reply || reply.interrupted) return false;
    if (!reply.ended || reply.start === undefined) return true;
    return at < reply.start + reply.samples;
  }
}

/**
 * `speaker` as the conversation sees it: active while it is sending or while `tracker` says its
 * last reply is still heard at the input position `heard()`.
 */
export function playedSpeech(
  speaker: SpeechOutput,
  tracker: PlaybackTracker,
  heard: () => number,
): SpeechOutput {
  return {
    get active() {
      return speaker.active || tracker.audibleAt(heard());
    },
    text: (delta) => speaker.text(delta),
    flush: () => speaker.flush(),
    end: () => speaker.end(),
    interrupt: () => {
      const audible = speaker.active || tracker.audibleAt(heard());
      speaker.interrupt();
      tracker.interrupted();
      return audible;
    },
  };
}

/** A mark as a client sends it (`{reply, start}`, integers); throws on anything else. */
export function parsePlaybackMark(d: unknown): PlaybackMark {
  const { reply, start } = (d ?? {}) as { reply?: unknown; start?: unknown };
  if (!Number.isSafeInteger(reply) || (reply as number) < 1)
    throw new Error('audio-playback: reply must be an integer >= 1');
  if (!Number.isSafeInteger(start) || (start as number) < 0)
    throw new Error('audio-playback: start must be an integer >= 0');
  return { reply: reply as number, start: start as number };
}

/** What a listener tells the heard reports. */
interface Ears {
  /** Samples heard. */
  readonly samples: number;
  /** In speech at the last sample heard. */
  readonly speaking: boolean;
  /** The ended utterances whose final transcripts are awaited. */
  readonly awaiting: readonly { startSample: number; endSample: number }[];
}

/**
 * `server-message {type: 'audio-heard', samples, speaking, waiting, turn_at}` reports
 * (`VoiceOptions.reportHeard`): how much of the input is heard with every decision it led to
 * taken, so that a relay in lockstep takes each decision at the same place on every run.
 *
 * - An ended utterance holds the reports `holdMs` after its end until its final transcript is
 *   in: the recognizer hears that much past it (it may need to, to end it), then the relay waits
 *   for what the bot decides on it (a turn, an interruption under `min-words`, nothing).
 * - A turn holds them at the same place (its utterance's end plus `holdMs`) until its reply has
 *   started (or it ended without one), and says so (`waiting`, with that place as `turn_at`):
 *   the relay waits for the reply there (a relay that runs behind the bot, on the real-time
 *   clock, learns from `turn_at` where it will wait before it gets there).
 * - `settle_at`: the place the latest ended utterance holds the reports at (its end plus
 *   `holdMs`), named as soon as it ends: a relay goes on to it whether the final comes early or
 *   late, so where it stops does not depend on how fast the recognizer was.
 *
 * `speaking`: the listener is in speech at the reported sample.
 */
export class HeardReports {
  readonly #push: (data: unknown) => void;
  readonly #sampleRate: number;
  readonly #holdSamples: number;
  /** Where the turns waiting for their replies were taken, oldest first. */
  readonly #turns: { at: number }[] = [];
  /** The latest place an ended utterance held the reports at (its end plus `holdMs`). */
  #settleAt: number | undefined;
  #last = '';

  constructor(push: (data: unknown) => void, sampleRate: number, holdMs = 1600) {
    this.#push = push;
    this.#sampleRate = sampleRate;
    this.#holdSamples = Math.round((holdMs * sampleRate) / 1000);
  }

  /** Report `ears` if anything changed. */
  report(ears: Ears): void {
    let held = this.#turns[0]?.at ?? Infinity;
    for (const u of ears.awaiting) {
      held = Math.min(held, u.endSample + this.#holdSamples);
      this.#settleAt = Math.max(this.#settleAt ?? 0, u.endSample + this.#holdSamples);
    }
    const samples = Math.min(ears.samples, held);
    const speaking = samples < ears.samples ? false : ears.speaking;
    const turnAt = this.#turns[0]?.at;
    const waiting = turnAt !== undefined;
    const settleAt = this.#settleAt;
    const key = `${samples}:${speaking}:${turnAt}:${settleAt}`;
    if (key === this.#last) return;
    this.#last = key;
    this.#push({
      type: 'audio-heard',
      samples,
      speaking,
      waiting,
      ...(waiting ? { turn_at: turnAt } : {}),
      ...(settleAt !== undefined ? { settle_at: settleAt } : {}),
      sample_rate: this.#sampleRate,
    });
  }

  /**
   * A turn was taken on the utterance that ended at `endSample`: hold until the returned function
   * is called (once or more).
   */
  turn(endSample: number, again: () => void): () => void {
    const turn = { at: endSample + this.#holdSamples };
    this.#turns.push(turn);
    again();
    return () => {
      const index = this.#turns.indexOf(turn);
      if (index < 0) return;
      this.#turns.splice(index, 1);
      again();
    };
  }

  /** The bot started speaking: its oldest waiting turn has its reply. */
  replyStarted(again: () => void): void {
    if (this.#turns.shift()) again();
  }
}

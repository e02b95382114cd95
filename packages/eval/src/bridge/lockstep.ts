/**
 * Lockstep between the fast clock and the bots' ears, so that talking over each other lands at
 * the same place on every run. On the fast clock a bot's speech reaches the relay long before it
 * plays, and a bot decides to stop (barge-in) when it hears the other one, in wall time. So:
 *
 * - each bot reports how much of its input it has heard with every decision taken, and
 *   whether it hears speech there (`server-message {type: 'audio-heard', samples, speaking}`,
 *   `VoiceOptions.reportHeard`); the timeline runs at most {@link LOCKSTEP_WINDOW_CHUNKS} chunks
 *   ahead of either bot's ears, and it goes on (sending the caller's line, noise included)
 *   while a bot hears speech and a window past its end, so that a listener whose ears stay open
 *   on noise hears on as it would on a real line;
 * - when a bot reports `bot-interrupted`, its speech is cut that window after the last position
 *   it reported: a place fixed by the audio alone;
 * - each bot is told where each of its replies started playing (`client-message`
 *   `audio-playback`), so it knows whether it is still being heard.
 *
 * @module
 */
import type { AudioTimeline } from './audio-timeline.js';
import { CHUNK_SAMPLES, RELAY_SAMPLE_RATE } from './audio-timeline.js';
import type { BotConnection } from './bot-connection.js';
import type { HeardReport } from './bot-events.js';
import type { BotRole } from './types.js';

/** How far the timeline may run ahead of the bots' ears, in chunks (320 ms). */
export const LOCKSTEP_WINDOW_CHUNKS = 20;
/**
 * Wall time a bot's ears may stay silent before the timeline goes on without them, unless the
 * bot waits for a final transcript (then the relay waits for it: see `mayStep`).
 */
const EARS_TIMEOUT_MS = 20_000;

export interface LockstepOptions {
  timeline: () => Pick<AudioTimeline, 'poke' | 'cut'>;
  bot: (role: BotRole) => Pick<BotConnection, 'request'>;
  log: (line: string) => void;
  /** Does `role` wait for the final transcript of an utterance it heard? */
  awaitingFinal: (role: BotRole) => boolean;
  /** @default LOCKSTEP_WINDOW_CHUNKS */
  windowChunks?: number;
  /**
   * Each reply to a turn keeps the turn's place (`turn_at` in the bot's report) until it plays,
   * although the bot's ears report on once the reply has started: a timeline that runs behind
   * the bots (real-time pace), or one the other bot's speech moves on while this one's reply is
   * still coming, starts the reply where it would start had the reply come late.
   */
  holdTurns?: boolean;
}

/** The relay's side of the lockstep. */
export class Lockstep {
  readonly #options: LockstepOptions;
  readonly #window: number;
  /** The window, in chunks. */
  readonly windowChunks: number;
  readonly #heard: Record<BotRole, number> = { agent: 0, user: 0 };
  /** The bot's ears are in speech at the position it reported. */
  readonly #hearing: Record<BotRole, boolean> = { agent: false, user: false };

  /** The bot took a turn and waits for its reply, its reports held where it took it. */
  readonly #waiting: Record<BotRole, boolean> = { agent: false, user: false };
  /** Where the bot's ears last stopped hearing speech. */
  readonly #quietAt: Partial<Record<BotRole, number>> = {};
  /** The latest place an ended utterance held the bot's reports at (`settle_at`). */
  readonly #settleAt: Partial<Record<BotRole, number>> = {};
  readonly #reportedAt: Record<BotRole, number> = { agent: 0, user: 0 };
  readonly #replies: Record<BotRole, number> = { agent: 0, user: 0 };
  /** `holdTurns`: the place of the bot's oldest turn whose reply has not started. */
  readonly #turnAt: Partial<Record<BotRole, number>> = {};
  /** `holdTurns`: the replies started and not played yet, by number: their turn's place. */
  readonly #replyAt: Record<BotRole, Map<number, number>> = { agent: new Map(), user: new Map() };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #gaveUp = false;
  /** The conversation is over: the timeline stops here. */
  #stopAt: number | undefined;

  constructor(options: LockstepOptions) {
    this.#options = options;
    this.windowChunks = options.windowChunks ?? LOCKSTEP_WINDOW_CHUNKS;
    this.#window = this.windowChunks * CHUNK_SAMPLES;
    const now = performance.now();
    this.#reportedAt = { agent: now, user: now };
  }

  /** `role` has heard `samples` of its input at `sampleRate`, with every decision taken. */
  heard(role: BotRole, report: HeardReport): void {
    const relay = (samples: number) =>
      Math.round((samples * RELAY_SAMPLE_RATE) / report.sampleRate);
    const at = relay(report.samples);
    this.#heard[role] = at;
    if (report.settleAt !== undefined)
      this.#settleAt[role] = Math.max(this.#settleAt[role] ?? 0, relay(report.settleAt));
    if (this.#options.holdTurns) {
      // A turn that ended without a reply holds nothing; one that got its reply passed its
      // place to the reply (replyStarted).
      if (report.waiting) this.#turnAt[role] = relay(report.turnAt ?? report.samples);
      else delete this.#turnAt[role];
    }
    if (this.#hearing[role] && !report.speaking) this.#quietAt[role] = at;
    this.#hearing[role] = report.speaking;
    this.#waiting[role] = report.waiting;
    this.#reportedAt[role] = performance.now();
    this.#options.timeline().poke();
  }

  /**
   * Must the timeline go on at `position`: a bot hears speech, heard it a window ago, or waits
   * for a transcript (its recognizer may need to hear on to end it; the bot's reports stop the
   * timeline where it has heard enough)? A bot waiting for its reply has the timeline go on to
   * the window past where it took its turn, where the reply will find it.
   */
  busy(position: number): boolean {
    if (this.#stopAt !== undefined) return position < this.#stopAt;
    for (const role of ['agent', 'user'] as const) {
      if (this.#hearing[role] || this.#options.awaitingFinal(role)) return true;
      // To the hold of the latest utterance, whether its final came early or late.
      const settleAt = this.#settleAt[role];
      if (settleAt !== undefined && position < settleAt + this.#window) return true;
      const turnAt = this.#turnAt[role];
      if (turnAt !== undefined && position < turnAt + this.#window) return true;
      const replyAt = this.#replyPlace(role);
      if (replyAt !== undefined && position < replyAt + this.#window) return true;
      if (this.#waiting[role] && position < this.#heard[role] + this.#window) return true;
      const quiet = this.#quietAt[role];
      if (quiet === undefined) continue;
      if (position < quiet + this.#window) return true;
      delete this.#quietAt[role];
    }
    return false;
  }

  /**
   * May the timeline take the step at `position`? Not a window past either bot's ears, nor past
   * the place of a reply that has started and is not `queued` yet (`holdTurns`).
   */
  mayStep(position: number, queued?: Record<BotRole, boolean>): boolean {
    if (this.#stopAt !== undefined && position >= this.#stopAt) return false;
    for (const role of ['agent', 'user'] as const) {
      const replyAt = queued?.[role] ? undefined : this.#replyPlace(role);
      if (replyAt !== undefined && position >= replyAt + this.#window) return false;
      if (position < this.#heard[role] + this.#window) continue;
      // A bot waiting for a final transcript holds its reports until it comes, however slow its
      // recognizer (the bot gives the final once its recognizer has gone quiet): going on
      // without it would flood it and decide by wall time.
      const waitsForFinal = this.#options.awaitingFinal(role);
      if (waitsForFinal || performance.now() - this.#reportedAt[role] < EARS_TIMEOUT_MS) {
        this.#wake();
        return false;
      }
      if (!this.#gaveUp) {
        this.#gaveUp = true;
        this.#options.log(`the ${role} bot reports nothing it hears; the relay goes on unlocked`);
      }
    }
    return true;
  }

  /**
   * `role` was interrupted: its speech, through segment `through`, is cut a window after the last
   * position it reported: where it is cut.
   */
  interrupted(role: BotRole, through: number): number {
    // Its replies not played yet are cut: they hold nothing.
    this.#replyAt[role].clear();
    const at = this.#heard[role] + this.#window;
    this.#options.timeline().cut(role, at, through);
    return at;
  }

  /** `role` started a reply (`bot-started-speaking`): its number, as the bot counts them. */
  replyStarted(role: BotRole): number {
    const reply = ++this.#replies[role];
    const turnAt = this.#turnAt[role];
    if (turnAt !== undefined) this.#replyAt[role].set(reply, turnAt);
    return reply;
  }

  /**
   * `holdTurns`: does the next reply of `role` answer a turn whose place (and a window past it)
   * the timeline has not reached at `position`?
   */
  holds(role: BotRole, position: number): boolean {
    const at = this.#replyPlace(role) ?? this.#turnAt[role];
    return at !== undefined && position < at + this.#window;
  }

  /** Reply `reply` of `role` ended without playing (no audio, or none of it relayed): it holds nothing. */
  unplayed(role: BotRole, reply: number): void {
    this.#replyAt[role].delete(reply);
  }

  /** Reply `reply` of `role` started playing at `position`: tell the bot. */
  playing(role: BotRole, reply: number, position: number): void {
    this.#replyAt[role].delete(reply);
    this.#options
      .bot(role)
      .request('audio-playback', { reply, start: position })
      .catch((err: unknown) =>
        this.#options.log(`the ${role} bot took no playback mark: ${(err as Error).message}`),
      );
  }

  /** The conversation is over: the timeline steps to `stopAt` and no further. */
  settle(stopAt: number): void {
    this.#stopAt = stopAt;
    this.#options.timeline().poke();
  }

  /**
   * Has `role` reported hearing its input through `position`, with no speech there and no turn
   * waiting for its reply (it has nothing it is about to answer)?
   */
  quietThrough(role: BotRole, position: number): boolean {
    return this.#heard[role] >= position && !this.#hearing[role] && !this.#waiting[role];
  }

  /** Where each bot's ears are, in a few words (for a diagnostic). */
  describe(): string {
    const ears = (role: BotRole) =>
      `${role} ears at ${this.#heard[role]}${this.#hearing[role] ? ' hearing' : ''}${this.#waiting[role] ? ' waiting' : ''}`;
    return `${ears('agent')}, ${ears('user')}`;
  }

  /** The place of the oldest reply of `role` that started and has not played. */
  #replyPlace(role: BotRole): number | undefined {
    for (const at of this.#replyAt[role].values()) return at;
    return undefined;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Look again once a silent bot's time is up. */
  #wake(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#options.timeline().poke();
    }, EARS_TIMEOUT_MS + 10);
  }
}

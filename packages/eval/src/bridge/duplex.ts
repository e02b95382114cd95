/**
 * Full duplex on the fast clock: the bots may talk over each other. The relay's share of it: the
 * {@link Lockstep} with the bots' ears, the caller's line (effects and behaviours, when the
 * scenario has a caller config), speech cut where a bot was interrupted, the sentences of a cut
 * segment that were heard, and the times of the agent's tool calls, for the interaction panel.
 *
 * @module
 */
import type { AudioTimeline, Chunk, StepFilter, StepOutput } from './audio-timeline.js';
import { CHUNK_SAMPLES, RELAY_SAMPLE_RATE, SILENCE_CHUNK } from './audio-timeline.js';
import type { BotConnection } from './bot-connection.js';
import type { BotEventHandlers } from './bot-events.js';
import { CallerLine } from './caller-line.js';
import type { CallerLineEvent, CallerLineOptions } from './caller-line.js';
import { Lockstep } from './lockstep.js';
import type { AudioRecord, BotRole } from './types.js';

/** How a relay runs full duplex. */
export interface DuplexOptions {
  /** The caller's line: effects and behaviours (without it the user's audio goes as it is). */
  caller?: Omit<CallerLineOptions, 'tailChunks'>;
  /** Chunks the timeline may run ahead of a speaking bot's ears. */
  windowChunks?: number;
}

/** One sentence of a segment, and the chunks of the segment queued when its audio was in. */
interface Sentence {
  text: string;
  chunks: number;
}

/** What the duplex keeps of one segment. */
export interface DuplexSegment {
  reply: number;
  sentences: Sentence[];
  /** Its speech was cut (the bot was interrupted while it played). */
  cut: boolean;
  /** Where it was cut, when that was before it played. */
  cutAt?: number;
}

/** What a {@link Duplex} needs of its relay. */
export interface DuplexParts {
  timeline: () => AudioTimeline;
  bot: (role: BotRole) => BotConnection;
  log: (line: string) => void;
  tailMs: number;
  awaitingFinal: (role: BotRole) => boolean;
  /** `role` has no speech under way: no segment open, none synthesized, none left to relay. */
  silent: (role: BotRole) => boolean;
}

/** The duplex share of one audio relay. */
export class Duplex {
  readonly line: CallerLine | undefined;
  readonly lockstep: Lockstep;
  /** When the agent started tool calls, seconds of audio time. */
  readonly toolCalls: number[] = [];
  #stopAt: number | undefined;
  readonly #parts: DuplexParts;
  /** The agent's segments by tag, for the caller's line. */
  readonly #agentSegments = new Map<number, DuplexSegment>();

  constructor(options: DuplexOptions, parts: DuplexParts) {
    this.#parts = parts;
    this.lockstep = new Lockstep({
      timeline: parts.timeline,
      bot: parts.bot,
      log: parts.log,
      awaitingFinal: parts.awaitingFinal,
      holdTurns: true,
      ...(options.windowChunks !== undefined ? { windowChunks: options.windowChunks } : {}),
    });
    this.line = options.caller
      ? new CallerLine({
          ...options.caller,
          tailChunks: Math.ceil((parts.tailMs * 16) / CHUNK_SAMPLES),
          agentSentences: (tag) => this.#agentSegments.get(tag)?.sentences ?? [],
        })
      : undefined;
  }

  /** The timeline's filter: the caller's line, within the lockstep. */
  filter(): StepFilter {
    const line = this.line;
    return {
      step: (position: number, user: Chunk | undefined, agent: Chunk | undefined): StepOutput =>
        line
          ? line.step(position, user, agent)
          : {
              toAgent: user?.pcm ?? SILENCE_CHUNK,
              toUser: agent?.pcm ?? SILENCE_CHUNK,
              agentRecord: agent?.pcm ?? SILENCE_CHUNK,
            },
      mayStep: (position, queued) =>
        this.lockstep.mayStep(position, queued) && (line?.mayStep(position, queued) ?? true),
      mayStart: (source, position) => line?.mayStart(source, position) ?? true,
      holds: (source, position) => this.lockstep.holds(source, position),
      busy: (position) => (line?.busy() ?? false) || this.lockstep.busy(position),
      describe: () => [this.lockstep.describe(), line?.describe()].filter(Boolean).join('; '),
    };
  }

  /**
   * The bots' events only full duplex cares about, with the relay's `segments` and its audio time
   * (`now`, ms): a bot interrupted (its speech cut where its ears say it stopped; a reply cut
   * before it played is placed there), what the bots heard, the agent's tool calls.
   */
  handlers(
    segments: readonly {
      role: BotRole;
      tag: number;
      startSample?: number;
      duplex?: DuplexSegment;
    }[],
    now: () => number,
  ): BotEventHandlers {
    return {
      interrupted: (role) => {
        const last = segments.findLast((s) => s.role === role);
        if (!last) return;
        const at = this.lockstep.interrupted(role, last.tag);
        for (const s of segments)
          if (s.role === role && s.duplex && s.startSample === undefined) s.duplex.cutAt ??= at;
      },
      'heard-through': (role, event) => {
        this.lockstep.heard(role, event);
        if (role === 'user') this.#noAnswerDue();
      },
      'function-call-started': (role) => {
        if (role === 'agent') this.toolCalls.push(now() / 1000);
      },
    };
  }

  /** A new segment of `role`, tagged `tag` on the timeline. */
  segment(role: BotRole, tag: number): DuplexSegment {
    const segment: DuplexSegment = {
      reply: this.lockstep.replyStarted(role),
      sentences: [],
      cut: false,
    };
    if (role === 'agent') this.#agentSegments.set(tag, segment);
    return segment;
  }

  /**
   * The user bot heard something final: nothing to answer with releases an interruption; else
   * it may have been the last thing the release waited for.
   */
  userHeard(text: string): void {
    if (text.trim() === '') this.#release();
    else this.#noAnswerDue();
  }

  /** The user bot's turn came with nothing to say. */
  userSaidNothing(): void {
    this.#release();
  }

  /**
   * A segment of `role` has all been relayed (`startSample`: where it started playing, if any
   * of it did). A reply that never played keeps no place; the user bot's speech ending may be
   * what a cut-in's release waited for (its ears do not report it).
   */
  drained(role: BotRole, segment: DuplexSegment, startSample: number | undefined): void {
    if (startSample === undefined) this.lockstep.unplayed(role, segment.reply);
    if (role === 'user') this.#noAnswerDue();
  }

  /**
   * An interruption holds the timeline for the user bot's answer, but the bot heard nothing it
   * could answer: its ears report the hold's place, quiet, with no turn under way and no speech
   * (it was speaking itself, or between utterances, when it stopped hearing the agent). The
   * place is fixed by the audio, so the line goes on there on every run.
   */
  #noAnswerDue(): void {
    const holdAt = this.line?.holdAt;
    if (holdAt === undefined) return;
    if (!this.lockstep.quietThrough('user', holdAt)) return;
    if (this.#parts.awaitingFinal('user') || !this.#parts.silent('user')) return;
    this.#parts.log(`the user bot has nothing to answer at ${holdAt}: its cut-in goes on without`);
    this.#release();
  }

  /** The interruption under way, if any, waits for no answer. */
  #release(): void {
    if (!this.line?.holding) return;
    this.line.release();
    this.#parts.timeline().poke();
  }

  /**
   * The conversation is over, its last turn ending at `lastEnd` seconds: the recording goes on
   * for `settleMs` and stops there (the bots may talk on: not on the record). Where it stops.
   */
  settle(lastEnd: number, settleMs: number): number {
    const end = Math.ceil((lastEnd * RELAY_SAMPLE_RATE) / CHUNK_SAMPLES) * CHUNK_SAMPLES;
    this.#stopAt = end + Math.round((settleMs * RELAY_SAMPLE_RATE) / 1000);
    this.lockstep.settle(this.#stopAt);
    return this.#stopAt;
  }

  /** `record` as it stops where the recording stops. */
  clip(record: AudioRecord): AudioRecord {
    const stop = this.#stopAt;
    if (stop === undefined) return record;
    const end = stop / RELAY_SAMPLE_RATE;
    const steps = stop / CHUNK_SAMPLES;
    const within = <T extends { start: number; end: number }>(spans: readonly T[]): T[] =>
      spans.filter((s) => s.start < end).map((s) => (s.end > end ? { ...s, end } : s));
    return {
      ...record,
      userToAgent: record.userToAgent.slice(0, steps),
      agentToUser: record.agentToUser.slice(0, steps),
      segments: within(record.segments),
      ...(record.callerEvents ? { callerEvents: within(record.callerEvents) } : {}),
      ...(record.toolCalls ? { toolCalls: record.toolCalls.filter((at) => at < end) } : {}),
    };
  }

  /** The caller's events, once the conversation is over. */
  events(): CallerLineEvent[] {
    const events = [...(this.line?.finish() ?? [])];
    return events.sort((a, b) => a.end - b.end || a.start - b.start);
  }

  dispose(): void {
    this.lockstep.dispose();
  }
}

/**
 * What was heard of a cut segment: the sentences whose audio had all been played (`played`
 * chunks), joined; all of them when it was not cut.
 */
export function heardSentences(segment: DuplexSegment, said: string, played: number): string {
  if (!segment.cut || segment.sentences.length === 0) return said;
  return segment.sentences
    .filter((s) => s.chunks <= played)
    .map((s) => s.text)
    .join('')
    .trim();
}

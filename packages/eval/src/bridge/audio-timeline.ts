/**
 * The audio between two bots, on one timeline: each bot's speech is converted to 16 kHz mono
 * PCM16 and sent to the other bot as its microphone, in 16 ms chunks (512 bytes), one chunk per
 * direction per step, silence whenever a bot is quiet, as NeMo's bridge and a browser send it.
 * A burst of speech is released once 80 ms of it is buffered (the jitter buffer), on a 640 ms
 * grid: 10240 samples, a whole number of PocketSphinx's 2048-sample read blocks and 10 ms frames
 * and of the VAD's 20 ms frames. A recognizer's words depend on where the speech falls in its
 * blocks and frames, so with every burst on the grid each bot hears every utterance the same way
 * on both clocks, whatever the silence before it.
 *
 * Two clocks drive the steps. `realtime` takes one step per 16 ms of wall time. `fast` takes
 * steps as soon as there is something to send (speech queued, or the silence a listener needs
 * after speech: its VAD stop window and its recognizer's final), stops only on the grid, and
 * waits while a bot that is speaking has not delivered its next audio yet, so audio time is
 * counted in samples and every bot hears the same speech as in real time, minus the time the
 * bots spend thinking: an answer starts on the first grid point after that silence. When a
 * speaking bot delivers nothing for `stallMs` of wall time, the fast clock steps in real time
 * until it does (a bot stuck mid-speech still runs into the turn's time limit).
 *
 * A {@link StepFilter} sees both chunks of every step and says what each bot hears and what is
 * recorded (the caller's line effects), and on the fast clock whether a step may be taken (a
 * relay in lockstep with the bots' ears). {@link AudioTimeline.cut} drops the rest of a bot's
 * speech from a position on (the bot was interrupted).
 */
import type { AudioFrameValue } from '@scenaro/sdk/protocol';
import type { Chunk, StepFilter } from './step-filter.js';
import { StepPace } from './step-pace.js';
import { CHUNK_BYTES, CHUNK_SAMPLES, RELAY_SAMPLE_RATE, Stream } from './timeline-stream.js';
import type { BotRole } from './types.js';

export type { Chunk, StepFilter, StepOutput } from './step-filter.js';

export { CHUNK_SAMPLES, RELAY_SAMPLE_RATE } from './timeline-stream.js';
const CHUNK_MS = (CHUNK_SAMPLES * 1000) / RELAY_SAMPLE_RATE;
/** Chunks buffered before a burst goes out (80 ms): the jitter buffer. */
const BURST_CHUNKS = 5;
/** The grid bursts start on, in chunks (640 ms, 10240 samples). */
const GRID_CHUNKS = 40;
/** The grid in ms. */
export const GRID_MS = GRID_CHUNKS * CHUNK_MS;
/** Steps taken at once before yielding, so the bots read their sockets in between. */
const SLICE = 32;
/** One chunk of silence (shared: it is never written to). */
export const SILENCE_CHUNK = new Uint8Array(CHUNK_BYTES);

/** How relayed audio is timed. */
export type RelayClock = 'realtime' | 'fast';

/** What the timeline reports. */
export interface TimelineListener {
  /**
   * The first audio of segment `tag` of `role` reached the relay with the timeline at `position`
   * (samples): before the jitter buffer and the grid hold it back.
   */
  arrived(role: BotRole, tag: number, position: number): void;
  /** A chunk of segment `tag` of `role`'s speech went out at `position` (samples). */
  sent(role: BotRole, tag: number, position: number): void;
  /** Every chunk of segment `tag` of `role` has gone out. */
  drained(role: BotRole, tag: number): void;
  /** The timeline reached `position` samples. */
  moved(position: number): void;
}

export interface AudioTimelineOptions {
  clock: RelayClock;
  /** Send one chunk of 16 kHz mono PCM16 to `role`'s bot as its microphone. */
  send(role: BotRole, pcm: Uint8Array): void;
  listener: TimelineListener;
  /** Fast clock: the silence sent after a bot's speech, ms. */
  tailMs: number;
  /** Fast clock: wall time a speaking bot may deliver nothing before the timeline steps in real time, ms. @default 120000 */
  stallMs?: number;
  /** A frame could not be converted. */
  onError?: (err: unknown) => void;
  /** Shapes every step (the caller's line, lockstep). */
  filter?: StepFilter;
  /**
   * Fast clock: a speaking bot's speech is stepped only while this many chunks of it are queued
   * (or all of it is), so a cut that far ahead finds the same speech on every run. @default 1
   */
  lookaheadChunks?: number;
  /**
   * Fast clock: `realtime` takes the fast clock's steps no faster than real time (the real-time
   * clock of a full-duplex run). Audio time still stands while the timeline waits for a bot, and
   * (as at either pace) a bot's speech that arrives before the timeline, without it, would have
   * stopped to wait for it waits until then: the timeline lands where it lands at full speed.
   * @default 'free'
   */
  pace?: 'free' | 'realtime';
}

/** The two directions of relayed audio and the clock that steps them. */
export class AudioTimeline {
  readonly #options: AudioTimelineOptions;
  readonly #streams: Record<BotRole, Stream>;
  #position = 0;
  #started = false;
  #stopped = false;
  #startedAt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #scheduled = false;
  /** No speech goes out before this position (the lead-in). */
  #holdUntil = 0;
  /** Fast clock at real-time pace: when each step is due. */
  readonly #pace: StepPace | undefined;

  constructor(options: AudioTimelineOptions) {
    this.#options = options;
    const ahead = options.lookaheadChunks ?? 1;
    this.#streams = { agent: new Stream('agent', ahead), user: new Stream('user', ahead) };
    if (options.clock === 'fast' && options.pace === 'realtime')
      this.#pace = new StepPace(CHUNK_MS);
  }

  /** Samples relayed per direction so far. */
  get position(): number {
    return this.#position;
  }

  /** Audio time, ms. */
  nowMs(): number {
    return (this.#position * 1000) / RELAY_SAMPLE_RATE;
  }

  /** What went out in each direction: chunks keyed by the bot that spoke them. */
  recording(source: BotRole): readonly Uint8Array[] {
    return this.#streams[source].recording;
  }

  /**
   * Start the streams with `leadInMs` of silence: no speech goes out before, so the first words
   * fall at the same place on both clocks.
   */
  start(leadInMs = 0): void {
    if (this.#started) return;
    this.#started = true;
    this.#holdUntil = Math.round((leadInMs * RELAY_SAMPLE_RATE) / 1000);
    if (this.#options.clock === 'fast') {
      const chunks = Math.ceil(leadInMs / CHUNK_MS);
      this.#streams.agent.owed = chunks;
      this.#streams.user.owed = chunks;
    }
    this.#startedAt = performance.now();
    this.#kick();
  }

  /** Fast clock: owe every listener `ms` more of silence (the real-time clock sends it anyway). */
  addSilence(ms: number): void {
    if (this.#options.clock !== 'fast') return;
    const chunks = Math.ceil(ms / CHUNK_MS);
    this.#streams.agent.owed += chunks;
    this.#streams.user.owed += chunks;
    this.#kick();
  }

  /**
   * `source` was interrupted: what it has queued or still sends of its segments up to `through`
   * goes out until the timeline reaches `position` and is dropped from there (at once when the
   * timeline is past it).
   */
  cut(source: BotRole, position: number, through: number): void {
    const stream = this.#streams[source];
    stream.cut = { at: Math.max(position, this.#position), through };
    this.#kick();
  }

  /**
   * Once the audio of `source` received so far is in: `fn` with the chunks its current segment
   * has queued (a partial chunk counts).
   */
  queued(source: BotRole, fn: (chunks: number) => void): void {
    const stream = this.#streams[source];
    stream.chain = stream.chain.then(() => {
      const tag = stream.tag;
      if (tag === undefined) return;
      fn((stream.appended.get(tag) ?? 0) + (stream.partial.length > 0 ? 1 : 0));
    });
  }

  /** Was some of segment `tag` of `source` cut? */
  wasCut(source: BotRole, tag: number): boolean {
    return this.#streams[source].dropped.has(tag);
  }

  /** Something a step depends on changed (a filter's condition): step again if there is more. */
  poke(): void {
    this.#kick();
  }

  /** Has `source` no speech left to relay (none queued, none on its way in)? */
  silent(source: BotRole): boolean {
    return this.#streams[source].silent;
  }

  /** Where the timeline is and what each stream holds, in a few words (for a diagnostic). */
  describe(): string {
    const { agent, user } = this.#streams;
    const filter = this.#options.filter?.describe?.();
    return [
      `at ${this.#position}`,
      agent.describe(),
      user.describe(),
      ...(filter ? [filter] : []),
    ].join('; ');
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** An audio frame of `source`'s speech. */
  audio(source: BotRole, frame: AudioFrameValue): void {
    const stream = this.#streams[source];
    stream.inFlight++;
    stream.chain = stream.chain
      .then(async () => {
        stream.append(await stream.convert(frame));
        const tag = stream.tag;
        if (tag === undefined || tag === stream.arrivedTag) return;
        stream.arrivedTag = tag;
        this.#options.listener.arrived(source, tag, this.#position);
      })
      .catch((err: unknown) => this.#options.onError?.(err))
      .finally(() => {
        stream.inFlight--;
        this.#kick();
      });
  }

  /**
   * Call `call` once every audio frame of `source` received so far has gone out to the other
   * bot (right after the chunk that ends it, before the next one), or at once when it has.
   */
  whenRelayed(source: BotRole, call: () => void): void {
    const stream = this.#streams[source];
    stream.chain = stream.chain.then(() => {
      const count = stream.queuedCount + (stream.partial.length > 0 ? 1 : 0);
      if (count <= stream.sentCount) this.#call(call);
      else stream.marks.push({ count, call });
    });
  }

  #call(call: () => void): void {
    try {
      call();
    } catch (err) {
      this.#options.onError?.(err);
    }
  }

  /** `source` started speaking segment `tag`: audio from now on belongs to it. */
  startSegment(source: BotRole, tag: number): void {
    const stream = this.#streams[source];
    stream.speaking = true;
    stream.chain = stream.chain.then(() => {
      this.#close(stream);
      stream.tag = tag;
      stream.pending.set(tag, stream.pending.get(tag) ?? 0);
    });
  }

  /** `source` stopped speaking. */
  endSegment(source: BotRole): void {
    const stream = this.#streams[source];
    stream.chain = stream.chain.then(() => {
      this.#close(stream);
      stream.speaking = false;
      const tail = Math.ceil(this.#options.tailMs / CHUNK_MS);
      if (this.#options.clock === 'fast' && this.#options.filter) stream.tailDue = tail;
      else if (this.#options.clock === 'fast') stream.owed = tail;
      this.#kick();
    });
  }

  /** End the current segment of `stream`: its partial chunk goes out padded. */
  #close(stream: Stream): void {
    stream.flush();
    const tag = stream.tag;
    if (tag === undefined) return;
    stream.tag = undefined;
    stream.ended.add(tag);
    if ((stream.pending.get(tag) ?? 0) === 0) this.#drained(stream, tag);
  }

  /** The cut is reached: drop what `stream` has queued, and what still comes of its segments. */
  #dropQueued(stream: Stream, through: number): void {
    stream.cut = undefined;
    const cut = (tag: number | undefined) => tag !== undefined && tag <= through;
    if (cut(stream.tag)) {
      stream.dropped.add(stream.tag!);
      stream.partial = new Uint8Array(0);
    }
    const dropped = stream.chunks.filter((c) => cut(c.tag));
    stream.chunks.splice(0, stream.chunks.length, ...stream.chunks.filter((c) => !cut(c.tag)));
    if (dropped.length > 0) stream.bursting = false;
    // Dropped chunks never go out: a wait for them ends with the last chunk that does.
    stream.queuedCount -= dropped.length;
    for (const mark of stream.marks) mark.count = Math.min(mark.count, stream.queuedCount);
    for (const call of stream.dueMarks()) this.#call(call);
    for (const chunk of dropped) {
      if (chunk.tag === undefined) continue;
      stream.dropped.add(chunk.tag);
      const left = (stream.pending.get(chunk.tag) ?? 1) - 1;
      stream.pending.set(chunk.tag, left);
      if (left === 0 && stream.ended.has(chunk.tag)) this.#drained(stream, chunk.tag);
    }
  }

  #drained(stream: Stream, tag: number): void {
    stream.pending.delete(tag);
    stream.ended.delete(tag);
    this.#options.listener.drained(stream.source, tag);
  }

  #kick(): void {
    if (!this.#started || this.#stopped) return;
    if (this.#options.clock === 'realtime') {
      if (!this.#timer) this.#realtimeStep();
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#fastSteps();
    });
  }

  /** Real time: every step that is due, then sleep until the next one. */
  #realtimeStep(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    const due = Math.floor((performance.now() - this.#startedAt) / CHUNK_MS) + 1;
    for (let n = 0; n < SLICE && this.#position / CHUNK_SAMPLES < due; n++) this.#step();
    const next = this.#startedAt + (this.#position / CHUNK_SAMPLES) * CHUNK_MS;
    this.#timer = setTimeout(() => this.#realtimeStep(), Math.max(1, next - performance.now()));
  }

  /** Fast: step while there is something to send and no speaking bot is behind. */
  #fastSteps(): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    let n = 0;
    while (n < SLICE && this.#canStepFast()) {
      const wait = this.#pace?.wait() ?? 0;
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#fastSteps();
        }, wait);
        return;
      }
      this.#step();
      n++;
    }
    if (n === SLICE) {
      this.#kick();
      return;
    }
    this.#pace?.stood();
    if (this.#streams.agent.starved || this.#streams.user.starved)
      this.#armStall(this.#options.stallMs ?? 120_000);
  }

  /** Fast clock stalled: step in real time until there is something to send again. */
  #armStall(ms: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#stopped) return;
      const { agent, user } = this.#streams;
      if (this.#canStepFast() || !(agent.starved || user.starved)) {
        this.#fastSteps();
        return;
      }
      this.#step();
      this.#armStall(CHUNK_MS);
    }, ms);
  }

  /**
   * May the timeline step (fast clock)? `without`: would it go on as if that bot had no speech
   * queued (a stream still waiting for its audio counts as going on: at full speed it would have
   * it).
   */
  #canStepFast(without?: BotRole): boolean {
    const { agent, user } = this.#streams;
    if (agent.starved || user.starved) return without !== undefined;
    const filter = this.#options.filter;
    const queued = {
      agent: agent.chunks.length > 0 && without !== 'agent',
      user: user.chunks.length > 0 && without !== 'user',
    };
    if (filter && !filter.mayStep(this.#position, queued)) return false;
    // The silence a stream owes after its speech gives way to its next speech: not counted
    // for the stream whose speech is set aside.
    const owing = [agent, user].some(
      (s) => s.source !== without && (s.owed > 0 || s.tailDue !== undefined),
    );
    if (queued.agent || queued.user || owing || filter?.busy(this.#position)) return true;
    // Nothing to send: stop on the grid, where the next burst will start.
    return !this.#onGrid(this.#position);
  }

  #onGrid(position: number): boolean {
    return (position / CHUNK_SAMPLES) % GRID_CHUNKS === 0;
  }

  /** One 16 ms step: a chunk to each bot, speech or silence. */
  #step(): void {
    const position = this.#position;
    const { user, agent } = this.#streams;
    // Speech that answers a turn whose place is still ahead waits for it while the timeline,
    // without that speech, would go on (asked before either stream moves): an answer that comes
    // early (real-time pace, or the other bot's speech moving the timeline on) starts where one
    // that comes late does.
    const filter = this.#options.filter;
    const held =
      this.#options.clock === 'fast' && filter?.holds
        ? {
            user: filter.holds('user', position) && this.#canStepFast('user'),
            agent: filter.holds('agent', position) && this.#canStepFast('agent'),
          }
        : undefined;
    const chunks = {
      user: this.#release(user, position, held?.user),
      agent: this.#release(agent, position, held?.agent),
    };
    const out = this.#options.filter?.step(position, chunks.user, chunks.agent);
    const sent = {
      user: out ? { heard: out.toAgent, recorded: out.toAgent } : undefined,
      agent: out ? { heard: out.toUser, recorded: out.agentRecord } : undefined,
    };
    for (const stream of [user, agent]) {
      const chunk = chunks[stream.source];
      const listener: BotRole = stream.source === 'agent' ? 'user' : 'agent';
      const shaped = sent[stream.source];
      stream.recording.push(shaped?.recorded ?? chunk?.pcm ?? SILENCE_CHUNK);
      try {
        this.#options.send(listener, shaped?.heard ?? chunk?.pcm ?? SILENCE_CHUNK);
      } catch {
        // the bot went away: the bridge hears of it from the connection
      }
      if (!chunk) {
        if (stream.tailDue !== undefined && stream.chunks.length === 0) {
          stream.owed = stream.tailDue;
          stream.tailDue = undefined;
        }
        if (stream.owed > 0) stream.owed--;
        continue;
      }
      stream.sentCount++;
      for (const call of stream.dueMarks()) this.#call(call);
      if (chunk.tag === undefined) continue;
      this.#options.listener.sent(stream.source, chunk.tag, position);
      const left = (stream.pending.get(chunk.tag) ?? 1) - 1;
      stream.pending.set(chunk.tag, left);
      if (left === 0 && stream.ended.has(chunk.tag)) this.#drained(stream, chunk.tag);
    }
    this.#position += CHUNK_SAMPLES;
    this.#options.listener.moved(this.#position);
  }

  /**
   * The chunk `stream` sends at `position`, or undefined for silence (the jitter buffer); `held`:
   * a burst may not start here (real-time pace, see `#step`).
   */
  #release(stream: Stream, position: number, held = false): Chunk | undefined {
    if (stream.cut && position >= stream.cut.at) this.#dropQueued(stream, stream.cut.through);
    if (position < this.#holdUntil) return undefined;
    if (!stream.bursting) {
      const fast = this.#options.clock === 'fast';
      const buffered =
        stream.chunks.length >= BURST_CHUNKS ||
        (stream.chunks.length > 0 && !stream.speaking && stream.inFlight === 0) ||
        (fast && stream.chunks.length > 0);
      // Fast clock: an answer starts once the other side's speech has had its silence.
      const waiting =
        (fast && this.#streams[stream.source === 'agent' ? 'user' : 'agent'].owed > 0) ||
        this.#options.filter?.mayStart(stream.source, position) === false ||
        held;
      if (!buffered || waiting || !this.#onGrid(position)) return undefined;
      stream.bursting = true;
      stream.underflows = 0;
    }
    // Run dry with nothing on its way: the partial chunk goes out now, padded, rather than when
    // the bot reports the end of its speech (on the real-time clock, a while after its audio).
    if (stream.chunks.length === 0 && stream.inFlight === 0) stream.flush();
    const chunk = stream.chunks.shift();
    if (chunk) {
      stream.underflows = 0;
      return chunk;
    }
    if (!stream.speaking && stream.inFlight === 0) stream.bursting = false;
    else if (++stream.underflows > BURST_CHUNKS) stream.bursting = false;
    return undefined;
  }
}

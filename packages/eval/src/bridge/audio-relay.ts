/**
 * Audio mode: the bots talk through an {@link AudioTimeline} (each one's speech is the other's
 * microphone) and turns are segmented from each bot's own speaking events, as NeMo's bridge does:
 * `bot-started-speaking` opens a segment, `bot-tts-text` pieces are its text, and it ends once
 * `bot-stopped-speaking` came and all its audio has been relayed. What the other bot heard of a
 * segment is that bot's final `user-transcription`s until the speaker's next segment.
 *
 * The conversation starts as NeMo's does, with `send-text` to the agent with `audio_response`;
 * both bots hear about two seconds of silence before the first words, on either clock. A bot
 * whose turn produced no speech at all (a `turn-complete` push with nothing synthesized) ends
 * its turn with that push's text. A bot that does not start speaking within `responseTimeoutMs`
 * (wall time: on the fast clock audio time stands still while nobody speaks) ends the
 * conversation with `[NO_RESPONSE]`; a segment longer than `maxTurnMs` of audio time ends it with
 * `[TURN_TOO_LONG]`.
 *
 * With `duplex` (fast clock), the bots may talk over each other (see `duplex.ts`): the relay
 * steps in lockstep with the bots' ears, cuts a bot's speech where it was interrupted, and runs
 * the user's audio through the caller's line.
 */
import type { AudioFrameValue } from '@scenaro/sdk/protocol';
import { eachNoting } from './bot-events.js';
import type { BotEventHandlers } from './bot-events.js';
import type { BotConnection } from './bot-connection.js';
import { oracleEar } from './oracle-ear.js';
import { AudioTimeline, CHUNK_SAMPLES, GRID_MS, RELAY_SAMPLE_RATE } from './audio-timeline.js';
import type { RelayClock } from './audio-timeline.js';
import type { TurnRelay } from './relay.js';
import { Duplex, heardSentences } from './duplex.js';
import type { DuplexOptions } from './duplex.js';
import {
  RESPONSE_MS,
  SLOW_RESPONSE_MS,
  agentLatency,
  describeWait,
  heardOut,
  newEars,
  responseMs,
  stillMs,
  waitUntil,
} from './relay-parts.js';
import type { Ears, OpenSegment, Waiter } from './relay-parts.js';
import { byStart } from './types.js';
import type { AudioRecord, BotRole, BotTurn, SpeechSegment, StopReason } from './types.js';

export interface AudioRelayOptions {
  clock: RelayClock;
  /** The connected bot of a role. */
  bot: (role: BotRole) => BotConnection;
  /** Why the bridge lost a bot, once it has. */
  disconnected: () => string | undefined;
  /** Fast clock: silence sent after speech (the listener's VAD stop window and final), ms. @default 1600 */
  tailMs?: number;
  /**
   * Wall time a bot may take to start speaking when it is its turn, ms, restarted whenever it
   * reports hearing something; on the fast clock also the wall time a speaking bot may take to
   * deliver its next audio. @default 30000 on the real-time clock; on the fast one 120000 or the
   * length of the other bot's last speech if longer (a recognizer may get a long utterance at
   * once, a synthesizer a long sentence), 30000 once the bot has the final transcript of
   * everything it heard
   */
  responseTimeoutMs?: number;
  /** Longest segment, audio time, ms. @default 600000 */
  maxTurnMs?: number;
  /**
   * Wall time the relay may stand still (no audio relayed, no bot event) while a bot has the
   * turn, ms; then the wait fails as timed out (an infrastructure failure: the scenario is
   * retried), with what the relay was waiting for. @default 60000 past the longest wait the
   * relay has a rule for (see `responseTimeoutMs`)
   */
  stillMs?: number;
  /** Receives bridge-log lines. */
  log: (line: string) => void;
  /** Fast clock: full duplex (lockstep, cuts, the caller's line). */
  duplex?: DuplexOptions;
  /**
   * The bots whose recognizer is told what the other one said (the oracle): each sentence the
   * other bot speaks is told to them once its audio has been relayed (see `oracle-ear.ts`).
   */
  tell?: readonly BotRole[];
}

const other = (role: BotRole): BotRole => (role === 'agent' ? 'user' : 'agent');
/** Silence both bots hear before the first words, ms (a whole number of grid steps). */
const LEAD_IN_MS = 3 * GRID_MS;
/** Fast clock: silence relayed after the last words, ms (the real-time clock goes on anyway). */
const SETTLE_SILENCE_MS = 4000;
const seconds = (samples: number) => samples / RELAY_SAMPLE_RATE;

/** Audio relay between two voice bots. */
export class AudioRelay implements TurnRelay {
  readonly #options: AudioRelayOptions;
  readonly #timeline: AudioTimeline;
  readonly #segments: OpenSegment[] = [];
  readonly #open: Partial<Record<BotRole, OpenSegment>> = {};
  readonly #synthesizing: Record<BotRole, boolean> = { agent: false, user: false };
  readonly #finished: Record<BotRole, BotTurn[]> = { agent: [], user: [] };
  readonly #ttfb: AudioRecord['ttfb'] = { agent: {}, user: {} };
  readonly #ears: Record<BotRole, Ears> = { agent: newEars(), user: newEars() };
  #waiter: Waiter | undefined;
  /** When (`performance.now()`) audio was last relayed or a bot last reported an event. */
  #movedAt = performance.now();
  #kickedOff = false;
  readonly #duplex: Duplex | undefined;
  readonly #tell: ((speaker: BotRole, text: string) => void) | undefined;
  readonly handlers: BotEventHandlers;

  constructor(options: AudioRelayOptions) {
    this.#options = options;
    const tailMs = options.tailMs ?? 1600;
    this.#duplex = options.duplex
      ? new Duplex(options.duplex, {
          timeline: () => this.#timeline,
          bot: options.bot,
          log: (line) => this.#logLine('--', line),
          tailMs,
          awaitingFinal: (role) => this.#ears[role].finals < this.#ears[role].utterances,
          silent: (role) =>
            !this.#open[role] && !this.#synthesizing[role] && this.#timeline.silent(role),
        })
      : undefined;
    this.#timeline = new AudioTimeline({
      ...(this.#duplex
        ? { filter: this.#duplex.filter(), lookaheadChunks: this.#duplex.lockstep.windowChunks }
        : {}),
      // Full duplex steps by the fast clock's rules on both clocks (real time: at its pace).
      clock: this.#duplex ? 'fast' : options.clock,
      ...(this.#duplex && options.clock === 'realtime' ? { pace: 'realtime' as const } : {}),
      tailMs,
      stallMs: options.responseTimeoutMs ?? SLOW_RESPONSE_MS,
      send: (role, pcm) => options.bot(role).sendAudio(pcm, RELAY_SAMPLE_RATE),
      onError: (err) => this.#logLine('!!', `audio frame not relayed: ${(err as Error).message}`),
      listener: {
        arrived: (_role, tag, position) => {
          const segment = this.#segments[tag];
          if (segment) segment.arrivalSample ??= position;
        },
        sent: (role, tag, position) => this.#sent(role, tag, position),
        drained: (role, tag) => this.#drained(role, tag),
        moved: () => {
          this.#movedAt = performance.now();
          this.#checkWaiter();
        },
      },
    });
    this.#tell = options.tell?.length
      ? oracleEar({
          told: options.tell,
          whenRelayed: (source, call) => this.#timeline.whenRelayed(source, call),
          bot: options.bot,
          log: (line) => this.#logLine('!!', line),
        })
      : undefined;
    this.handlers = eachNoting(() => (this.#movedAt = performance.now()), {
      'started-speaking': (role) => this.#startSegment(role),
      'stopped-speaking': (role) => this.#stopSegment(role),
      'tts-started': (role) => (this.#synthesizing[role] = true),
      'tts-stopped': (role) => (this.#synthesizing[role] = false),
      'tts-text': (role, event) => {
        const segment = this.#open[role];
        if (segment) segment.said += event.text;
        const sentences = segment?.duplex?.sentences;
        if (sentences)
          this.#timeline.queued(role, (chunks) => sentences.push({ text: event.text, chunks }));
        this.#tell?.(role, event.text);
      },
      heard: (role, event) => {
        if (event.final && role === 'user') this.#duplex?.userHeard(event.text);
        if (event.final) this.#ears[role].finals++;
        if (event.final && event.text.trim()) this.#heard(role, event.text.trim());
        this.#hearing(role);
      },
      'hearing-started': (role) => {
        this.#ears[role].speaking = true;
        this.#ears[role].utterances++;
        this.#hearing(role);
      },
      'hearing-stopped': (role) => {
        this.#ears[role].speaking = false;
        this.#hearing(role);
      },
      'turn-complete': (role, event) => {
        // A turn with nothing to say (no speech synthesized or playing) ends here.
        if (this.#open[role] || this.#synthesizing[role]) return;
        if (role === 'user') this.#duplex?.userSaidNothing();
        this.#deliver(role, { ...event.turn, timing: this.#instant() });
      },
      metrics: (role, event) => {
        for (const { processor, value } of event.ttfb)
          (this.#ttfb[role][processor] ??= []).push(value);
      },
      ...(this.#duplex?.handlers(this.#segments, () => this.now()) ?? {}),
    });
  }

  /** The bot's speech, as received. */
  audio(role: BotRole, frame: AudioFrameValue): void {
    this.#movedAt = performance.now();
    this.#timeline.audio(role, frame);
  }

  /** Audio time since the conversation started, ms. */
  now(): number {
    return this.#timeline.nowMs();
  }

  get firstOutputAt(): number | undefined {
    return undefined;
  }

  exchange(speaker: BotRole, text: string, deadline: number): Promise<BotTurn | 'timeout'> {
    if (!this.#kickedOff) {
      this.#kickedOff = true;
      this.#timeline.start(LEAD_IN_MS);
      this.#options.bot(speaker).sendText(text, { run_immediately: true, audio_response: true });
    }
    const queued = this.#finished[speaker].shift();
    if (queued) return Promise.resolve(queued);
    const disconnected = this.#options.disconnected();
    if (disconnected) return Promise.reject(new Error(disconnected));
    const responseMs = this.#responseMs(speaker);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        role: speaker,
        deadline,
        respondBy: performance.now() + responseMs,
        timer: undefined,
        segmentsBefore: this.#segments.length,
        resolve: (turn) => {
          clearTimeout(waiter.timer);
          resolve(turn);
        },
        reject: (err) => {
          clearTimeout(waiter.timer);
          reject(err);
        },
      };
      this.#waiter = waiter;
      this.#movedAt = performance.now(); // standing still counts from the wait's start
      this.#arm(waiter);
      this.#checkWaiter();
    });
  }

  /** Look at `waiter` again when its bot's time to start is up, or the relay stood still too long. */
  #arm(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    const still = this.#movedAt + this.#stillMs(waiter.role);
    const due = this.#started(waiter) ? still : Math.min(waiter.respondBy, still);
    waiter.timer = setTimeout(
      () => {
        this.#checkWaiter();
        if (this.#waiter === waiter && !this.#stoodStill(waiter)) this.#arm(waiter);
      },
      Math.max(0, due - performance.now()) + 1,
    );
  }

  /** See `stillMs`. */
  #stillMs(role: BotRole): number {
    return (
      this.#options.stillMs ?? stillMs(this.#options.responseTimeoutMs, this.#responseMs(role))
    );
  }

  /** The time `role` has to start speaking, from now (see `responseTimeoutMs`). */
  #responseMs(role: BotRole): number {
    const fixed = this.#options.clock === 'realtime' && !this.#duplex ? RESPONSE_MS : undefined;
    const ears = this.#ears[role];
    return responseMs(role, this.#segments, ears, this.#options.responseTimeoutMs ?? fixed);
  }

  /** The bot whose turn it is heard something: it is still at work, its time starts again. */
  #hearing(role: BotRole): void {
    const waiter = this.#waiter;
    if (waiter?.role !== role) return;
    waiter.respondBy = performance.now() + this.#responseMs(role);
    this.#arm(waiter);
  }

  botClosed(role: BotRole): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    this.#logLine('!!', `the ${role} bot went away while the ${waiter.role} bot had the turn`);
    waiter.resolve({ text: '', interrupted: true });
  }

  /**
   * The conversation is over: let the other bot hear the last segment out, when it ended (the
   * listener's VAD has stopped and each utterance it heard since the segment began has its
   * final transcript), for at most `ms` of wall time.
   */
  async settle(ms = 15_000, lastEnd?: number): Promise<void> {
    if (this.#duplex && lastEnd !== undefined) {
      // Full duplex: the bots may talk on; the record stops a settling silence after the end.
      const stopAt = this.#duplex.settle(lastEnd, SETTLE_SILENCE_MS);
      return waitUntil(() => this.#timeline.position >= stopAt, ms);
    }
    const last = this.#segments.at(-1);
    // A segment cut off by a time limit is not heard out: its speaker may talk on for ever.
    if (!last || last.startSample === undefined || !last.stopped) return;
    const ears = this.#ears[other(last.role)];
    this.#timeline.addSilence(SETTLE_SILENCE_MS);
    const over = () => heardOut(ears, last.earsAtStart) || !!this.#options.disconnected();
    return waitUntil(over, ms);
  }

  dispose(): void {
    this.#duplex?.dispose();
    this.#timeline.stop();
    this.#waiter?.resolve('timeout');
    this.#waiter = undefined;
  }

  /** The relayed audio, the segments and the bots' timing metrics. */
  record(): AudioRecord {
    const record: AudioRecord = {
      clock: this.#options.clock,
      sampleRate: RELAY_SAMPLE_RATE,
      userToAgent: [...this.#timeline.recording('user')],
      agentToUser: [...this.#timeline.recording('agent')],
      segments: this.#segments
        // Full duplex: a reply cut before it played was never heard.
        .filter((s) => s.startSample !== undefined || (s.said !== '' && !s.duplex))
        .map((s) => this.#segment(s)),
      ttfb: this.#ttfb,
      ...(this.#duplex
        ? { callerEvents: this.#duplex.events(), toolCalls: [...this.#duplex.toolCalls] }
        : {}),
    };
    // Full duplex: segments as they began (two that began together: the agent's first), not as
    // their bots happened to announce them.
    if (this.#duplex) record.segments.sort(byStart);
    return this.#duplex?.clip(record) ?? record;
  }

  #segment(s: OpenSegment): SpeechSegment {
    const start = s.startSample ?? s.duplex?.cutAt ?? s.endSample ?? this.#timeline.position;
    // No audio played (a stop token the call's end cut off): no word of it reached a listener.
    const said = s.startSample === undefined ? '' : this.#said(s);
    const segment: SpeechSegment = {
      role: s.role,
      start: seconds(start),
      end: seconds(s.endSample ?? start),
      said,
      heard: s.heard.join(' '),
    };
    const latency = agentLatency(this.#segments, s);
    if (latency !== undefined) segment.latencyMs = latency;
    if (said.trim() === '' || s.duplex?.cut) segment.interrupted = true;
    return segment;
  }

  /** What was heard of what `s` said: its played sentences when its speech was cut. */
  #said(s: OpenSegment): string {
    if (!s.duplex) return s.said;
    s.duplex.cut = this.#timeline.wasCut(s.role, s.tag) || s.startSample === undefined;
    return heardSentences(s.duplex, s.said, s.sent);
  }

  #logLine(direction: string, text: string): void {
    this.#options.log(`${new Date().toISOString()} | audio | ${direction} | ${text}`);
  }

  #startSegment(role: BotRole): void {
    const open = this.#open[role];
    if (open) this.#stopSegment(role);
    const segment: OpenSegment = {
      tag: this.#segments.length,
      role,
      said: '',
      heard: [],
      stopped: false,
      earsAtStart: this.#ears[other(role)].utterances,
      sent: 0,
      ...(this.#duplex ? { duplex: this.#duplex.segment(role, this.#segments.length) } : {}),
    };
    this.#segments.push(segment);
    this.#open[role] = segment;
    this.#timeline.startSegment(role, segment.tag);
  }

  #stopSegment(role: BotRole): void {
    const segment = this.#open[role];
    if (!segment) return;
    delete this.#open[role];
    segment.stopped = true;
    this.#timeline.endSegment(role);
  }

  #sent(role: BotRole, tag: number, position: number): void {
    const segment = this.#segments[tag];
    if (!segment) return;
    if (segment.startSample === undefined && segment.duplex)
      this.#duplex?.lockstep.playing(role, segment.duplex.reply, position);
    segment.sent++;
    segment.startSample ??= position;
    segment.endSample = position + CHUNK_SAMPLES;
  }

  #drained(role: BotRole, tag: number): void {
    const segment = this.#segments[tag];
    if (!segment || !segment.stopped) return;
    if (segment.duplex) this.#duplex?.drained(role, segment.duplex, segment.startSample);
    const said = this.#said(segment);
    const turn: BotTurn = {
      text: said.trim(),
      interrupted: said.trim() === '' || segment.duplex?.cut === true,
      timing: this.#timing(segment),
    };
    this.#deliver(role, turn);
  }

  #timing(segment: OpenSegment): NonNullable<BotTurn['timing']> {
    const s = this.#segment(segment);
    return {
      start: s.start,
      end: s.end,
      ...(s.latencyMs !== undefined ? { latencyMs: s.latencyMs } : {}),
    };
  }

  /** A zero-length timing at the current position. */
  #instant(): NonNullable<BotTurn['timing']> {
    const now = seconds(this.#timeline.position);
    return { start: now, end: now };
  }

  /** `listener` heard `text`: it belongs to the other bot's latest segment. */
  #heard(listener: BotRole, text: string): void {
    const speaker = other(listener);
    const segment = this.#segments.findLast(
      (s) => s.role === speaker && s.startSample !== undefined,
    );
    if (segment) segment.heard.push(text);
    else this.#logLine('--', `the ${listener} bot heard "${text}" before the ${speaker} spoke`);
  }

  #deliver(role: BotRole, turn: BotTurn): void {
    const waiter = this.#waiter;
    if (waiter && waiter.role === role) {
      this.#waiter = undefined;
      waiter.resolve(turn);
    } else {
      this.#finished[role].push(turn);
    }
  }

  /** Has the bot `waiter` waits for started its turn (synthesizing, or a segment since)? */
  #started = ({ role, segmentsBefore }: Waiter) =>
    this.#synthesizing[role] || this.#segments.slice(segmentsBefore).some((s) => s.role === role);

  /** Time limits, on the audio clock. */
  #checkWaiter(): void {
    const waiter = this.#waiter;
    if (!waiter) return;
    const now = this.now();
    const open = this.#open[waiter.role];
    const stop = (reason: StopReason, turn: BotTurn) => {
      this.#waiter = undefined;
      this.#logLine('!!', `${reason}: the ${waiter.role} bot's turn`);
      waiter.resolve({ ...turn, stopReason: reason });
    };
    const maxTurnMs = this.#options.maxTurnMs ?? 600_000;
    if (open?.startSample !== undefined && now - seconds(open.startSample) * 1000 > maxTurnMs) {
      stop('[TURN_TOO_LONG]', {
        text: open.said.trim(),
        interrupted: true,
        timing: this.#timing(open),
      });
      return;
    }
    if (now >= waiter.deadline) {
      this.#waiter = undefined;
      waiter.resolve('timeout');
      return;
    }
    if (!this.#started(waiter) && performance.now() >= waiter.respondBy)
      stop('[NO_RESPONSE]', { text: '', interrupted: true });
  }

  /**
   * Has the relay stood still too long while `waiter`'s bot has the turn? Then nothing the relay
   * waits for can still come: a defect, not the bots' doing; the wait fails (retried).
   */
  #stoodStill(waiter: Waiter): boolean {
    const still = performance.now() - this.#movedAt;
    if (still < this.#stillMs(waiter.role)) return false;
    this.#waiter = undefined;
    const wait = describeWait(waiter, this.#segments, this.#synthesizing, this.#ears);
    const state = `${wait}; timeline ${this.#timeline.describe()}`;
    this.#logLine('!!', `the relay stood still: ${state}`);
    const s = Math.round(still / 1000);
    const turn = `the ${waiter.role} bot's turn under way (${state})`;
    waiter.reject(new Error(`timed out: the relay stood still for ${s} s with ${turn}`));
    return true;
  }
}

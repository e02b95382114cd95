/**
 * The caller's line: what happens to the user bot's speech on its way to the agent, and what the
 * caller does besides its turns. One per scenario, seeded, fed every step of the relay in order,
 * so the same seed gives the same bytes and the same events on every run.
 *
 * - Effects: each chunk of the user->agent stream, speech or silence, goes through a
 *   {@link CallerEffectsProcessor} (telephony, frame drops, noise, muffling, tics, non-directed
 *   phrases); what it returns is what the agent hears and what is recorded.
 * - Backchannels: once the agent has been speaking for the config's `backchannel_min_threshold`
 *   seconds, the caller says "mm-hmm", "okay" or "right" (in its own voice) while the agent goes
 *   on, each time with a chance of {@link BACKCHANNEL_CHANCE}. With `use_llm_backchannel` (where
 *   tau2 asks its user model whether a continuer fits what the agent has said so far), the moments
 *   are a listener's: the start of an agent sentence, when {@link continuerFits} the sentences
 *   the agent has finished in its turn. Otherwise (tau2's Poisson policy) they are seeded moments
 *   of audio time, whatever is being said.
 * - Interruptions: a caller whose persona `interrupts` (with `enable_interruptions`) starts its
 *   next utterance before the agent finishes, in a seeded share of the agent's longer turns: from
 *   a seeded moment the user bot stops hearing the agent (it is sent silence: a caller about to
 *   talk over someone stops listening), so it takes its turn on what it heard so far; the relay
 *   holds the timeline a listener's tail later until that answer comes, and it goes out while the
 *   agent may still be speaking. The user bot hears again once that utterance has ended.
 *
 * Every injected behaviour is an event `{kind, start, end, detail}` on the timeline, beside the
 * processor's.
 *
 * @module
 */
import type { CallerEffects } from '../caller/config.js';
import { CallerEffectsProcessor } from '../caller/processor.js';
import { Prng } from '../caller/prng.js';
import type { CallerSounds } from '../caller/sound-bank.js';
import type { Chunk, StepFilter, StepOutput } from './audio-timeline.js';
import { CHUNK_SAMPLES, RELAY_SAMPLE_RATE, SILENCE_CHUNK } from './audio-timeline.js';
import type { CallerBehaviourEvent, CallerLineEvent } from './caller-events.js';
import type { BotRole } from './types.js';

export type { CallerBehaviourEvent, CallerLineEvent } from './caller-events.js';

/** What the caller says while the agent talks. */
export const BACKCHANNEL_TEXTS = ['mm-hmm', 'okay', 'right'] as const;
/** Chance that the caller backchannels at each of its moments. */
export const BACKCHANNEL_CHANCE = 0.6;
/** Seconds between a caller's backchannel moments in one agent turn, drawn uniformly. */
export const BACKCHANNEL_GAP_S: readonly [number, number] = [4, 7];
/** Chance that an interrupting caller interrupts one agent turn. */
export const INTERRUPT_CHANCE = 0.35;
/** Seconds into an agent turn at which such a caller cuts in, drawn uniformly. */
export const INTERRUPT_AFTER_S: readonly [number, number] = [2.5, 5];
/** Backchannel moments planned per agent turn (a fixed number of draws). */
const BACKCHANNEL_SLOTS = 6;
/** Words that make an agent sentence substantive for a listener's continuer. */
export const SUBSTANTIVE_WORDS = 5;

/**
 * A listener's continuer fits after the agent's finished sentences `said` (its turn so far),
 * `since` of them having come after the caller's last backchannel in that turn (all of them
 * when there was none): the turn has no question in it, and at least two substantive sentences
 * (of {@link SUBSTANTIVE_WORDS} words or more) came since the turn began, four since a
 * backchannel. The rules of tau2's continuer prompt ("at least 2 full, substantive sentences",
 * "no question", "roughly one continuer per 4-6 sentences") without its model.
 */
export function continuerFits(said: readonly string[], since: number): boolean {
  if (said.some((text) => text.includes('?'))) return false;
  const substantive = said
    .slice(said.length - since)
    .filter((text) => text.trim().split(/\s+/).length >= SUBSTANTIVE_WORDS).length;
  return substantive >= (since === said.length ? 2 : 4);
}

export interface CallerLineOptions {
  effects: CallerEffects;
  seed: number;
  /** The effects' sounds, at the relay's rate. */
  sounds: CallerSounds;
  /** The caller's backchannels in its own voice: PCM16 mono at the relay's rate, by text. */
  backchannels: ReadonlyMap<string, Uint8Array>;
  /** The silence a listener needs after speech before it answers, in chunks. */
  tailChunks: number;
  /**
   * The sentences of the agent's segment `tag` whose audio is in, each with the chunks of the
   * segment queued by its end: where a listener's backchannels may go (`use_llm_backchannel`).
   */
  agentSentences?: (tag: number) => readonly { text: string; chunks: number }[];
}

/** The moments planned for one agent turn. */
interface TurnPlan {
  tag: number;
  start: number;
  backchannels: number[];
  interruptAt: number | undefined;
  /** Chunks of the turn played before this step. */
  played: number;
  /** Sentences of the turn played to their end. */
  finished: number;
  /** Sentences finished when the caller last backchannelled in the turn. */
  lastBackchannel: number | undefined;
}

const seconds = (position: number) => position / RELAY_SAMPLE_RATE;
const samples = (s: number) => Math.round(s * RELAY_SAMPLE_RATE);

/** The caller's line of one scenario (a {@link StepFilter} of the relay's timeline). */
export class CallerLine implements StepFilter {
  readonly #options: CallerLineOptions;
  readonly #processor: CallerEffectsProcessor;
  readonly #rng: Prng;
  /** The listener's draws (`use_llm_backchannel`), apart so the other moments stay as they are. */
  readonly #listener: Prng;
  readonly #events: CallerLineEvent[] = [];
  #plan: TurnPlan | undefined;
  #insert: { pcm: Uint8Array; offset: number; event: CallerBehaviourEvent } | undefined;
  #insertTail = 0;
  /** An interruption under way: the user bot has stopped hearing the agent, its answer is due. */
  #cutIn: { at: number; turnStart: number; holdAt: number } | undefined;
  #userTag: number | undefined;
  /** The answer that interrupts the agent, while it is spoken, and its segment. */
  #interruption:
    { event: Extract<CallerBehaviourEvent, { kind: 'interruption' }>; tag: number } | undefined;
  #finished = false;

  constructor(options: CallerLineOptions) {
    this.#options = options;
    if (options.sounds.sampleRate !== RELAY_SAMPLE_RATE)
      throw new RangeError(`the caller's sounds must be at ${RELAY_SAMPLE_RATE} Hz`);
    this.#processor = new CallerEffectsProcessor({
      effects: options.effects,
      seed: options.seed,
      sounds: options.sounds,
    });
    this.#rng = Prng.stream(options.seed, 'caller-behaviour');
    this.#listener = Prng.stream(options.seed, 'caller-listener');
  }

  /** The events so far (all of them once {@link finish} was called), in order of their end. */
  get events(): readonly CallerLineEvent[] {
    return this.#events;
  }

  /** An interruption waits for the user bot's answer. */
  get holding(): boolean {
    return this.#cutIn !== undefined;
  }

  /** Where an interruption under way holds the timeline for the user bot's answer. */
  get holdAt(): number | undefined {
    return this.#cutIn?.holdAt;
  }

  /** What the line waits for, in a few words (for a diagnostic). */
  describe(): string | undefined {
    const cutIn = this.#cutIn;
    return cutIn && `the caller's cut-in holds at ${cutIn.holdAt} for the user bot's answer`;
  }

  /** The user bot will not answer the interruption (it heard nothing, or said nothing). */
  release(): void {
    this.#cutIn = undefined;
  }

  /** End of the stream: the events still going on end here. */
  finish(): readonly CallerLineEvent[] {
    if (!this.#finished) {
      this.#finished = true;
      this.#events.push(...this.#processor.finish());
      this.#closeInterruption();
    }
    return this.#events;
  }

  step(position: number, user: Chunk | undefined, agent: Chunk | undefined): StepOutput {
    const agentTag = agent?.tag;
    if (agentTag !== undefined && agentTag !== this.#plan?.tag)
      this.#plan = this.#planTurn(agentTag, position);
    this.#followUser(position, user, agentTag !== undefined);
    const plan = agentTag !== undefined ? this.#plan : undefined;
    const sentenceStarts = plan !== undefined && this.#sentenceEnded(plan);
    if (plan && !user && !this.#insert && !this.#cutIn) this.#behave(position, sentenceStarts);
    if (plan) plan.played++;
    let pcm = user?.pcm;
    const insert = this.#insert;
    if (insert) {
      const part = insert.pcm.subarray(insert.offset, insert.offset + CHUNK_SAMPLES * 2);
      pcm = pcm ? mix(pcm, part) : padded(part);
      insert.offset += CHUNK_SAMPLES * 2;
      if (insert.offset >= insert.pcm.length) {
        insert.event.end = seconds(position) + part.length / 2 / RELAY_SAMPLE_RATE;
        this.#events.push(insert.event);
        this.#insert = undefined;
        this.#insertTail = this.#options.tailChunks;
      }
    } else if (this.#insertTail > 0) this.#insertTail--;
    const processed = this.#processor.processPcm16(pcm ?? SILENCE_CHUNK, {
      speaking: pcm !== undefined,
    });
    this.#events.push(...processed.events);
    const muted =
      this.#cutIn !== undefined ||
      (user?.tag !== undefined && user.tag === this.#interruption?.tag);
    return {
      toAgent: processed.pcm,
      toUser: muted ? SILENCE_CHUNK : (agent?.pcm ?? SILENCE_CHUNK),
      agentRecord: agent?.pcm ?? SILENCE_CHUNK,
    };
  }

  mayStep(position: number, queued: Record<BotRole, boolean>): boolean {
    const cutIn = this.#cutIn;
    return !cutIn || queued.user || position < cutIn.holdAt;
  }

  mayStart(source: BotRole, position: number): boolean {
    const cutIn = this.#cutIn;
    return source !== 'user' || !cutIn || position >= cutIn.holdAt;
  }

  busy(): boolean {
    return this.#insert !== undefined || this.#insertTail > 0;
  }

  /** The moments of one agent turn, drawn when it starts (always the same number of draws). */
  #planTurn(tag: number, start: number): TurnPlan {
    const { effects } = this.#options;
    const rng = this.#rng;
    const backchannels: number[] = [];
    let at = (effects.backchannel_min_threshold ?? 0) + rng.uniform(0, 1);
    for (let i = 0; i < BACKCHANNEL_SLOTS; i++) {
      const take = rng.chance(BACKCHANNEL_CHANCE);
      if (take && effects.backchannel_min_threshold !== null)
        backchannels.push(start + samples(at));
      at += rng.uniform(BACKCHANNEL_GAP_S[0], BACKCHANNEL_GAP_S[1]);
    }
    const interrupts =
      effects.enable_interruptions && effects.persona_config.interrupt_tendency === 'interrupts';
    const cutIn = rng.chance(INTERRUPT_CHANCE);
    const after = rng.uniform(INTERRUPT_AFTER_S[0], INTERRUPT_AFTER_S[1]);
    return {
      tag,
      start,
      backchannels,
      interruptAt: interrupts && cutIn ? start + samples(after) : undefined,
      played: 0,
      finished: 0,
      lastBackchannel: undefined,
    };
  }

  /** While the agent speaks and the caller is quiet: a backchannel or an interruption, when due. */
  #behave(position: number, sentenceStarts: boolean): void {
    const plan = this.#plan;
    if (!plan) return;
    if (plan.interruptAt !== undefined && position >= plan.interruptAt) {
      plan.interruptAt = undefined;
      plan.backchannels = [];
      this.#cutIn = {
        at: position,
        turnStart: plan.start,
        holdAt: position + this.#options.tailChunks * CHUNK_SAMPLES,
      };
      return;
    }
    if (this.#options.effects.use_llm_backchannel) {
      if (sentenceStarts) this.#listen(plan, position);
      return;
    }
    while (plan.backchannels.length > 0 && plan.backchannels[0]! <= position) {
      plan.backchannels.shift();
      if (this.#backchannel(this.#rng, position)) return;
    }
  }

  /** Did a sentence of the agent's turn end before this step (with `use_llm_backchannel`)? */
  #sentenceEnded(plan: TurnPlan): boolean {
    if (!this.#options.effects.use_llm_backchannel) return false;
    const sentences = this.#options.agentSentences?.(plan.tag) ?? [];
    let finished = plan.finished;
    while (finished < sentences.length && sentences[finished]!.chunks <= plan.played) finished++;
    const ended = finished > plan.finished;
    plan.finished = finished;
    return ended;
  }

  /** A listener's backchannel at the start of an agent sentence, when one fits. */
  #listen(plan: TurnPlan, position: number): void {
    const threshold = this.#options.effects.backchannel_min_threshold;
    if (threshold === null || plan.played * CHUNK_SAMPLES < samples(threshold)) return;
    const sentences = this.#options.agentSentences?.(plan.tag) ?? [];
    const said = sentences.slice(0, plan.finished).map((s) => s.text);
    if (!continuerFits(said, plan.finished - (plan.lastBackchannel ?? 0))) return;
    if (!this.#listener.chance(BACKCHANNEL_CHANCE)) return;
    if (this.#backchannel(this.#listener, position)) plan.lastBackchannel = plan.finished;
  }

  /** Starts saying a backchannel drawn with `rng` at `position`; false: none to say. */
  #backchannel(rng: Prng, position: number): boolean {
    const text = rng.pick(BACKCHANNEL_TEXTS);
    const pcm = this.#options.backchannels.get(text);
    if (!pcm || pcm.length === 0) return false;
    const start = seconds(position);
    this.#insert = {
      pcm,
      offset: 0,
      event: { kind: 'backchannel', start, end: start, detail: { text } },
    };
    return true;
  }

  /** The user bot's own speech: an interruption's answer starting, going on, ending. */
  #followUser(position: number, user: Chunk | undefined, agentSpeaking: boolean): void {
    const tag = user?.tag;
    if (tag === undefined || tag === this.#userTag) {
      const open = this.#interruption;
      if (open && tag === open.tag) open.event.end = seconds(position + CHUNK_SAMPLES);
      else if (open) this.#closeInterruption();
      return;
    }
    this.#userTag = tag;
    this.#closeInterruption();
    const cutIn = this.#cutIn;
    if (!cutIn) return;
    this.#cutIn = undefined;
    // The answer counts as an interruption when the agent is still speaking as it starts.
    if (!agentSpeaking) return;
    this.#interruption = {
      tag,
      event: {
        kind: 'interruption',
        start: seconds(position),
        end: seconds(position + CHUNK_SAMPLES),
        detail: { cutInAt: seconds(cutIn.at - cutIn.turnStart) },
      },
    };
  }

  #closeInterruption(): void {
    const open = this.#interruption;
    if (!open) return;
    this.#interruption = undefined;
    this.#events.push(open.event);
  }
}

function padded(part: Uint8Array): Uint8Array {
  if (part.length === CHUNK_SAMPLES * 2) return part;
  const chunk = new Uint8Array(CHUNK_SAMPLES * 2);
  chunk.set(part);
  return chunk;
}

/** Two PCM16 chunks added (clipped); the result has the first one's length. */
function mix(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  const x = new DataView(a.buffer, a.byteOffset, a.byteLength);
  const y = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const z = new DataView(out.buffer);
  for (let i = 0; i + 1 < a.length; i += 2) {
    const extra = i + 1 < b.length ? y.getInt16(i, true) : 0;
    z.setInt16(i, Math.max(-32768, Math.min(32767, x.getInt16(i, true) + extra)), true);
  }
  return out;
}

/**
 * The audio relay's bookkeeping (`audio-relay.ts`): a segment while it is spoken and relayed,
 * what a bot reported hearing, a wait for a bot to take its turn, and what is read off them (an
 * agent segment's latency, a wait's state).
 *
 * @module
 */
import type { DuplexSegment } from './duplex.js';
import { RELAY_SAMPLE_RATE } from './timeline-stream.js';
import type { BotRole, BotTurn } from './types.js';

/** A segment while it is being spoken and relayed. */
export interface OpenSegment {
  tag: number;
  role: BotRole;
  said: string;
  heard: string[];
  startSample?: number;
  endSample?: number;
  /** Where the timeline was when its first audio reached the relay. */
  arrivalSample?: number;
  stopped: boolean;
  /** Utterances the other bot had heard when the segment began. */
  earsAtStart: number;
  /** Chunks relayed. */
  sent: number;
  duplex?: DuplexSegment;
}

/** What a bot reported hearing: its VAD's utterances and its final transcripts. */
export interface Ears {
  speaking: boolean;
  utterances: number;
  finals: number;
}

/** Ears that have heard nothing yet. */
export const newEars = (): Ears => ({ speaking: false, utterances: 0, finals: 0 });

export interface Waiter {
  role: BotRole;
  deadline: number;
  /** When (`performance.now()`) the bot must have started speaking. */
  respondBy: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Segments before the wait began. */
  segmentsBefore: number;
  resolve: (turn: BotTurn | 'timeout') => void;
  /** The wait failed (the relay stood still: see `AudioRelay`). */
  reject: (err: Error) => void;
}

/**
 * The latency of agent segment `s`: from the end of the user's previous speech to the agent's
 * first audio reaching the relay (the relay's own jitter buffer and grid are not the agent's
 * doing); undefined for a user segment, one not played, or one answering speech already answered.
 */
export function agentLatency(segments: readonly OpenSegment[], s: OpenSegment): number | undefined {
  if (s.role !== 'agent' || s.startSample === undefined) return undefined;
  const before = segments
    .filter((p) => p.role === 'user' && p.endSample !== undefined)
    .filter((p) => (p.startSample ?? 0) < (s.startSample ?? 0));
  const previous = before.at(-1);
  if (!previous || previous.endSample === undefined) return undefined;
  // A user segment the agent already answered does not count twice.
  const answered = segments.some(
    (p) =>
      p.role === 'agent' &&
      p !== s &&
      p.startSample !== undefined &&
      p.startSample > (previous.startSample ?? 0) &&
      p.startSample < (s.startSample ?? 0),
  );
  if (answered) return undefined;
  const first = Math.min(s.arrivalSample ?? s.startSample, s.startSample);
  return ((first - previous.endSample) * 1000) / RELAY_SAMPLE_RATE;
}

/** The turn `waiter` waits for, in a few words (for a diagnostic). */
export function describeWait(
  waiter: Waiter,
  segments: readonly OpenSegment[],
  synthesizing: Record<BotRole, boolean>,
  ears: Record<BotRole, Ears>,
): string {
  const since = segments.slice(waiter.segmentsBefore).map((s) => {
    const state = `${s.stopped ? ' stopped' : ''}${s.startSample === undefined ? ' unplayed' : ''}`;
    return `${s.role} ${s.tag}${state}`;
  });
  const heard = (role: BotRole) => {
    const e = ears[role];
    return `${role} heard ${e.utterances} utterances, ${e.finals} finals${e.speaking ? ', hearing' : ''}`;
  };
  return [
    `segments since the wait began: ${since.join(', ') || 'none'}`,
    ...(['agent', 'user'] as const)
      .filter((role) => synthesizing[role])
      .map((role) => `${role} synthesizing`),
    heard('agent'),
    heard('user'),
  ].join('; ');
}

/** Wall time a bot has to start speaking, ms (see `AudioRelayOptions.responseTimeoutMs`). */
export const RESPONSE_MS = 30_000;
/** The same on the fast clock while the bot may still be decoding or synthesizing at length. */
export const SLOW_RESPONSE_MS = 120_000;
/** Wall time past the relay's longest rule before a relay that stands still fails the wait. */
const STILL_MARGIN_MS = 60_000;

/**
 * The wall time `role` has to start speaking, from now: `fixed` when given; else
 * {@link RESPONSE_MS} once it has heard out the other bot's last segment (`ears`), and while it
 * may still be decoding it, at least as long as that took to say.
 */
export function responseMs(
  role: BotRole,
  segments: readonly OpenSegment[],
  ears: Ears,
  fixed: number | undefined,
): number {
  if (fixed !== undefined) return fixed;
  const heard = segments.findLast((s) => s.role !== role);
  if (heardOut(ears, heard?.earsAtStart ?? -1)) return RESPONSE_MS;
  const said =
    heard?.startSample === undefined || heard.endSample === undefined
      ? 0
      : ((heard.endSample - heard.startSample) * 1000) / RELAY_SAMPLE_RATE;
  return Math.max(SLOW_RESPONSE_MS, said);
}

/**
 * Wall time the relay may stand still (no audio relayed, no bot event) while a bot has the turn
 * before the wait fails: longer than any wait the relay has a rule for (a bot's time to start
 * speaking, `response`; a speaking bot's time to deliver its next audio, `responseTimeoutMs`;
 * a bot's silent ears).
 */
export function stillMs(responseTimeoutMs: number | undefined, response: number): number {
  return Math.max(responseTimeoutMs ?? SLOW_RESPONSE_MS, response) + STILL_MARGIN_MS;
}

/**
 * Has a bot with `ears` heard out speech that began when it had heard `since` utterances: its VAD
 * heard more since and has stopped, and each utterance has its final transcript?
 */
export function heardOut(ears: Ears, since: number): boolean {
  return ears.utterances > since && !ears.speaking && ears.finals >= ears.utterances;
}

/** Resolves once `done()` holds or after `ms` of wall time, looking every 20 ms. */
export async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (!done() && performance.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Dead air: the stretches of the conversation where neither side speaks (caller events that are
 * speech count as speech; noise bursts do not). Measured over the whole conversation, and again
 * leaving out the response gaps (a caller turn's end to the start of the agent's answer), which
 * are expected silences.
 *
 * @module
 */
import { measureFigure, measuredRate } from './figures.js';
import { EPS } from './timeline.js';
import type { DeadAir, DeadAirStats, TimeSpan } from './types.js';

export const NO_CONVERSATION = 'the conversation has no length';

/** The silent gaps of `[start, end]` around `speech`. */
export function silentGaps(speech: readonly TimeSpan[], start: number, end: number): TimeSpan[] {
  const gaps: TimeSpan[] = [];
  let cursor = start;
  for (const s of [...speech].sort((a, b) => a.start - b.start || a.end - b.end)) {
    if (s.start > cursor + EPS) gaps.push({ start: cursor, end: Math.min(s.start, end) });
    cursor = Math.max(cursor, s.end);
    if (cursor >= end) break;
  }
  if (end > cursor + EPS) gaps.push({ start: cursor, end });
  return gaps.filter((g) => g.end - g.start > EPS);
}

function stats(lengths: readonly number[], conversation: number, longGap: number): DeadAirStats {
  const none = conversation <= EPS;
  const total = lengths.reduce((s, g) => s + g, 0);
  const n = lengths.length;
  return {
    total_seconds: measureFigure(none ? null : total, n, 'seconds', NO_CONVERSATION),
    fraction: measuredRate(total, conversation, n, NO_CONVERSATION),
    longest_seconds: measureFigure(
      none ? null : Math.max(0, ...lengths),
      n,
      'seconds',
      NO_CONVERSATION,
    ),
    long_gaps: measureFigure(
      none ? null : lengths.filter((g) => g > longGap + EPS).length,
      n,
      'count',
      NO_CONVERSATION,
    ),
  };
}

/** Dead air of one conversation. */
export function deadAir(
  speech: readonly TimeSpan[],
  start: number,
  end: number,
  responseGaps: readonly TimeSpan[],
  longGap: number,
): DeadAir {
  const conversation = Math.max(0, end - start);
  const gaps = silentGaps(speech, start, end);
  const inResponse = (g: TimeSpan): boolean =>
    responseGaps.some((r) => g.start >= r.start - EPS && g.end <= r.end + EPS);
  const length = (g: TimeSpan): number => g.end - g.start;
  return {
    conversation_seconds: Math.round(conversation * 1e6) / 1e6,
    all: stats(gaps.map(length), conversation, longGap),
    excluding_response_gaps: stats(
      gaps.filter((g) => !inResponse(g)).map(length),
      conversation,
      longGap,
    ),
  };
}

function poolStats(list: readonly DeadAirStats[], conversation: number): DeadAirStats {
  const have = list.filter((s) => s.total_seconds.value !== null);
  const sum = (pick: (s: DeadAirStats) => number | null): number =>
    have.reduce((n, s) => n + (pick(s) ?? 0), 0);
  const count = have.reduce((n, s) => n + s.total_seconds.count, 0);
  const none = have.length === 0;
  const total = sum((s) => s.total_seconds.value);
  return {
    total_seconds: measureFigure(none ? null : total, count, 'seconds', NO_CONVERSATION),
    fraction: measuredRate(total, conversation, count, NO_CONVERSATION),
    longest_seconds: measureFigure(
      none ? null : Math.max(...have.map((s) => s.longest_seconds.value ?? 0)),
      count,
      'seconds',
      NO_CONVERSATION,
    ),
    long_gaps: measureFigure(
      none ? null : sum((s) => s.long_gaps.value),
      count,
      'count',
      NO_CONVERSATION,
    ),
  };
}

/** Dead air of several conversations: seconds and gaps summed, the longest gap the longest. */
export function poolDeadAir(list: readonly DeadAir[]): DeadAir {
  const measured = list.filter((d) => d.all.total_seconds.value !== null);
  const conversation = measured.reduce((n, d) => n + d.conversation_seconds, 0);
  return {
    conversation_seconds: Math.round(conversation * 1e6) / 1e6,
    all: poolStats(
      measured.map((d) => d.all),
      conversation,
    ),
    excluding_response_gaps: poolStats(
      measured.map((d) => d.excluding_response_gaps),
      conversation,
    ),
  };
}

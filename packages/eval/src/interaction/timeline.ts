/**
 * Normalising a timeline: the agent's speech merged into spans, the caller's speech and events
 * grouped into utterances and classified, and the conversation's extent. Also the adapter from
 * an audio-mode recording.
 *
 * @module
 */
import { countOf } from './figures.js';
import type { AudioRecord } from '../bridge/types.js';
import type {
  AgentSpeech,
  CallerEvent,
  CallerSpeech,
  InteractionTimeline,
  TimeSpan,
  ToolCall,
} from './types.js';

/** Tolerance for comparing times, seconds. */
export const EPS = 1e-9;

/** Event kinds that classify an utterance, highest priority first. */
export const PRIORITY = ['backchannel', 'vocal_tic', 'non_directed', 'interruption'] as const;

export type ScoredKind = (typeof PRIORITY)[number];

/** What a caller utterance counts as. `turn`: real speech with no event on it. */
export type UtteranceKind = ScoredKind | 'turn';

/** The agent speaking without a break (touching segments merged). */
export interface AgentSpan extends TimeSpan {
  /** The segment that ended the span was marked cut short. */
  cutShort: boolean;
}

/** Caller speech and scored events that overlap or touch, as one utterance. */
export interface Utterance extends TimeSpan {
  kind: UtteranceKind;
  text: string;
}

export interface NormalTimeline {
  spans: AgentSpan[];
  utterances: Utterance[];
  /** Every stretch of speech (both sides, scored events included), for dead air. */
  speech: TimeSpan[];
  /** Tool call times, sorted; undefined when not recorded. */
  toolCalls: number[] | undefined;
  start: number;
  end: number;
  /** Input events by kind. */
  eventKinds: Record<string, number>;
}

export function isScoredKind(kind: string): kind is ScoredKind {
  return (PRIORITY as readonly string[]).includes(kind);
}

function checkSpan(span: TimeSpan, what: string): void {
  const { start, end } = span;
  if (!Number.isFinite(start) || !Number.isFinite(end) || end < start)
    throw new RangeError(
      `${what}: start and end must be finite seconds with start <= end (got ${String(start)}..${String(end)})`,
    );
}

function byTime(a: TimeSpan, b: TimeSpan): number {
  return a.start - b.start || a.end - b.end;
}

/** Merge agent segments that overlap or touch into spans. */
export function agentSpans(agent: readonly AgentSpeech[]): AgentSpan[] {
  agent.forEach((s) => checkSpan(s, 'agent speech'));
  const spans: AgentSpan[] = [];
  for (const s of [...agent].sort(byTime)) {
    const last = spans.at(-1);
    const cutShort = s.cutShort === true;
    if (!last || s.start > last.end + EPS) {
      spans.push({ start: s.start, end: s.end, cutShort });
    } else if (s.end > last.end + EPS) {
      last.end = s.end;
      last.cutShort = cutShort;
    } else if (s.end >= last.end - EPS) {
      last.cutShort = last.cutShort || cutShort;
    }
  }
  return spans;
}

interface Piece extends TimeSpan {
  text: string;
  kind: ScoredKind | undefined;
}

/**
 * Group caller speech and scored events that overlap or touch into utterances. An utterance's
 * kind is the highest-priority event kind on it (backchannel > vocal tic > non-directed >
 * interruption), or `turn` when no event is on it.
 */
export function callerUtterances(
  caller: readonly CallerSpeech[],
  events: readonly CallerEvent[],
): Utterance[] {
  caller.forEach((s) => checkSpan(s, 'caller speech'));
  events.forEach((e) => checkSpan(e, `caller event ${String(e.kind)}`));
  const pieces: Piece[] = [
    ...caller.map((s) => ({ start: s.start, end: s.end, text: s.text ?? '', kind: undefined })),
    ...events
      .filter((e) => isScoredKind(e.kind))
      .map((e) => ({
        start: e.start,
        end: e.end,
        text: e.text ?? '',
        kind: e.kind as ScoredKind,
      })),
  ].sort(byTime);
  const groups: Piece[][] = [];
  let groupEnd = -Infinity;
  for (const piece of pieces) {
    const group = groups.at(-1);
    if (group && piece.start <= groupEnd + EPS) {
      group.push(piece);
      groupEnd = Math.max(groupEnd, piece.end);
    } else {
      groups.push([piece]);
      groupEnd = piece.end;
    }
  }
  return groups.map((group) => {
    const kinds = new Set(group.map((p) => p.kind));
    const kind = PRIORITY.find((k) => kinds.has(k)) ?? 'turn';
    // The caller's own words when it has any; otherwise the events' texts.
    const spoken = group.filter((p) => p.kind === undefined && p.text !== '');
    const texts = (spoken.length > 0 ? spoken : group).map((p) => p.text).filter(Boolean);
    return {
      start: Math.min(...group.map((p) => p.start)),
      end: Math.max(...group.map((p) => p.end)),
      kind,
      text: texts.join(' '),
    };
  });
}

/** Check and normalise a timeline. */
export function normaliseTimeline(timeline: InteractionTimeline): NormalTimeline {
  const events = timeline.events ?? [];
  const spans = agentSpans(timeline.agent);
  const utterances = callerUtterances(timeline.caller, events);
  const eventKinds = countOf(events.map((e) => String(e.kind)));
  const toolCalls = timeline.toolCalls?.map((call: ToolCall) => {
    if (!Number.isFinite(call.at)) throw new RangeError('tool call: at must be finite seconds');
    return call.at;
  });
  toolCalls?.sort((a, b) => a - b);
  const speech: TimeSpan[] = [...spans, ...utterances].sort(byTime);
  const ends = [...speech, ...events].map((s) => s.end);
  const starts = [...speech, ...events].map((s) => s.start);
  for (const [name, value] of [
    ['start', timeline.start],
    ['end', timeline.end],
  ] as const)
    if (value !== undefined && !Number.isFinite(value))
      throw new RangeError(`timeline ${name} must be finite seconds`);
  const start = Math.min(timeline.start ?? 0, ...starts);
  const end = Math.max(timeline.end ?? start, ...ends);
  return { spans, utterances, speech, toolCalls, start, end, eventKinds };
}

/** The agent span `t` falls strictly inside (the agent started before `t` and goes on after). */
export function spanAround(spans: readonly AgentSpan[], t: number): AgentSpan | undefined {
  return spans.find((s) => s.start < t - EPS && t < s.end - EPS);
}

/** The first agent span starting at or after `t`. */
export function spanFrom(spans: readonly AgentSpan[], t: number): AgentSpan | undefined {
  return spans.find((s) => s.start >= t - EPS);
}

/** Extras for {@link timelineFromAudio}: what the recording itself does not hold. */
export interface TimelineExtras {
  events?: readonly CallerEvent[];
  toolCalls?: readonly ToolCall[];
}

/**
 * The timeline of an audio-mode recording: user segments become caller speech, agent segments
 * agent speech (`interrupted` marks them cut short), and the recording's length its end.
 */
export function timelineFromAudio(
  audio: Pick<AudioRecord, 'segments' | 'userToAgent' | 'sampleRate'>,
  extras: TimelineExtras = {},
): InteractionTimeline {
  const bytes = audio.userToAgent.reduce((n, chunk) => n + chunk.length, 0);
  const caller: CallerSpeech[] = [];
  const agent: AgentSpeech[] = [];
  for (const s of audio.segments) {
    if (s.role === 'user') caller.push({ start: s.start, end: s.end, text: s.said });
    else agent.push({ start: s.start, end: s.end, text: s.said, cutShort: s.interrupted === true });
  }
  const timeline: InteractionTimeline = { caller, agent, start: 0 };
  if (audio.sampleRate > 0 && bytes > 0) timeline.end = bytes / 2 / audio.sampleRate;
  if (extras.events) timeline.events = extras.events;
  if (extras.toolCalls) timeline.toolCalls = extras.toolCalls;
  return timeline;
}

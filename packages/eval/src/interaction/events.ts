/**
 * Scoring a normalised timeline: one event per caller turn that could be answered (response),
 * per caller interruption (yield), per backchannel, vocal tic and non-directed utterance
 * (selectivity) and per agent start inside real caller speech (agent interruption).
 *
 * Windows are inclusive: stopping exactly at the window's end still counts as stopping within
 * it. An outcome the recording ends before deciding is `unscored`, with the reason.
 *
 * @module
 */
import { EPS, spanAround, spanFrom } from './timeline.js';
import type { AgentSpan, NormalTimeline, Utterance } from './timeline.js';
import type { InteractionWindows, ScoredEvent, TimeSpan } from './types.js';

export const UNSCORED = {
  lastTurn: 'the conversation ended before anyone spoke again',
  windowCut: 'the recording ended inside the window',
  silentBackchannel: 'backchannel while the agent was silent',
  noAgent: 'no agent speech',
} as const;

/** What scoring found: the events, and the response gaps (turn end to response start). */
export interface Scoring {
  events: ScoredEvent[];
  responseGaps: TimeSpan[];
}

type Stop = { decided: true; stopped: boolean; at: number } | { decided: false };

/**
 * Did the agent's span stop within `window` of `t`? A span that runs to the end of the
 * recording has no observed stop; the answer is then "no" only if the window fits in the
 * recording.
 */
function stopWithin(span: AgentSpan, t: number, window: number, end: number): Stop {
  const observed = span.end < end - EPS;
  if (observed) return { decided: true, stopped: span.end - t <= window + EPS, at: span.end };
  if (end - t > window + EPS) return { decided: true, stopped: false, at: span.end };
  return { decided: false };
}

function isReal(u: Utterance): boolean {
  return u.kind === 'turn' || u.kind === 'interruption';
}

function withText(event: ScoredEvent, text: string): ScoredEvent {
  return text === '' ? event : { ...event, text };
}

function responses(tl: NormalTimeline, out: Scoring): void {
  const { spans, toolCalls } = tl;
  const eligible = tl.utterances.filter((u) => isReal(u) && !spanAround(spans, u.end));
  eligible.forEach((u, i) => {
    const agent = spanFrom(spans, u.end);
    const next = eligible[i + 1];
    if (agent && (!next || agent.start <= next.start + EPS)) {
      const event: ScoredEvent = {
        category: 'response',
        outcome: 'response',
        at: u.end,
        latency: agent.start - u.end,
      };
      if (toolCalls)
        event.tool_turn = toolCalls.some((t) => t >= u.start - EPS && t <= agent.start + EPS);
      out.events.push(withText(event, u.text));
      out.responseGaps.push({ start: u.end, end: agent.start });
    } else if (next) {
      out.events.push(
        withText({ category: 'response', outcome: 'no_response', at: u.end }, u.text),
      );
    } else {
      out.events.push(
        withText(
          { category: 'response', outcome: 'unscored', at: u.end, reason: UNSCORED.lastTurn },
          u.text,
        ),
      );
    }
  });
}

/** After a yield: from the floor being free to the agent's next speech, if before the caller's. */
function recovery(tl: NormalTimeline, u: Utterance, stop: number): number | undefined {
  const free = Math.max(u.end, stop);
  const agent = spanFrom(tl.spans, free);
  if (!agent) return undefined;
  const caller = tl.utterances.find((c) => isReal(c) && c.start >= free - EPS);
  return !caller || agent.start <= caller.start + EPS ? agent.start - free : undefined;
}

function yields(tl: NormalTimeline, w: InteractionWindows, out: Scoring): void {
  for (const u of tl.utterances.filter(isReal)) {
    const span = spanAround(tl.spans, u.start);
    if (!span) continue;
    const stop = stopWithin(span, u.start, w.no_yield_window_sec, tl.end);
    let event: ScoredEvent;
    if (!stop.decided) {
      event = { category: 'yield', outcome: 'unscored', at: u.start, reason: UNSCORED.windowCut };
    } else if (!stop.stopped) {
      event = { category: 'yield', outcome: 'no_yield', at: u.start };
    } else {
      event = {
        category: 'yield',
        outcome: 'yield',
        at: u.start,
        latency: stop.at - u.start,
        cut_short: span.cutShort,
      };
      const back = recovery(tl, u, stop.at);
      if (back !== undefined) event.recovery = back;
    }
    out.events.push(withText(event, u.text));
  }
}

function selectivity(tl: NormalTimeline, w: InteractionWindows, out: Scoring): void {
  for (const u of tl.utterances) {
    if (isReal(u)) continue;
    const category = u.kind as 'backchannel' | 'vocal_tic' | 'non_directed';
    const span = spanAround(tl.spans, u.start);
    let event: ScoredEvent;
    if (span) {
      const window = w[`${category}_yield_window_sec`];
      const stop = stopWithin(span, u.start, window, tl.end);
      event = stop.decided
        ? { category, outcome: stop.stopped ? 'error' : 'correct', at: u.start }
        : { category, outcome: 'unscored', at: u.start, reason: UNSCORED.windowCut };
      event.agent = 'speaking';
      if (event.outcome === 'error') event.cut_short = span.cutShort;
    } else if (category === 'backchannel') {
      event = { category, outcome: 'unscored', at: u.start, reason: UNSCORED.silentBackchannel };
      event.agent = 'silent';
    } else if (tl.spans.length === 0) {
      event = { category, outcome: 'unscored', at: u.start, reason: UNSCORED.noAgent };
      event.agent = 'silent';
    } else {
      const window = w[`${category}_response_window_sec`];
      const answered = tl.spans.some(
        (s) => s.start >= u.start - EPS && s.start <= u.end + window + EPS,
      );
      event = answered
        ? { category, outcome: 'error', at: u.start }
        : tl.end - u.end > window + EPS
          ? { category, outcome: 'correct', at: u.start }
          : { category, outcome: 'unscored', at: u.start, reason: UNSCORED.windowCut };
      event.agent = 'silent';
    }
    out.events.push(withText(event, u.text));
  }
}

function agentInterruptions(tl: NormalTimeline, out: Scoring): void {
  for (const s of tl.spans) {
    const u = tl.utterances.find(
      (c) => isReal(c) && c.start < s.start - EPS && s.start < c.end - EPS,
    );
    if (u)
      out.events.push(
        withText({ category: 'agent_interruption', outcome: 'interrupted', at: s.start }, u.text),
      );
  }
}

/** Score a normalised timeline. Events come out sorted by time, then category. */
export function scoreTimeline(tl: NormalTimeline, windows: InteractionWindows): Scoring {
  const out: Scoring = { events: [], responseGaps: [] };
  responses(tl, out);
  yields(tl, windows, out);
  selectivity(tl, windows, out);
  agentInterruptions(tl, out);
  const order = [
    'response',
    'yield',
    'backchannel',
    'vocal_tic',
    'non_directed',
    'agent_interruption',
  ];
  out.events.sort((a, b) => a.at - b.at || order.indexOf(a.category) - order.indexOf(b.category));
  return out;
}

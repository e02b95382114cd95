/**
 * The interaction panel of one scenario ({@link interactionMetrics}) and of a run
 * ({@link aggregateInteraction}, which pools event counts rather than averaging rates).
 *
 * @module
 */
import { deadAir, poolDeadAir } from './dead-air.js';
import { scoreTimeline, UNSCORED } from './events.js';
import {
  countOf,
  meanOf,
  poolMeans,
  poolRates,
  rateFigure,
  round,
  selectivityFigure,
} from './figures.js';
import { normaliseTimeline } from './timeline.js';
import { DEFAULT_WINDOWS, INTERACTION_METRICS_VERSION } from './types.js';
import type {
  InteractionCounts,
  InteractionPanel,
  InteractionScenarioPanel,
  InteractionTimeline,
  InteractionWindows,
  ScoredCategory,
  ScoredEvent,
} from './types.js';

/** Why a figure is N/A. */
export const NA = {
  noSpeech: 'no speech on the timeline',
  noAgent: UNSCORED.noAgent,
  noTurns: 'no caller turns to score',
  noResponses: 'the agent never responded',
  noInterruptions: 'no caller interruptions',
  noYields: 'the agent never yielded',
  noRecovery: 'the agent never spoke again before the caller',
  noBackchannels: 'no backchannels during agent speech',
  noTics: 'no vocal tics',
  noNonDirected: 'no non-directed speech',
  noToolRecord: 'tool calls not recorded',
  noToolTurns: 'no responses after a tool call',
  noPlainTurns: 'no responses without a tool call',
  noScenarios: 'no scenarios',
} as const;

type Figures = Omit<InteractionPanel, 'version' | 'windows' | 'dead_air' | 'counts'>;

function scored(events: readonly ScoredEvent[], category: ScoredCategory): ScoredEvent[] {
  return events.filter((e) => e.category === category && e.outcome !== 'unscored');
}

function latencies(events: readonly ScoredEvent[]): number[] {
  return events.map((e) => e.latency ?? 0);
}

function figures(
  events: readonly ScoredEvent[],
  hasSpeech: boolean,
  hasAgent: boolean,
  toolsRecorded: boolean,
  min: number,
): Figures {
  const agentNa = (reason: string): string => (hasAgent ? reason : NA.noAgent);
  const turns = scored(events, 'response');
  const answered = turns.filter((e) => e.outcome === 'response');
  const noAnswer = turns.length > 0 ? NA.noResponses : NA.noTurns;
  const interruptions = scored(events, 'yield');
  const yielded = interruptions.filter((e) => e.outcome === 'yield');
  const noYield = interruptions.length > 0 ? NA.noYields : NA.noInterruptions;
  const recovered = yielded.filter((e) => e.recovery !== undefined);
  const selectivity = (category: ScoredCategory, none: string) => {
    const all = scored(events, category);
    const correct = all.filter((e) => e.outcome === 'correct').length;
    return rateFigure(correct, all.length, min, agentNa(none));
  };
  const tool = (wanted: boolean, none: string) =>
    meanOf(
      latencies(answered.filter((e) => e.tool_turn === wanted)),
      min,
      toolsRecorded ? agentNa(answered.length > 0 ? none : noAnswer) : NA.noToolRecord,
    );
  const parts = {
    selectivity_backchannel: selectivity('backchannel', NA.noBackchannels),
    selectivity_vocal_tic: selectivity('vocal_tic', NA.noTics),
    selectivity_non_directed: selectivity('non_directed', NA.noNonDirected),
  };
  const interrupts = scored(events, 'agent_interruption').length;
  return {
    response_latency_mean: meanOf(latencies(answered), min, agentNa(noAnswer)),
    response_rate: rateFigure(
      answered.length,
      turns.length,
      min,
      hasSpeech ? NA.noTurns : NA.noSpeech,
    ),
    yield_latency_mean: meanOf(latencies(yielded), min, agentNa(noYield)),
    yield_rate: rateFigure(yielded.length, interruptions.length, min, agentNa(noYield)),
    agent_interruption_rate: hasAgent
      ? rateFigure(interrupts, turns.length, min, NA.noTurns)
      : rateFigure(0, 0, min, NA.noAgent),
    ...parts,
    selectivity: selectivityFigure(Object.values(parts), min),
    tool_turn_latency_mean: tool(true, NA.noToolTurns),
    plain_turn_latency_mean: tool(false, NA.noPlainTurns),
    recovery_latency_mean: meanOf(
      recovered.map((e) => e.recovery ?? 0),
      min,
      yielded.length > 0 ? NA.noRecovery : agentNa(noYield),
    ),
  };
}

function windowsOf(options: Partial<InteractionWindows>): InteractionWindows {
  const windows = { ...DEFAULT_WINDOWS, ...options };
  for (const [name, value] of Object.entries(windows))
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`${name} must be a finite number >= 0`);
  return windows;
}

/** Unscored events by reason. */
function tally(events: readonly ScoredEvent[]): Record<string, number> {
  return countOf(events.flatMap((e) => (e.reason ? [e.reason] : [])));
}

/** Selectivity errors that cut the agent's speech short, by category. */
function tallyCutShortErrors(events: readonly ScoredEvent[]): Record<string, number> {
  return countOf(events.flatMap((e) => (e.outcome === 'error' && e.cut_short ? [e.category] : [])));
}

/**
 * The interaction panel of one scenario. Pure and deterministic: the same timeline gives the
 * same JSON.
 */
export function interactionMetrics(
  timeline: InteractionTimeline,
  options: Partial<InteractionWindows> = {},
): InteractionScenarioPanel {
  const windows = windowsOf(options);
  const tl = normaliseTimeline(timeline);
  const { events, responseGaps } = scoreTimeline(tl, windows);
  const stored = events.map((e) => {
    const out = { ...e, at: round(e.at) };
    if (e.latency !== undefined) out.latency = round(e.latency);
    if (e.recovery !== undefined) out.recovery = round(e.recovery);
    return out;
  });
  const counts: InteractionCounts = {
    scenarios: 1,
    caller_events: tl.eventKinds,
    yields_cut_short: events.filter((e) => e.outcome === 'yield' && e.cut_short).length,
    selectivity_errors_cut_short: tallyCutShortErrors(events),
    unscored: tally(events),
  };
  return {
    version: INTERACTION_METRICS_VERSION,
    windows,
    ...figures(
      events,
      tl.speech.length > 0,
      tl.spans.length > 0,
      tl.toolCalls !== undefined,
      windows.min_events,
    ),
    dead_air: deadAir(tl.speech, tl.start, tl.end, responseGaps, windows.long_gap_sec),
    counts,
    events: stored,
  };
}

function sumRecords(records: readonly Record<string, number>[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const record of records)
    for (const [key, n] of Object.entries(record)) out[key] = (out[key] ?? 0) + n;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The panel of a run: every rate recomputed from the summed numerators and denominators, every
 * mean from the summed totals and counts (pooled, not a mean of rates). Takes scenario panels or
 * run panels. Panels computed with different windows or versions cannot be pooled.
 */
export function aggregateInteraction(panels: readonly InteractionPanel[]): InteractionPanel {
  const first = panels[0];
  const windows = first?.windows ?? { ...DEFAULT_WINDOWS };
  const names = Object.keys(DEFAULT_WINDOWS) as (keyof InteractionWindows)[];
  for (const p of panels)
    if (p.version !== INTERACTION_METRICS_VERSION || names.some((k) => p.windows[k] !== windows[k]))
      throw new RangeError(
        'interaction panels with different versions or windows cannot be pooled',
      );
  const min = windows.min_events;
  const none = NA.noScenarios;
  const rate = (k: 'response_rate' | 'yield_rate' | 'agent_interruption_rate') =>
    poolRates(
      panels.map((p) => p[k]),
      min,
      none,
    );
  const mean = (
    k:
      | 'response_latency_mean'
      | 'yield_latency_mean'
      | 'tool_turn_latency_mean'
      | 'plain_turn_latency_mean'
      | 'recovery_latency_mean',
  ) =>
    poolMeans(
      panels.map((p) => p[k]),
      min,
      none,
    );
  const parts = {
    selectivity_backchannel: poolRates(
      panels.map((p) => p.selectivity_backchannel),
      min,
      none,
    ),
    selectivity_vocal_tic: poolRates(
      panels.map((p) => p.selectivity_vocal_tic),
      min,
      none,
    ),
    selectivity_non_directed: poolRates(
      panels.map((p) => p.selectivity_non_directed),
      min,
      none,
    ),
  };
  return {
    version: INTERACTION_METRICS_VERSION,
    windows,
    response_latency_mean: mean('response_latency_mean'),
    response_rate: rate('response_rate'),
    yield_latency_mean: mean('yield_latency_mean'),
    yield_rate: rate('yield_rate'),
    agent_interruption_rate: rate('agent_interruption_rate'),
    ...parts,
    selectivity: selectivityFigure(Object.values(parts), min),
    tool_turn_latency_mean: mean('tool_turn_latency_mean'),
    plain_turn_latency_mean: mean('plain_turn_latency_mean'),
    recovery_latency_mean: mean('recovery_latency_mean'),
    dead_air: poolDeadAir(panels.map((p) => p.dead_air)),
    counts: {
      scenarios: panels.reduce((n, p) => n + p.counts.scenarios, 0),
      caller_events: sumRecords(panels.map((p) => p.counts.caller_events)),
      yields_cut_short: panels.reduce((n, p) => n + p.counts.yields_cut_short, 0),
      selectivity_errors_cut_short: sumRecords(
        panels.map((p) => p.counts.selectivity_errors_cut_short ?? {}),
      ),
      unscored: sumRecords(panels.map((p) => p.counts.unscored)),
    },
  };
}

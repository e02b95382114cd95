/**
 * Why a failed scenario failed: the first point where the conversation left the gold path,
 * classified deterministically against the scenario's gold plan.
 *
 * - `infrastructure`: a bot disconnected, crashed or never answered;
 * - `mishearing` (audio): a value the user said (an id, a code, a date, a number) reached the
 *   agent as something else, and the agent's first wrong step used it, or nothing else went wrong,
 *   or the step was never made and the value was the caller's own identifier (a user id, a code
 *   its instructions hold: without it the agent could not find what the step needed);
 * - `user_simulator`: the user never gave a value its instructions hold and the gold plan needs,
 *   or gave one its instructions do not hold;
 * - `stall`: the conversation stalled, timed out or hit the turn limit before the plan was done;
 * - `agent_action`: a missing write, the wrong tool, a wrong or missing argument, or an extra write;
 * - `other`: none of those explain it (e.g. a judge's verdict alone).
 *
 * @module
 */
import { extractEntities } from '@scenaro/agent/voice';
import { editDistance } from '@scenaro/sdk/util';
import type {
  AudioSegmentMetrics,
  FailureAttribution,
  MisheardEntity,
  PlannedAction,
  ScenarioMetrics,
} from './types.js';

export type { FailureAttribution, FailureClass, MisheardEntity, PlannedAction } from './types.js';

/** What {@link attributeFailure} reads. */
export interface AttributionInput {
  /** The gold plan's writes on the agent's side, in order. */
  goldWrites: readonly PlannedAction[];
  /** The writes the agent made, in order. */
  agentWrites: readonly PlannedAction[];
  /** The user simulator's instructions. */
  userInstructions: string;
  /** What the user said, turn by turn (text mode: its turns; audio mode: what it said aloud). */
  userSaid: readonly string[];
  /** Audio mode: the said/heard pairs. */
  segments?: readonly AudioSegmentMetrics[];
  stopReason: string;
  stalled: boolean;
  /** Set when the bridge failed for a reason outside the scenario. */
  infrastructure?: { phase: string; message: string };
  /** The signals that failed, for the `other` class. */
  failedSignals: readonly string[];
}

const ENDED_EARLY = new Set(['[TIMEOUT]', '[MAX_TURNS]']);

/** A value as text, for comparing with what was said. */
function valueText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const normal = (text: string): string => text.toLowerCase().replace(/[^a-z0-9@.]+/g, '');

/**
 * An identifier a caller gives as it is (a user id, a reservation code, a card or flight
 * number): letters and digits together. Words, places, dates and amounts are said in many ways
 * ("Seattle" for SEA), so their absence from the words proves nothing.
 */
function identifier(text: string | null): text is string {
  return text !== null && /\d/.test(text) && /[a-z]/i.test(text) && /^[\w@.-]{4,}$/.test(text);
}

function describe(action: PlannedAction): string {
  const args = Object.entries(action.arguments)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(', ');
  return `${action.name}(${args.length > 120 ? `${args.slice(0, 117)}...` : args})`;
}

/** The first place the agent's writes leave the plan. */
interface Divergence {
  kind: 'missing_action' | 'wrong_tool' | 'wrong_argument' | 'missing_argument' | 'extra_write';
  index: number;
  expected?: PlannedAction;
  actual?: PlannedAction;
  argument?: string;
}

function firstDivergence(
  gold: readonly PlannedAction[],
  made: readonly PlannedAction[],
): Divergence | null {
  for (let i = 0; i < Math.max(gold.length, made.length); i++) {
    const expected = gold[i];
    const actual = made[i];
    if (!actual) return { kind: 'missing_action', index: i, expected };
    if (!expected) return { kind: 'extra_write', index: i, actual };
    if (expected.name !== actual.name) {
      // A write the plan never makes is an extra write; one it makes later is the wrong tool here.
      const known = gold.some((g) => g.name === actual.name);
      return { kind: known ? 'wrong_tool' : 'extra_write', index: i, expected, actual };
    }
    for (const [argument, value] of Object.entries(expected.arguments)) {
      if (!(argument in actual.arguments))
        return { kind: 'missing_argument', index: i, expected, actual, argument };
      if (!sameValue(value, actual.arguments[argument]))
        return { kind: 'wrong_argument', index: i, expected, actual, argument };
    }
  }
  return null;
}

/**
 * Values said in a segment but not heard, each with what was heard in its place: the heard value
 * of its kind that was not said and is closest to it (two codes said together are paired each
 * with its own misheard form).
 */
export function misheardEntities(segments: readonly AudioSegmentMetrics[]): MisheardEntity[] {
  const out: MisheardEntity[] = [];
  for (const segment of segments) {
    const said = extractEntities(segment.said);
    if (said.length === 0) continue;
    const heard = extractEntities(segment.heard);
    const heardValues = new Set(heard.map((e) => normal(String(e.value))));
    for (const entity of said) {
      if (heardValues.has(normal(String(entity.value)))) continue;
      const target = normal(String(entity.value));
      const distance = (e: (typeof heard)[number]) => editDistance(normal(String(e.value)), target);
      const stand = heard
        .filter((e) => e.kind === entity.kind && !said.some((s) => sameValue(s.value, e.value)))
        .reduce<(typeof heard)[number] | undefined>(
          (best, e) => (best === undefined || distance(e) < distance(best) ? e : best),
          undefined,
        );
      out.push({
        kind: entity.kind,
        said: String(entity.value),
        heard: stand ? String(stand.value) : null,
        speaker: segment.role === 'agent' ? 'agent' : 'user',
        at: segment.start,
      });
    }
  }
  return out;
}

function mishearingOf(
  input: AttributionInput,
  divergence: Divergence | null,
): MisheardEntity | null {
  if (!input.segments) return null;
  const misheard = misheardEntities(input.segments).filter((e) => e.speaker === 'user');
  if (misheard.length === 0) return null;
  if (!divergence) return misheard[0]!;
  // The wrong step used a value the user said and the agent heard as something else.
  const wanted = divergence.argument
    ? [divergence.expected?.arguments[divergence.argument]]
    : Object.values(divergence.expected?.arguments ?? {});
  const wantedText = wanted
    .map(valueText)
    .filter((v): v is string => v !== null)
    .map(normal);
  const used = misheard.find((e) => wantedText.includes(normal(e.said)));
  if (used || divergence.kind !== 'missing_action') return used ?? null;
  // A step never made, after the caller's own identifier (its user id, a reservation code of its
  // instructions) was heard as something else: the agent could not find what the step needed.
  const instructions = normal(input.userInstructions);
  return misheard.find((e) => identifier(e.said) && instructions.includes(normal(e.said))) ?? null;
}

/** What the user said, as one normalised string with the values read from spoken forms added. */
function saidText(input: AttributionInput): string {
  const spoken = input.userSaid.flatMap((line) =>
    extractEntities(line).map((e) => String(e.value)),
  );
  return normal([...input.userSaid, ...spoken].join(' '));
}

/** A value the plan needs, that the instructions hold and the user never said. */
function neverGiven(input: AttributionInput, divergence: Divergence): string | null {
  const expected = divergence.expected;
  if (!expected) return null;
  const instructions = normal(input.userInstructions);
  const said = saidText(input);
  const candidates = divergence.argument
    ? [expected.arguments[divergence.argument]]
    : Object.values(expected.arguments);
  for (const value of candidates) {
    const text = valueText(value);
    if (!identifier(text)) continue;
    if (instructions.includes(normal(text)) && !said.includes(normal(text))) return text;
  }
  return null;
}

/** A wrong value the agent used that the user said although its instructions do not hold it. */
function unsupported(input: AttributionInput, divergence: Divergence): string | null {
  if (divergence.kind !== 'wrong_argument' || !divergence.actual || !divergence.argument)
    return null;
  const text = valueText(divergence.actual.arguments[divergence.argument]);
  if (!identifier(text)) return null;
  const said = saidText(input);
  return said.includes(normal(text)) && !normal(input.userInstructions).includes(normal(text))
    ? text
    : null;
}

function summaryOf(divergence: Divergence): string {
  const { expected, actual, argument } = divergence;
  switch (divergence.kind) {
    case 'missing_action':
      return `agent action error: missing ${describe(expected!)}`;
    case 'extra_write':
      return `agent action error: extra write ${describe(actual!)}`;
    case 'wrong_tool':
      return `agent action error: called ${describe(actual!)} where the plan has ${describe(expected!)}`;
    case 'missing_argument':
      return `agent action error: ${expected!.name} without ${argument}`;
    case 'wrong_argument':
      return (
        `agent action error: ${expected!.name} with ${argument}=${JSON.stringify(actual!.arguments[argument!])}` +
        `, the plan has ${JSON.stringify(expected!.arguments[argument!])}`
      );
  }
}

/** Classify a failed scenario (see the module comment for the classes and their order). */
export function attributeFailure(input: AttributionInput): FailureAttribution {
  if (input.infrastructure)
    return {
      class: 'infrastructure',
      kind: input.infrastructure.phase,
      summary: `infrastructure: ${input.infrastructure.message}`,
    };
  const divergence = firstDivergence(input.goldWrites, input.agentWrites);
  const endedEarly = ENDED_EARLY.has(input.stopReason) || input.stalled;
  const misheard = mishearingOf(input, divergence);
  if (misheard)
    return {
      class: 'mishearing',
      kind: misheard.kind,
      summary:
        `mishearing: the user said ${misheard.kind} ${misheard.said}, the agent heard ` +
        (misheard.heard ?? 'something else'),
      entity: misheard,
      ...(divergence?.expected ? { expected_action: divergence.expected } : {}),
      ...(divergence?.actual ? { actual_action: divergence.actual } : {}),
    };
  if (divergence) {
    const invented = unsupported(input, divergence);
    if (invented)
      return {
        class: 'user_simulator',
        kind: 'unsupported',
        summary: `user simulator: said ${invented}, which its instructions do not hold`,
        entity: { value: invented },
        ...(divergence.expected ? { expected_action: divergence.expected } : {}),
        ...(divergence.actual ? { actual_action: divergence.actual } : {}),
      };
    const missing = neverGiven(input, divergence);
    if (missing)
      return {
        class: 'user_simulator',
        kind: 'never_gave',
        summary: `user simulator: never gave ${missing}, which its instructions hold`,
        entity: { value: missing },
        ...(divergence.expected ? { expected_action: divergence.expected } : {}),
      };
    // Writes that stop short of the plan in a conversation that ended early: the clock, not the agent.
    const onlyShort =
      divergence.kind === 'missing_action' && input.agentWrites.length === divergence.index;
    if (onlyShort && endedEarly)
      return {
        class: 'stall',
        kind: input.stalled ? 'stalled' : input.stopReason,
        summary: `stall: ended with ${input.stopReason}${input.stalled ? ' after a stall' : ''} before ${describe(divergence.expected!)}`,
        expected_action: divergence.expected!,
      };
    return {
      class: 'agent_action',
      kind: divergence.kind,
      summary: summaryOf(divergence),
      ...(divergence.expected ? { expected_action: divergence.expected } : {}),
      ...(divergence.actual ? { actual_action: divergence.actual } : {}),
      ...(divergence.argument ? { argument: divergence.argument } : {}),
    };
  }
  if (endedEarly)
    return {
      class: 'stall',
      kind: input.stalled ? 'stalled' : input.stopReason,
      summary: `stall: ended with ${input.stopReason}${input.stalled ? ' after a stall' : ''}`,
    };
  return {
    class: 'other',
    kind: input.failedSignals[0] ?? 'failed',
    summary: `other: ${input.failedSignals.join(', ') || 'failed'} with every planned write made`,
  };
}

function plannedActions(actions: readonly unknown[], side: 'agent' | 'user'): PlannedAction[] {
  const out: PlannedAction[] = [];
  for (const action of actions) {
    if (typeof action !== 'object' || action === null) continue;
    const {
      name,
      arguments: args,
      side: actionSide,
    } = action as {
      name?: unknown;
      arguments?: unknown;
      side?: unknown;
    };
    if (typeof name !== 'string' || (actionSide !== undefined && actionSide !== side)) continue;
    const plain = typeof args === 'object' && args !== null && !Array.isArray(args);
    out.push({ name, arguments: plain ? (args as Record<string, unknown>) : {} });
  }
  return out;
}

/**
 * The attribution of a scored, failed scenario: its gold writes (as gold replay recorded them)
 * against the agent's, what the user said (aloud in audio mode), and how the conversation ended.
 */
export function attributionFor(
  metrics: ScenarioMetrics,
  goldActions: readonly unknown[],
  userInstructions: string,
): FailureAttribution {
  const segments = metrics.audio?.segments;
  const userSaid = segments
    ? segments.filter((s) => s.role === 'user').map((s) => s.said)
    : metrics.turns.filter((t) => t.role === 'user').map((t) => t.text);
  return attributeFailure({
    goldWrites: plannedActions(goldActions, 'agent'),
    agentWrites: plannedActions(metrics.actions.agent, 'agent'),
    userInstructions,
    userSaid,
    ...(segments ? { segments } : {}),
    stopReason: metrics.stop_reason,
    stalled: metrics.stalled,
    ...(metrics.failure?.infrastructure
      ? { infrastructure: { phase: metrics.failure.phase, message: metrics.failure.message } }
      : {}),
    failedSignals: metrics.success_breakdown.failed,
  });
}

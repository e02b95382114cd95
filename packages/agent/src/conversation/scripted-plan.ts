/**
 * The plan scripted policies follow, read from the session's shared state.
 *
 * A bridge puts it under the key `scripted_plan` of `shared_state_init`:
 *
 * ```json
 * {"scripted_plan": {
 *    "actions": [{"name": "get_user_details", "arguments": {"user_id": "u1"}, "side": "agent"}],
 *    "opening": "Hi, I need to change my flight.",
 *    "max_turns": 30,
 *    "faults": ["drop-last-action"]}}
 * ```
 *
 * `actions` is the whole gold sequence with sides; each bot carries out its own
 * side. Both bots cut the sequence into runs by side and follow one schedule: the
 * agent's first turn greets, its second asks the user to confirm what it is about
 * to do (as the tau2 policies require before any change); from the agent's third
 * turn on, the turns of both bots take the runs in order, one run per turn, each
 * bot doing the runs of its own side. So the calls happen in the gold order.
 */
import { isJsonObject } from '@scenaro/sdk/util';
import type { JsonObject } from '../scenario/types.js';

/** The shared-state key of the plan. */
export const SCRIPTED_PLAN_KEY = 'scripted_plan';

/** One planned tool call. */
export interface PlannedAction {
  name: string;
  arguments: JsonObject;
  side: 'agent' | 'user';
}

/** Faults a test can inject into the reference agent. */
export type ScriptedFault = 'drop-last-action';

/** A plan as read from shared state. */
export interface ScriptedPlan {
  actions: PlannedAction[];
  opening?: string;
  maxTurns: number;
  faults: ScriptedFault[];
}

/** A run of consecutive actions of one side. */
export interface PlanSegment {
  side: 'agent' | 'user';
  actions: PlannedAction[];
}

/** Read and check the plan in `shared`; `undefined` when there is none, an error text when it is malformed. */
export function readScriptedPlan(shared: JsonObject): ScriptedPlan | undefined | string {
  const raw = shared[SCRIPTED_PLAN_KEY];
  if (raw === undefined || raw === null) return undefined;
  if (!isJsonObject(raw)) return `${SCRIPTED_PLAN_KEY} must be an object`;
  const actions: PlannedAction[] = [];
  const list = raw['actions'] ?? [];
  if (!Array.isArray(list)) return `${SCRIPTED_PLAN_KEY}.actions must be a list`;
  for (const [i, item] of list.entries()) {
    if (!isJsonObject(item) || typeof item['name'] !== 'string') {
      return `${SCRIPTED_PLAN_KEY}.actions[${i}] must be an object with a string name`;
    }
    const side = item['side'] === 'user' ? 'user' : 'agent';
    actions.push({
      name: item['name'],
      arguments: isJsonObject(item['arguments']) ? item['arguments'] : {},
      side,
    });
  }
  const faults = Array.isArray(raw['faults'])
    ? raw['faults'].filter((f): f is ScriptedFault => f === 'drop-last-action')
    : [];
  const plan: ScriptedPlan = {
    actions,
    maxTurns: typeof raw['max_turns'] === 'number' && raw['max_turns'] > 0 ? raw['max_turns'] : 30,
    faults,
  };
  if (typeof raw['opening'] === 'string') plan.opening = raw['opening'];
  return plan;
}

/** Cut the action sequence into runs by side. */
export function planSegments(actions: readonly PlannedAction[]): PlanSegment[] {
  const segments: PlanSegment[] = [];
  for (const action of actions) {
    const last = segments[segments.length - 1];
    if (last && last.side === action.side) last.actions.push(action);
    else segments.push({ side: action.side, actions: [action] });
  }
  return segments;
}

/** The agent turn the schedule starts at: 3 with actions (greet, confirm, act), else 2. */
export function firstPlanTurn(plan: { actions: readonly unknown[] }): number {
  return plan.actions.length > 0 ? 3 : 2;
}

/** The schedule slot of a bot's turn (`turn` counts that bot's turns from 1). */
export function slotOfTurn(
  side: 'agent' | 'user',
  turn: number,
  plan: { actions: readonly unknown[] },
): number {
  return 2 * (turn - firstPlanTurn(plan)) + (side === 'user' ? 1 : 0);
}

/**
 * Which segment a bot's turn carries out. Slots are numbered from the agent's
 * first plan turn `f` ({@link firstPlanTurn}): agent turn `i` is slot `2(i-f)`,
 * user turn `j` is slot `2(j-f)+1`. Segment `k` runs at slot `k + offset`, where the offset is 1 when
 * the first segment is the user's (the agent's first slot then only asks).
 */
export function segmentIndexForSlot(slot: number, segments: readonly PlanSegment[]): number {
  const offset = segments[0]?.side === 'user' ? 1 : 0;
  return slot - offset;
}

/** A short readable form of a call, e.g. `get_user_details(user_id="u1")`. */
export function describeCall(name: string, args: JsonObject): string {
  const parts = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  const text = `${name}(${parts.join(', ')})`;
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

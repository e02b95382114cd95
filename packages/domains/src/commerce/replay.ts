/**
 * Gold replay of a commerce scenario, in process: a fresh session state, the scenario's
 * agent-side initialization (through `applyInitialization`, exactly as the control plane runs
 * it), then each gold action through `executeBoundTool`, then the end-state checks.
 *
 * @module
 */
import {
  applyInitialization,
  createScenarioState,
  DbCache,
  DomainRegistry,
  executeBoundTool,
  getDictHash,
} from '@scenaro/agent/scenario';
import type { ScenarioState, ToolCallOutcome } from '@scenaro/agent/scenario';
import type { Scenario, SidedActionRecord } from '../scenario.js';
import { COMMERCE_DATA_ROOT, COMMERCE_DOMAIN } from './data-root.js';
import { commerceDomain } from './domain.js';
import { checkExpectedState } from './scenarios/expected-state.js';
import type { ExpectedStateReport } from './scenarios/expected-state.js';

/** Where replay loads dbs from. */
export interface CommerceReplayOptions {
  /** Data root that `db_path` resolves in. Defaults to {@link COMMERCE_DATA_ROOT}. */
  dataRoot?: string;
  /** Parse cache; share one across replays to read `db.json` once. */
  cache?: DbCache;
  /** Registry with the commerce domain; a fresh one by default. */
  registry?: DomainRegistry;
}

/** One replayed gold action. */
export interface ReplayedAction {
  action: SidedActionRecord;
  outcome: ToolCallOutcome;
}

/** The outcome of a replay. */
export interface CommerceReplayResult {
  /** The session state after the last action (its `db` is the end state). */
  state: ScenarioState;
  steps: ReplayedAction[];
  /** Steps whose tool call failed (refused, invalid arguments, unknown tool). */
  failures: ReplayedAction[];
  /** `get_dict_hash` of the end-state db. */
  dbHash: string;
  /** Present when the scenario states an expected end state. */
  expectedState?: ExpectedStateReport;
  /** Present when the scenario pins an expected db hash. */
  hashMatches?: boolean;
}

let defaultCache: DbCache | undefined;

/**
 * Create a session state for the commerce agent side: every commerce tool bound, the scenario's
 * `sharedStateInit` and agent-side initialization actions applied.
 * @throws Error listing the initialization errors when it fails.
 */
export async function initializeCommerceState(
  scenario: Scenario,
  options: CommerceReplayOptions = {},
): Promise<ScenarioState> {
  const registry = options.registry ?? new DomainRegistry().register(commerceDomain);
  const state = createScenarioState();
  state.toolDomain = scenario.agent.toolDomain;
  for (const [name, toolOptions] of Object.entries(scenario.agent.tools)) {
    const found = registry.findTool(scenario.agent.toolDomain, name);
    if (!found)
      throw new Error(
        `${scenario.name}: no tool '${name}' in domain '${scenario.agent.toolDomain}'`,
      );
    state.tools.set(found.tool.name, {
      tool: found.tool,
      domain: found.domain,
      options: toolOptions,
    });
  }
  const result = await applyInitialization(
    state,
    {
      domain: scenario.domain,
      shared_state_init: JSON.stringify(scenario.agent.sharedStateInit),
      actions: scenario.initializationActions
        .filter((a) => a.side === 'agent')
        .map((a) => ({ func_name: a.func_name, arguments: structuredClone(a.arguments ?? {}) })),
    },
    registry,
    {
      dataRoot: options.dataRoot ?? COMMERCE_DATA_ROOT,
      cache: options.cache ?? (defaultCache ??= new DbCache()),
    },
  );
  if (!result.success) {
    throw new Error(`${scenario.name}: initialization failed:\n${result.errors.join('\n')}`);
  }
  return state;
}

/** Replay `scenario`'s gold actions and check its expected end state and hash. */
export async function replayCommerceScenario(
  scenario: Scenario,
  options: CommerceReplayOptions = {},
): Promise<CommerceReplayResult> {
  if (scenario.domain !== COMMERCE_DOMAIN) {
    throw new Error(`${scenario.name} is a '${scenario.domain}' scenario, not a commerce one`);
  }
  const state = await initializeCommerceState(scenario, options);
  const steps: ReplayedAction[] = [];
  for (const action of scenario.referenceActions) {
    const bound = state.tools.get(action.name);
    const outcome: ToolCallOutcome = bound
      ? await executeBoundTool(state, bound, structuredClone(action.arguments))
      : {
          ok: false,
          result: undefined,
          modelResult: { error: `Unknown tool '${action.name}'.` },
          error: `Unknown tool '${action.name}'.`,
          args: {},
        };
    steps.push({ action, outcome });
  }
  const dbHash = getDictHash(state.db ?? {});
  const result: CommerceReplayResult = {
    state,
    steps,
    failures: steps.filter((s) => !s.outcome.ok),
    dbHash,
  };
  const expected = scenario.expectedState?.agent;
  if (expected !== undefined) result.expectedState = checkExpectedState(state.db, expected);
  if (typeof scenario.expectedDbHash === 'string')
    result.hashMatches = scenario.expectedDbHash === dbHash;
  return result;
}

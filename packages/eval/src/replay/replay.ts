/**
 * Gold replay: build a scenario's agent and user sessions exactly as the
 * control plane would (`update_system_prompt` tool binding, then
 * `apply_initialization`), sync the sides, replay the gold actions through
 * the real tools with a sync after each, and report both db hashes, every
 * tool result and every db-state assertion.
 *
 * @module
 */
import {
  applyBindHooks,
  applyDeltaDefault,
  applyInitialization,
  createScenarioState,
  DbCache,
  executeBoundTool,
} from '@scenaro/agent/scenario';
import type { DbSource, DomainRegistry, JsonObject, ScenarioState } from '@scenaro/agent/scenario';
import { pyEquals } from '@scenaro/agent/python';
import { checkExpectedState, formatMismatches } from '@scenaro/domains';
import type { EvalDomain, Scenario, Side, SidedActionRecord } from '@scenaro/domains';
import { ReplayDbCache, replayDbHash } from './lazy-db.js';

/** What a replay needs. */
export interface ReplayOptions {
  /**
   * Registry holding the domain's module and the `default` control tools
   * (`registerControlTools`), which scenarios list (`end_conversation`).
   */
  registry: DomainRegistry;
  /** Data root and parse cache `db_path`s resolve in; each session gets its own clone. */
  dataSource: DbSource;
  /** The scenario's domain (its `syncState` runs after initialization and after every action). */
  domain: EvalDomain;
  /** Keep the final dbs in the result (`agentDb`, `userDb`). Default false. */
  includeDb?: boolean;
}

/** One replayed gold action. */
export interface ReplayActionResult {
  /** Position in the scenario's `referenceActions`. */
  index: number;
  name: string;
  side: Side;
  /** Whether the tool ran without error. */
  ok: boolean;
  /** The result recorded with the gold action, when there is one. */
  expected?: unknown;
  /** The tool's result, or `{error}` when it failed. */
  actual: unknown;
  /** Whether `actual` equals `expected`; `null` when no result was recorded. */
  match: boolean | null;
}

/** One evaluated db-state assertion. */
export interface ReplayAssertionResult {
  side: Side;
  func_name: string;
  arguments: JsonObject;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  message?: string;
  error?: string;
}

/** The outcome of replaying one scenario. */
export interface ReplayResult {
  scenario: string;
  /** `get_dict_hash` of the agent-side db, `null` when it holds none. */
  db_hash: string | null;
  /** `get_dict_hash` of the user-side db, `null` when it holds none. */
  user_db_hash: string | null;
  /**
   * What went wrong with the replay itself: tool binding, initialization, sync,
   * a result differing from the recorded one, a failed db-state assertion, an
   * end state or db hash differing from what the scenario states.
   */
  errors: string[];
  /**
   * Gold actions the tools refused (tau2's own data has a few, e.g. a lookup with
   * the wrong email the customer gives first); like tau2 and the reference
   * harness, these are reported but do not fail the replay.
   */
  warnings: string[];
  /** One entry per gold action. */
  results: ReplayActionResult[];
  /** The action records the tools wrote, in order, tagged with their side. */
  actions: SidedActionRecord[];
  /** One entry per db-state assertion. */
  assertions: ReplayAssertionResult[];
  /** Final dbs, with `includeDb`. */
  agentDb?: JsonObject;
  userDb?: JsonObject;
}

function message(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Bind a side's tools as `update_system_prompt` does (set-up hooks included); returns binding errors. */
function bindTools(
  state: ScenarioState,
  registry: DomainRegistry,
  side: Side,
  scenario: Scenario,
): string[] {
  const setup = scenario[side];
  const errors: string[] = [];
  state.toolDomain = setup.toolDomain;
  for (const [name, options] of Object.entries(setup.tools)) {
    const found = registry.findTool(setup.toolDomain, name);
    if (!found) {
      errors.push(`${side}: tool '${name}' not found in domain '${setup.toolDomain}' or 'default'`);
      continue;
    }
    state.tools.set(found.tool.name, {
      tool: found.tool,
      domain: found.domain,
      options: structuredClone(options),
    });
  }
  try {
    applyBindHooks(state.shared, state.tools.values());
  } catch (err) {
    errors.push(`${side}: a tool could not be set up: ${message(err)}`);
  }
  return errors;
}

function hashOf(db: JsonObject | undefined): string | null {
  return db !== undefined && Object.keys(db).length > 0 ? replayDbHash(db) : null;
}

/**
 * Run the domain's sync producer on both dbs and apply each side's delta
 * with the domain's sync applier (or the default applier).
 */
function runSync(
  agent: ScenarioState,
  user: ScenarioState,
  scenario: Scenario,
  options: ReplayOptions,
  errors: string[],
  when: string,
): void {
  if (!options.domain.syncState || agent.db === undefined || user.db === undefined) return;
  let deltas;
  try {
    deltas = options.domain.syncState(agent.db, user.db);
  } catch (err) {
    errors.push(`sync after ${when}: ${message(err)}`);
    return;
  }
  const applier = options.registry.syncApplier(scenario.domain) ?? applyDeltaDefault;
  for (const side of ['agent', 'user'] as const) {
    const delta = deltas[side];
    const db = side === 'agent' ? agent.db : user.db;
    if (Object.keys(delta).length === 0) continue;
    try {
      const outcome = applier(db, delta);
      for (const e of outcome.errors) errors.push(`sync after ${when} (${side}): ${e}`);
    } catch (err) {
      errors.push(`sync after ${when} (${side}): ${message(err)}`);
    }
  }
}

/** Run every db-state assertion of `scenario` on the final dbs; failures are added to `errors`. */
function evaluateAssertions(
  scenario: Scenario,
  states: Record<Side, ScenarioState>,
  registry: DomainRegistry,
  errors: string[],
): ReplayAssertionResult[] {
  return scenario.dbStateAssertions.map((assertion) => {
    const db = states[assertion.side].db;
    const entry: ReplayAssertionResult = {
      side: assertion.side,
      func_name: assertion.func_name,
      arguments: assertion.arguments,
      expected: assertion.assert_value,
      actual: null,
      passed: false,
    };
    if (assertion.message !== undefined) entry.message = assertion.message;
    const predicate = registry.predicate(scenario.domain, assertion.func_name);
    try {
      if (!predicate) {
        throw new Error(`no predicate '${assertion.func_name}' in domain '${scenario.domain}'`);
      }
      if (db === undefined) throw new Error(`the ${assertion.side} side has no db`);
      entry.actual = predicate(db, structuredClone(assertion.arguments));
      entry.passed = pyEquals(entry.actual, assertion.assert_value);
    } catch (err) {
      entry.error = message(err);
    }
    if (!entry.passed) {
      const outcome = entry.error
        ? `raised ${entry.error}`
        : `returned ${JSON.stringify(entry.actual)}, expected ${JSON.stringify(assertion.assert_value)}`;
      errors.push(`assertion ${assertion.func_name} (${assertion.side}) ${outcome}`);
    }
    return entry;
  });
}

/** Replay one scenario's gold actions and report hashes, results and assertions. */
export async function replayScenario(
  scenario: Scenario,
  options: ReplayOptions,
): Promise<ReplayResult> {
  const { registry } = options;
  // Sessions get lazily copied dbs from the shared parse cache (tables are copied when first touched).
  const cache =
    options.dataSource.cache instanceof ReplayDbCache
      ? options.dataSource.cache
      : new ReplayDbCache(options.dataSource.cache);
  // A domain that ships its own data is searched after the configured roots.
  const shipped = options.domain.dataRoot;
  const extraRoots = [...(options.dataSource.extraRoots ?? [])];
  if (
    shipped !== undefined &&
    shipped !== options.dataSource.dataRoot &&
    !extraRoots.includes(shipped)
  ) {
    extraRoots.push(shipped);
  }
  const dataSource: DbSource = { dataRoot: options.dataSource.dataRoot, cache, extraRoots };
  const states = { agent: createScenarioState(), user: createScenarioState() };
  const errors: string[] = [];
  const warnings: string[] = [];

  for (const side of ['agent', 'user'] as const)
    errors.push(...bindTools(states[side], registry, side, scenario));
  for (const side of ['agent', 'user'] as const) {
    const request = {
      domain: scenario.domain,
      shared_state_init: JSON.stringify(scenario[side].sharedStateInit),
      actions: scenario.initializationActions
        .filter((a) => a.side === side)
        .map((a) => ({ func_name: a.func_name, arguments: structuredClone(a.arguments ?? {}) })),
    };
    const init = await applyInitialization(states[side], request, registry, dataSource);
    for (const e of init.errors) errors.push(`${side} initialization: ${e}`);
  }
  runSync(states.agent, states.user, scenario, options, errors, 'initialization');

  const results: ReplayActionResult[] = [];
  const actions: SidedActionRecord[] = [];
  for (const [index, gold] of scenario.referenceActions.entries()) {
    const side: Side = gold.side === 'user' ? 'user' : 'agent';
    const state = states[side];
    const bound = state.tools.get(gold.name);
    const hasExpected =
      Object.prototype.hasOwnProperty.call(gold, 'result') && gold.result !== undefined;
    let ok = false;
    let actual: unknown;
    if (!bound) {
      actual = { error: `no tool '${gold.name}' bound on the ${side} side` };
      errors.push(`[action ${index}] ${gold.name} (${side}): no such tool bound`);
    } else {
      const outcome = await executeBoundTool(state, bound, gold.arguments);
      ok = outcome.ok;
      actual = outcome.ok ? outcome.result : { error: outcome.error };
      if (!outcome.ok)
        warnings.push(
          `[action ${index}] ${gold.name} (${side}) failed: ${outcome.error ?? 'error'}`,
        );
      if (outcome.action) actions.push({ ...outcome.action, side });
    }
    const result: ReplayActionResult = {
      index,
      name: gold.name,
      side,
      ok,
      actual,
      match: hasExpected ? pyEquals(gold.result, actual) : null,
    };
    if (hasExpected) result.expected = gold.result;
    results.push(result);
    if (result.match === false)
      errors.push(`[action ${index}] ${gold.name} (${side}): result differs from the recorded one`);
    runSync(states.agent, states.user, scenario, options, errors, `action ${index}`);
  }

  const assertions = evaluateAssertions(scenario, states, registry, errors);

  for (const side of ['agent', 'user'] as const) {
    const expected = scenario.expectedState?.[side];
    if (expected === undefined) continue;
    const report = checkExpectedState(states[side].db, expected);
    if (!report.ok) errors.push(`expected ${side} state: ${formatMismatches(report.mismatches)}`);
  }

  const dbHash = hashOf(states.agent.db);
  const userDbHash = hashOf(states.user.db);
  if (typeof scenario.expectedDbHash === 'string' && scenario.expectedDbHash !== dbHash) {
    errors.push(
      `db_hash ${dbHash ?? 'null'} differs from the scenario's expected ${scenario.expectedDbHash}`,
    );
  }
  if (
    typeof scenario.expectedUserDbHash === 'string' &&
    scenario.expectedUserDbHash !== userDbHash
  ) {
    errors.push(
      `user_db_hash ${userDbHash ?? 'null'} differs from the scenario's expected ${scenario.expectedUserDbHash}`,
    );
  }

  const result: ReplayResult = {
    scenario: scenario.name,
    db_hash: dbHash,
    user_db_hash: userDbHash,
    errors,
    warnings,
    results,
    actions,
    assertions,
  };
  if (options.includeDb) {
    if (states.agent.db !== undefined) result.agentDb = states.agent.db;
    if (states.user.db !== undefined) result.userDb = states.user.db;
  }
  return result;
}

/** Options of {@link replayDomain}. */
export interface ReplayDomainOptions {
  registry: DomainRegistry;
  /** The data root scenarios and dbs are read from. */
  dataRoot: string;
  /** Shared parse cache (one is created when omitted); every scenario gets its own clone. */
  cache?: DbCache;
  /** Replay only these scenario names (all when omitted). Unknown names are reported as errors. */
  scenarios?: readonly string[];
  /** Called after each scenario, for progress output. */
  onResult?: (result: ReplayResult) => void;
  includeDb?: boolean;
}

/** Load a domain's scenarios and replay them one after another, reusing one db cache. */
export async function replayDomain(
  domain: EvalDomain,
  options: ReplayDomainOptions,
): Promise<ReplayResult[]> {
  const all = await domain.loadScenarios(options.dataRoot);
  const selected = options.scenarios ? new Set(options.scenarios) : undefined;
  const scenarios = selected ? all.filter((s) => selected.has(s.name)) : all;
  const dataSource: DbSource = {
    dataRoot: options.dataRoot,
    cache: options.cache ?? new DbCache(),
  };
  const results: ReplayResult[] = [];
  for (const scenario of scenarios) {
    const result = await replayScenario(scenario, {
      registry: options.registry,
      dataSource,
      domain,
      includeDb: options.includeDb ?? false,
    });
    results.push(result);
    options.onResult?.(result);
  }
  if (selected) {
    const known = new Set(all.map((s) => s.name));
    for (const name of selected) {
      if (known.has(name)) continue;
      const missing: ReplayResult = {
        scenario: name,
        db_hash: null,
        user_db_hash: null,
        errors: [`no scenario named '${name}' in domain '${domain.name}'`],
        warnings: [],
        results: [],
        actions: [],
        assertions: [],
      };
      results.push(missing);
      options.onResult?.(missing);
    }
  }
  return results;
}

/**
 * What an evaluated scenario is, independent of where it came from (a tau2-bench
 * task, or a scenario file of our own). The evaluation harness, gold replay and
 * the scripted policies all read this shape.
 */
import type { ActionRecord, InitializationAction } from '@scenaro/sdk/protocol';
import type { DomainModule, JsonObject } from '@scenaro/agent/scenario';

/** The scoring signals a scenario can be judged on, in the order the reference checks them. */
export const SUCCESS_SIGNALS = [
  'is_action_match',
  'db_state_match',
  'db_state_assertion',
  'nl_assertion',
  'judge_passed',
  'clean_exit',
] as const;

/** A scoring signal a scenario can be judged on. */
export type SuccessSignal = (typeof SUCCESS_SIGNALS)[number];

export type Side = 'agent' | 'user';

/** What one bot is given for a scenario. */
export interface SideSetup {
  /** The system prompt (`update_system_prompt.prompt`). */
  prompt: string;
  /** Tools to bind, by name, with their constructor kwargs (`update_system_prompt.tools`). */
  tools: Record<string, JsonObject>;
  /** Registry namespace for the tools (`tool_domain`). */
  toolDomain: string;
  /** `shared_state_init` before JSON encoding, e.g. `{"db_path": "tau2_airline/db.json"}`. */
  sharedStateInit: JsonObject;
}

/** A check of an end-state db: `predicate(db, arguments) == assert_value`. */
export interface DbStateAssertion {
  side: Side;
  func_name: string;
  arguments: JsonObject;
  assert_value: unknown;
  message?: string;
}

/** An initialization action with the side it runs on. */
export type SidedInitializationAction = InitializationAction & { side: Side };
/** A gold action with the side it runs on. */
export type SidedActionRecord = ActionRecord & { side: Side };

/** One scenario. */
export interface Scenario {
  /** Unique name, `<domain>__<id>` (e.g. `tau2_airline__0`). */
  name: string;
  /** Registry domain of both bots (initialization functions, predicates, sync applier). */
  domain: string;
  /** Where the scenario came from, for messages. */
  source: string;
  description?: string;
  /** Upper bound on the conversation, in seconds. */
  maxDurationSeconds: number;
  successSignals: SuccessSignal[];
  agent: SideSetup;
  user: SideSetup;
  /** What the simulated user knows and wants, in plain language (the user simulator's instructions). */
  userInstructions: string;
  initializationActions: SidedInitializationAction[];
  /** Gold actions, replayed in order; `result` is the recorded result where known. */
  referenceActions: SidedActionRecord[];
  dbStateAssertions: DbStateAssertion[];
  nlAssertions: string[];
  /** Expected `get_dict_hash` of each side's db after gold replay, when published with the data. */
  expectedDbHash?: string | null;
  expectedUserDbHash?: string | null;
  /**
   * The reference answer of the action match and the judge, when it is not the gold actions
   * (`{"actions": [...]}`): e.g. the order a restaurant scenario expects in a `<final_response>`.
   */
  referenceAnswer?: unknown;
  /** How the action match compares strings and lists, when the scenario says (NeMo's options). */
  actionMatch?: ActionMatchSettings;
  /**
   * Expected end-state values for scenario files that state them directly:
   * dotted paths (with `[id]` selectors) to values, checked after replay.
   */
  expectedState?: { agent?: JsonObject; user?: JsonObject };
}

/** A scenario's options of the action match (NeMo's `ignore_capitalization`, ...). */
export interface ActionMatchSettings {
  /** Lower-case strings before comparing. */
  ignoreCapitalization?: boolean;
  /** Remove `[^\w\s]` from strings before comparing. */
  ignorePunctuation?: boolean;
  /** As many predictions as reference items (top level only). */
  disallowExtraItems?: boolean;
}

/** Deltas for each side after a write on either side (dual-control domains). */
export interface SyncDeltas {
  agent: JsonObject;
  user: JsonObject;
}

/** A domain as the harness uses it: its registry module plus scenario loading and sync. */
export interface EvalDomain {
  /** Scenario-name prefix and registry namespace, e.g. `tau2_airline`. */
  name: string;
  /** Registered into a bot's registry (and the replay's). */
  module: DomainModule;
  /**
   * A data root the domain ships its own data in (e.g. `commerce/db.json`); bots and
   * replay search it after the configured data root.
   */
  dataRoot?: string;
  /** Load the domain's scenarios from a data root (tau2 data), or from data shipped with the package. */
  loadScenarios(dataRoot: string): Promise<Scenario[]>;
  /** For dual-control domains: compute the deltas that bring each side in line with the other's writes. */
  syncState?(agentDb: JsonObject, userDb: JsonObject): SyncDeltas;
}

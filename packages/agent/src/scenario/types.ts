/**
 * Core types of a scenario session: the database, tools, initialization
 * functions, db-state predicates and sync appliers that domains register.
 */
import type { ActionRecord } from '@scenaro/sdk/protocol';
import type { JsonObject } from '@scenaro/sdk/util';

export type { JsonObject };
/** A domain database: parsed JSON, mutated in place by tools. */
export type Db = JsonObject;

/** A JSON Schema for a tool's arguments (an object schema). */
export interface ToolParametersSchema {
  type: 'object';
  properties: Record<string, JsonObject>;
  required?: string[];
  additionalProperties?: boolean;
  [key: string]: unknown;
}

/**
 * How a tool behaves:
 * - `read`: looks at the db, changes nothing, no action recorded.
 * - `write`: changes the db; each successful call is recorded as an action and pushed.
 * - `control`: ends or steers the conversation (pushes `<exit>` after its result is delivered).
 * - `frontend`: runs in the user's browser over RPC, not in the bot.
 */
export type ToolKind = 'read' | 'write' | 'control' | 'frontend';

/** What a tool sees while it runs. */
export interface ToolContext {
  /** The session's state (db, shared state, actions). Tools mutate `state.db` in place. */
  readonly state: ScenarioState;
  /** The tool domain the tool was looked up in. */
  readonly domain: string;
  /** Aborted when the call is cancelled (interruption, session end). */
  readonly signal: AbortSignal;
  /** Constructor kwargs given for this tool in `update_system_prompt`'s `tools`. */
  readonly options: JsonObject;
  /**
   * Record an action of this call, for tools with `recordsOwnActions`: appended to
   * `state.actions` and pushed as `action-applied` at once.
   */
  readonly recordAction?: (record: SelfRecordedAction) => void;
  /** Push an RTVI `server-message` with `data` during the call (e.g. a `<final_response>` text). */
  readonly pushServerMessage?: (data: JsonObject) => void;
  /**
   * End the conversation once this call's result is delivered (`<exit>reason</exit>`), for
   * tools that end it only on some outcomes.
   */
  readonly endConversation?: (reason: string) => void;
}

/**
 * An action record a tool builds itself: an `action_type` and the fields of the tool's choosing
 * (NeMo's eva tools record e.g. `{action_type: 'rebook_flight', confirmation_number, change_fee,
 * ...}`, without `name` or `arguments`).
 */
export type SelfRecordedAction = JsonObject & { action_type: string };

/** What a tool shows the model for some constructor kwargs (see `ToolDefinition.describe`). */
export interface ToolDescription {
  description: string;
  parameters: ToolParametersSchema;
}

/** A tool the model (or a scripted policy, or gold replay) can call. */
export interface ToolDefinition<Args extends JsonObject = JsonObject> {
  /** Name the model sees and actions are recorded under (tau2's function name). */
  name: string;
  /** Other names the tool can be requested by in `update_system_prompt` (e.g. class-style names). */
  aliases?: readonly string[];
  description: string;
  parameters: ToolParametersSchema;
  kind: ToolKind;
  /** `action_type` of recorded actions; defaults to `name`. */
  actionType?: string;
  /**
   * Whether calls may run at the same time as other calls of one model response.
   * Defaults to true for `read` tools and false otherwise.
   */
  concurrent?: boolean;
  /**
   * For tools that end the conversation (`end_conversation`, `transfer_to_human_agents`):
   * the text pushed inside `<exit>...</exit>` after the result is delivered to the model.
   * Combine with `kind: 'write'` when the call must also be recorded as an action.
   */
  exitReason?: string;
  /** The tool's result is a final structured answer, pushed as `<final_response>{json}</final_response>`. */
  finalResponse?: boolean;
  /** For `frontend` tools: RPC method override and deadline. */
  frontend?: { method?: string; timeoutMs?: number; feature?: string };
  /**
   * The tool checks its own arguments: `execute` gets a copy of what the model sent, not checked
   * against `parameters` (which the model still sees). For ports whose tools answer invalid calls
   * themselves (NeMo's tools validate with pydantic, or not at all).
   */
  ownsArguments?: boolean;
  /**
   * The tool records its actions itself, through `context.recordAction` (none for a call it
   * refused with an error result). Without it, each successful call of a `write` tool is
   * recorded as `{action_type, name, arguments, result}`.
   */
  recordsOwnActions?: boolean;
  /** The form the model is given of a successful result. @default wrapToolResult */
  modelResult?(result: unknown): unknown;
  /**
   * What the model sees for the constructor kwargs given in `update_system_prompt`, for tools
   * whose schema depends on them; `description` and `parameters` otherwise.
   */
  describe?(options: JsonObject): ToolDescription;
  /**
   * Set up shared state when `update_system_prompt` binds the tool (after the scenario state was
   * cleared, before `apply_initialization`), in the order of its tools JSON; see
   * `applyBindHooks`. NeMo's tools seed shared state when they are built.
   */
  onBind?(shared: JsonObject, options: JsonObject): void;
  /**
   * Run the tool. Throw a {@link ToolError} (or any error) for a refused call: the
   * model then sees `{"error": message}` and no action is recorded.
   */
  execute(args: Args, context: ToolContext): unknown;
}

/** An error a tool raises on purpose, whose message the model should see as is. */
export class ToolError extends Error {
  override readonly name: string = 'ToolError';
}

/** Mutates `db` to set up a scenario. Throwing fails the initialization. */
export type InitializationFunction = (db: Db, args: JsonObject) => void;
/** Reads `db` and returns a value compared with an assertion's `assert_value`. */
export type DbStatePredicate = (db: Db, args: JsonObject) => unknown;

/** Outcome of applying a sync delta. */
export interface SyncApplyResult {
  /** Paths applied. */
  applied: string[];
  /** One message per path that could not be applied. */
  errors: string[];
}
/** Applies a cross-side delta to a db, in place. */
export type SyncApplier = (db: Db, delta: JsonObject) => SyncApplyResult;

/** Everything a domain contributes to the registries. */
export interface DomainModule {
  /** Registry namespace, e.g. `tau2_airline`. */
  name: string;
  tools?: readonly ToolDefinition[];
  initializationFunctions?: Readonly<Record<string, InitializationFunction>>;
  predicates?: Readonly<Record<string, DbStatePredicate>>;
  syncApplier?: SyncApplier;
}

/** A tool bound into a session by `update_system_prompt`. */
export interface BoundTool {
  tool: ToolDefinition;
  /** The domain it was found in (the requested one, or `default`). */
  domain: string;
  options: JsonObject;
}

/**
 * Per-session scenario state. The reference keeps these in one `shared_state`
 * dict; here the well-known entries have their own fields and everything else
 * from `shared_state_init` lives in `shared`.
 */
export interface ScenarioState {
  /** Merged `shared_state_init` values other than `db` and `db_path`. */
  shared: JsonObject;
  /** The session's own db (a private copy), if any. */
  db: Db | undefined;
  /** Where the db came from, for logs and errors. */
  dbSource?: string;
  /** Recorded write actions, in order. */
  actions: ActionRecord[];
  /** Tool registry namespace from `update_system_prompt`. */
  toolDomain: string;
  /** Tools bound by the last `update_system_prompt`, by name. */
  tools: Map<string, BoundTool>;
}

/** A fresh, empty scenario state. */
export function createScenarioState(): ScenarioState {
  return { shared: {}, db: undefined, actions: [], toolDomain: 'default', tools: new Map() };
}

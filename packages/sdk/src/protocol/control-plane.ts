/**
 * The RTVI control plane: six `client-message` types an evaluation bridge uses to
 * load a scenario into a bot, watch its actions and compare its database by hash.
 * Names, argument types with their documented defaults, result types, the
 * `server-message` pushes bots send, and validating argument parsers.
 */
import { z } from 'zod';
import type { ParseResult } from './rpc.js';

/** Wire names of the six control messages (`client-message` `t` values). */
export const CONTROL_MESSAGES = {
  RESET: 'reset',
  UPDATE_SYSTEM_PROMPT: 'update_system_prompt',
  GET_CONTEXT_HISTORY: 'get_context_history',
  GET_SCENARIO_SUMMARY: 'get_scenario_summary',
  APPLY_INITIALIZATION: 'apply_initialization',
  APPLY_SYNC_DELTA: 'apply_sync_delta',
} as const;

export type ControlMessageName = (typeof CONTROL_MESSAGES)[keyof typeof CONTROL_MESSAGES];
/** All six names, in documentation order. */
export const CONTROL_MESSAGE_NAMES: readonly ControlMessageName[] = Object.values(CONTROL_MESSAGES);
/** The control messages a production bot answers; an evaluation bot answers all six. */
export const PRODUCTION_CONTROL_MESSAGES: readonly ControlMessageName[] = [CONTROL_MESSAGES.RESET];

/** The domain used when none is named, and the fallback registry namespace. */
export const DEFAULT_DOMAIN = 'default';

/** One recorded tool call. The bridge and gold replay add `side`. */
export interface ActionRecord {
  action_type: string;
  name: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  side?: 'agent' | 'user';
}

/** One initialization action of a scenario. `side` is carried but ignored bot-side. */
export interface InitializationAction {
  func_name: string;
  arguments?: Record<string, unknown>;
  side?: 'agent' | 'user' | (string & {});
}

/** `reset`: no arguments. */
export type ResetArgs = Record<string, never>;
export type ResetResult = boolean;

export interface UpdateSystemPromptArgs {
  /** Required; an empty prompt returns `false` and changes nothing. */
  prompt?: string;
  /** JSON **string** mapping tool name to constructor kwargs. Default `"{}"`. */
  tools?: string;
  /** Append the server's configured system-prompt suffix. Default `true`. */
  add_suffix?: boolean;
  /** Tool-registry namespace. Default `"default"`. */
  tool_domain?: string;
}
export type UpdateSystemPromptResult = boolean;

/** Rendering of `get_context_history`: Python `str()` (reference-compatible) or a JSON string. */
export type ContextFormat = 'python' | 'json';
export interface GetContextHistoryArgs {
  /** Default `"python"`. */
  format?: ContextFormat;
}
export interface GetContextHistoryResult {
  context: string;
}

export interface GetScenarioSummaryArgs {
  /** Also inline this bot's db. Default `false`. */
  include_db?: boolean;
}
export interface GetScenarioSummaryResult {
  actions: ActionRecord[];
  /** `get_dict_hash` of the db, `null` when the bot holds none. */
  db_hash: string | null;
  /** Present only when `include_db` was true. */
  db?: unknown;
}

export interface ApplyInitializationArgs {
  /** Registry bucket for initialization functions. Default `"default"`. */
  domain?: string;
  /** JSON **string** that must decode to an object; merged into the session's shared state. Default `"{}"`. */
  shared_state_init?: string;
  /** Default `[]`. */
  actions?: InitializationAction[];
}
export interface ApplyInitializationResult {
  success: boolean;
  errors: string[];
  /**
   * What was skipped without failing the call: a `db_path` naming another db than the one
   * already loaded. Present only when there is something to report.
   */
  warnings?: string[];
}

export interface ApplySyncDeltaArgs {
  /** Selects the per-domain delta applier. Default `"default"`. */
  domain?: string;
  /** Dotted-path keys (with `[id]` list selectors) to new values. Default `{}`. */
  delta?: Record<string, unknown>;
}
export interface ApplySyncDeltaResult {
  success: boolean;
  errors: string[];
}

/** Argument and result type of each control message. */
export interface ControlMessageMap {
  reset: { args: ResetArgs; result: ResetResult };
  update_system_prompt: { args: UpdateSystemPromptArgs; result: UpdateSystemPromptResult };
  get_context_history: { args: GetContextHistoryArgs; result: GetContextHistoryResult };
  get_scenario_summary: { args: GetScenarioSummaryArgs; result: GetScenarioSummaryResult };
  apply_initialization: { args: ApplyInitializationArgs; result: ApplyInitializationResult };
  apply_sync_delta: { args: ApplySyncDeltaArgs; result: ApplySyncDeltaResult };
}
export type ControlArgs<N extends ControlMessageName> = ControlMessageMap[N]['args'];
export type ControlResult<N extends ControlMessageName> = ControlMessageMap[N]['result'];
/** Arguments with every documented default filled in. */
export type ResolvedControlArgs<N extends ControlMessageName> = Required<ControlArgs<N>>;

/** The documented default of every argument. */
export const CONTROL_DEFAULTS = {
  reset: {},
  update_system_prompt: { prompt: '', tools: '{}', add_suffix: true, tool_domain: DEFAULT_DOMAIN },
  get_context_history: { format: 'python' },
  get_scenario_summary: { include_db: false },
  apply_initialization: { domain: DEFAULT_DOMAIN, shared_state_init: '{}', actions: [] },
  apply_sync_delta: { domain: DEFAULT_DOMAIN, delta: {} },
} as const satisfies { [N in ControlMessageName]: ResolvedControlArgs<N> };

const record = z.record(z.string(), z.unknown());
const initializationAction = z
  .object({
    func_name: z.string().min(1),
    arguments: record.optional(),
    side: z.string().optional(),
  })
  .loose();

/**
 * zod schemas of the arguments. Unknown keys are ignored (as in the reference),
 * missing keys take their documented default, and a key of the wrong type is an
 * error that names it (the reference silently misreads such values).
 */
export const controlArgsSchemas = {
  reset: z.object({}).loose(),
  update_system_prompt: z
    .object({
      prompt: z.string().default(''),
      tools: z
        .string({ error: 'must be a JSON string mapping tool name to kwargs (not an object)' })
        .default('{}'),
      add_suffix: z.boolean().default(true),
      tool_domain: z.string().min(1).default(DEFAULT_DOMAIN),
    })
    .loose(),
  get_context_history: z.object({ format: z.enum(['python', 'json']).default('python') }).loose(),
  get_scenario_summary: z.object({ include_db: z.boolean().default(false) }).loose(),
  apply_initialization: z
    .object({
      domain: z.string().min(1).default(DEFAULT_DOMAIN),
      shared_state_init: z
        .string({ error: 'must be a JSON string that decodes to an object (not an object)' })
        .default('{}'),
      actions: z.array(initializationAction, { error: 'must be a list' }).default([]),
    })
    .loose(),
  apply_sync_delta: z
    .object({
      domain: z.string().min(1).default(DEFAULT_DOMAIN),
      delta: record.default({}),
    })
    .loose(),
} satisfies { [N in ControlMessageName]: z.ZodType };

/** Is `name` one of the six control messages? */
export function isControlMessageName(name: string): name is ControlMessageName {
  return (CONTROL_MESSAGE_NAMES as readonly string[]).includes(name);
}

/**
 * Validate a control message's `d` and fill in the defaults. `undefined` and
 * `null` mean "no arguments".
 */
export function parseControlArgs<N extends ControlMessageName>(
  name: N,
  d: unknown,
): ParseResult<ResolvedControlArgs<N>> {
  const schema = controlArgsSchemas[name] as z.ZodType;
  const input = d === undefined || d === null ? {} : d;
  if (typeof input !== 'object' || Array.isArray(input)) {
    const message = `${name} arguments must be an object`;
    return { ok: false, error: { path: '', message }, message };
  }
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data as ResolvedControlArgs<N> };
  const issue = result.error.issues[0];
  const path = issue ? issue.path.map(String).join('.') : '';
  const message = `${name}: ${path ? `${path} ` : ''}${issue?.message ?? 'invalid arguments'}`;
  return { ok: false, error: { path, message }, message };
}

// ---------------------------------------------------------------------------
// server-message pushes

/** Pushed after every successful write tool call. */
export interface ActionAppliedMessage {
  type: 'action-applied';
  action: ActionRecord;
  tool_domain: string;
}
/**
 * Pushed to every connected client when the server starts shutting down: it takes no new
 * connections, lets the turns in flight finish for up to `grace_ms`, then closes (1001). A client
 * finishes what it is doing and reconnects (a load balancer sends it to another server).
 */
export interface ServerDrainingMessage {
  type: 'server-draining';
  grace_ms: number;
}
/** Pushed by control tools: `<exit>...</exit>` ends the conversation; `<final_response>` carries a payload. */
export interface ControlTextMessage {
  text: string;
}

export const EXIT_TEXT_END_CONVERSATION = '<exit>The task is finished.</exit>';
export const EXIT_TEXT_TRANSFER = '<exit>Transfer complete.</exit>';

/** Wrap text in `<exit>` markers. */
export function exitText(reason: string): string {
  return `<exit>${reason}</exit>`;
}
/** Wrap a JSON payload in `<final_response>` markers. */
export function finalResponseText(payload: unknown): string {
  return `<final_response>${JSON.stringify(payload)}</final_response>`;
}
/** Does this push text end the conversation? */
export function isExitText(text: string): boolean {
  return /<exit>[\s\S]*<\/exit>/.test(text);
}
/** Extract the payload of a `<final_response>` push, or `undefined`. */
export function parseFinalResponseText(text: string): unknown {
  const match = /<final_response>([\s\S]*)<\/final_response>/.exec(text);
  if (!match) return undefined;
  try {
    return JSON.parse(match[1] ?? '');
  } catch {
    return undefined;
  }
}

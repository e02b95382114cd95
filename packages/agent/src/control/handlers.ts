/**
 * The six control-plane handlers. Each takes the raw `d` of a `client-message`,
 * validates it (documented defaults, clear errors for wrong types) and acts on
 * one session. A handler that throws is answered with an `error-response`.
 */
import { CONTROL_MESSAGES, RTVI_RPC_MESSAGES, parseControlArgs } from '@scenaro/sdk/protocol';
import type {
  ApplyInitializationResult,
  ApplySyncDeltaResult,
  ControlMessageName,
  GetContextHistoryResult,
  GetScenarioSummaryResult,
  ResolvedControlArgs,
} from '@scenaro/sdk/protocol';
import { isJsonObject } from '@scenaro/sdk/util';
import { contextHistory } from '../conversation/context-text.js';
import { sessionDbHash } from '../scenario/db-revision.js';
import { applyBindHooks } from '../scenario/bind-hooks.js';
import { applyDeltaDefault, deltaPathDepth } from '../scenario/delta-path.js';
import { applyInitialization } from '../scenario/initialize.js';
import { MAX_NESTING_DEPTH, nestingDepth } from '../scenario/nesting.js';
import type { BoundTool, JsonObject } from '../scenario/types.js';
import { parsePlaybackMark } from '../server/voice-playback.js';
import type { SessionControl } from './session-control.js';

/** Invalid control-message arguments. */
export class ControlArgumentError extends Error {
  override readonly name = 'ValueError';
}

function args<N extends ControlMessageName>(name: N, d: unknown): ResolvedControlArgs<N> {
  const parsed = parseControlArgs(name, d);
  if (!parsed.ok) throw new ControlArgumentError(parsed.message);
  return parsed.value;
}

/** A handler of one `client-message` type. */
export type ClientMessageHandler = (d: unknown, session: SessionControl) => unknown;

/** `reset`: back to the last system prompt; `true`, or `false` if the conversation's reset failed. */
export const reset: ClientMessageHandler = async (d, session) => {
  args(CONTROL_MESSAGES.RESET, d);
  try {
    await session.resetConversation();
    return true;
  } catch (err) {
    session.log.error({ err }, 'reset failed');
    return false;
  }
};

/**
 * `update_system_prompt`, all or nothing: an empty prompt, bad `tools` JSON, an
 * unknown tool name or a tool that cannot be set up returns `false` and changes
 * nothing. Otherwise the context gets the new prompt, the scenario state is
 * cleared, the tools are bound, and what they set up when bound (`onBind`, in
 * the tools JSON's order) seeds the fresh shared state.
 */
export const updateSystemPrompt: ClientMessageHandler = async (d, session) => {
  const a = args(CONTROL_MESSAGES.UPDATE_SYSTEM_PROMPT, d);
  if (a.prompt.length === 0) {
    session.log.warn({}, 'update_system_prompt: empty prompt, nothing changed');
    return false;
  }
  const tools = new Map<string, BoundTool>();
  if (session.options.enableToolCalling) {
    let spec: unknown;
    try {
      spec = JSON.parse(a.tools);
    } catch (err) {
      session.log.warn({ err }, 'update_system_prompt: tools is not valid JSON, nothing changed');
      return false;
    }
    if (!isJsonObject(spec)) {
      session.log.warn({}, 'update_system_prompt: tools must decode to an object, nothing changed');
      return false;
    }
    for (const name of Object.keys(spec)) {
      const found = session.registry.findTool(a.tool_domain, name);
      if (!found) {
        session.log.warn(
          {
            tool: name,
            tool_domain: a.tool_domain,
            available: session.registry.availableToolNames(a.tool_domain),
          },
          'update_system_prompt: unknown tool, nothing changed',
        );
        return false;
      }
      const kwargs = spec[name];
      const options = isJsonObject(kwargs) ? kwargs : {};
      tools.set(found.tool.name, { tool: found.tool, domain: found.domain, options });
    }
  }
  // What the tools set up when bound goes into the fresh scenario state; a tool that cannot be
  // set up (e.g. a malformed kwarg) leaves everything as it was.
  const seeded: JsonObject = {};
  try {
    applyBindHooks(seeded, tools.values());
  } catch (err) {
    session.log.warn({ err }, 'update_system_prompt: a tool could not be set up, nothing changed');
    return false;
  }
  const suffix = session.options.systemPromptSuffix;
  const content = a.add_suffix && suffix ? `${a.prompt}\n${suffix}` : a.prompt;
  await session.startScenario(content, a.tool_domain, tools);
  Object.assign(session.state.shared, seeded);
  return true;
};

/** `get_context_history`: the context, sanitized, as Python `str()` (default) or a JSON string. */
export const getContextHistory: ClientMessageHandler = async (
  d,
  session,
): Promise<GetContextHistoryResult> => {
  const a = args(CONTROL_MESSAGES.GET_CONTEXT_HISTORY, d);
  await session.whenIdle(session.options.contextIdleWaitMs);
  return contextHistory(session.context, a.format === 'json' ? 'json' : 'python');
};

/** `get_scenario_summary`: actions, `db_hash` (null without a db), and the db itself with `include_db`. */
export const getScenarioSummary: ClientMessageHandler = (d, session): GetScenarioSummaryResult => {
  const a = args(CONTROL_MESSAGES.GET_SCENARIO_SUMMARY, d);
  const { db, actions } = session.state;
  const dbHash = sessionDbHash(session.state);
  const summary: GetScenarioSummaryResult = { actions, db_hash: dbHash };
  if (a.include_db) summary.db = dbHash === null ? null : db;
  return summary;
};

/** `apply_initialization`, all or nothing (see {@link applyInitialization}). */
export const applyInitializationHandler: ClientMessageHandler = async (
  d,
  session,
): Promise<ApplyInitializationResult> => {
  const parsed = parseControlArgs(CONTROL_MESSAGES.APPLY_INITIALIZATION, d);
  if (!parsed.ok) return { success: false, errors: [parsed.message] };
  const result = await applyInitialization(
    session.state,
    parsed.value,
    session.registry,
    session.dbSource,
  );
  if (result.warnings) session.log.warn({ warnings: result.warnings }, 'apply_initialization');
  if (result.success) await session.initialized();
  return result;
};

/**
 * `apply_sync_delta`: apply a cross-side delta with the domain's applier (or the
 * default one). Every path that cannot be applied is reported in `errors`.
 */
export const applySyncDelta: ClientMessageHandler = (d, session): ApplySyncDeltaResult => {
  const parsed = parseControlArgs(CONTROL_MESSAGES.APPLY_SYNC_DELTA, d);
  if (!parsed.ok) return { success: false, errors: [parsed.message] };
  const { db } = session.state;
  if (db === undefined) {
    return { success: false, errors: ["No shared_state['db'] available to apply the delta to."] };
  }
  const applier = session.registry.syncApplier(parsed.value.domain) ?? applyDeltaDefault;
  // zod drops an own `__proto__` key; hand the applier the raw object so it refuses that path.
  const raw = (d as { delta?: unknown } | undefined | null)?.delta;
  const { allowed, refused } = withinNestingLimit(isJsonObject(raw) ? raw : parsed.value.delta);
  try {
    const { errors } = applier(db, allowed);
    const all = [...refused, ...errors];
    return { success: all.length === 0, errors: all };
  } catch (err) {
    return { success: false, errors: [`${(err as Error).name}: ${(err as Error).message}`] };
  }
};

/**
 * Splits a delta into the paths that keep the db within {@link MAX_NESTING_DEPTH} levels and an
 * error for each one that would not: a value `v` levels deep written `d` levels down makes that
 * branch `d + v` deep.
 */
function withinNestingLimit(delta: JsonObject): { allowed: JsonObject; refused: string[] } {
  const allowed: JsonObject = {};
  const refused: string[] = [];
  for (const path of Object.keys(delta)) {
    const value = delta[path];
    const depth = deltaPathDepth(path) + nestingDepth(value);
    if (depth > MAX_NESTING_DEPTH) {
      refused.push(
        `'${path}': the db would nest deeper than ${MAX_NESTING_DEPTH} levels (${depth} or more).`,
      );
    } else {
      // defineProperty: a `__proto__` path stays an own key, for the applier to refuse.
      Object.defineProperty(allowed, path, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return { allowed, refused };
}

/** Every control handler by wire name. */
export const CONTROL_HANDLERS: Readonly<Record<ControlMessageName, ClientMessageHandler>> = {
  reset,
  update_system_prompt: updateSystemPrompt,
  get_context_history: getContextHistory,
  get_scenario_summary: getScenarioSummary,
  apply_initialization: applyInitializationHandler,
  apply_sync_delta: applySyncDelta,
};

/**
 * Handlers that only read the session. Every other `client-message` handler (including any an
 * application registers) is treated as a possible db write, so no db hash outlives it.
 */
export const READ_ONLY_HANDLERS: ReadonlySet<ClientMessageHandler> = new Set([
  getScenarioSummary,
  getContextHistory,
]);

/**
 * Handlers a session runs one at a time in arrival order (the control messages): a client that
 * sends several without waiting gets exactly what it would have got waiting for each answer.
 */
export const SERIAL_HANDLERS: ReadonlySet<ClientMessageHandler> = new Set(
  Object.values(CONTROL_HANDLERS),
);

/**
 * Voice messages of a client that plays the bot's speech on its own clock: `audio-playback`
 * (`{reply, start}`), where a reply started playing in the bot's input stream.
 */
export const VOICE_HANDLERS: Readonly<Record<string, ClientMessageHandler>> = {
  'audio-playback': (d, session) => {
    session.voicePlayback?.(parsePlaybackMark(d));
    return true;
  },
};

/** The RPC-over-RTVI messages from the browser, routed to the session's transport. */
export const RPC_HANDLERS: Readonly<Record<string, ClientMessageHandler>> = {
  [RTVI_RPC_MESSAGES.ACK]: (d, session) => {
    session.rpc.handleAck(d);
    return true;
  },
  [RTVI_RPC_MESSAGES.RESPONSE]: (d, session) => {
    session.rpc.handleResponse(d);
    return true;
  },
  [RTVI_RPC_MESSAGES.CALL]: (d, session) => session.rpc.handleCall(d),
  [RTVI_RPC_MESSAGES.METHODS]: (d, session) => {
    session.rpc.handleMethods(d);
    return true;
  },
};

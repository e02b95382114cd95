/**
 * Types of the session's public contract: the config payload, tool handlers
 * (exactly the shape of the spec), and the events the UI observes.
 */
import type { RpcToolResponse } from '../protocol/index.js';
import type { CollectionStore } from './collections.js';

/** A JSON Schema (draft 2019-09 / 2020-12 subset ajv understands). */
export type JsonSchema = Record<string, unknown> | boolean;

/** One tool of the config payload. */
export interface ToolDefinition {
  /** Tool name, as the LLM and the agent know it. */
  name: string;
  description?: string;
  /** JSON Schema of `args`; when present the session validates every call against it. */
  parameters?: JsonSchema;
  /** RPC method override (Cockpit); the method is `name` otherwise. */
  frontend_method?: string | null;
  /** The agent's deadline for this tool, in ms. @default RPC_TIMEOUTS.FRONTEND_TOOL_MS */
  timeout_ms?: number;
  /** Feature (UI panel) that shows this tool's `componentData`. @default the tool name */
  feature?: string;
}

/** Tool settings handed to every handler. */
export type ToolSettings = Record<string, unknown>;

/** The config payload: tools to register and their settings. */
export interface ScenaroConfig {
  tools: readonly ToolDefinition[];
  settings?: ToolSettings;
}

/** Per-call context, the fifth handler argument. */
export interface ToolHandlerContext {
  /** Aborted on timeout, agent cancel, caller disconnect or session stop. */
  signal: AbortSignal;
  tool: ToolDefinition;
  /** Identity of the calling agent. */
  callerIdentity: string;
  /** Epoch ms at which the session answers `TIMEOUT` if the handler has not finished. */
  deadline: number;
  /** `sentAt` of the request, if the agent sent one (another clock: informative only). */
  sentAt?: number;
}

/** What a handler returns: `response` goes to the agent, `componentData` to the feature UI. */
export interface ToolHandlerResult<C = unknown> {
  requestId: string;
  response: RpcToolResponse;
  componentData?: C;
}

/**
 * A frontend tool handler, as in the spec:
 * `handler(requestId, args, settings, collections, {signal})`.
 */
export type ToolHandler<A extends Record<string, unknown> = Record<string, unknown>> = (
  requestId: string,
  args: A,
  settings: ToolSettings,
  collections: CollectionStore,
  context: ToolHandlerContext,
) => Promise<ToolHandlerResult> | ToolHandlerResult;

/** Handlers by tool name. */
export type ToolHandlers = Readonly<Record<string, ToolHandler>>;

/**
 * Type a handler's `args` (they were validated against the tool's schema) while
 * keeping it assignable to {@link ToolHandlers}.
 */
export function defineToolHandler<A extends Record<string, unknown>>(
  handler: ToolHandler<A>,
): ToolHandler {
  return (requestId, args, settings, collections, context) =>
    handler(requestId, args as A, settings, collections, context);
}

/** Lifecycle of one tool call as the UI sees it. */
export type ToolCallStatus = 'running' | 'success' | 'error' | 'timeout' | 'cancelled';

/** Emitted when a call starts and when it ends, for the tool's feature. */
export interface FeatureEvent {
  /** `tool.feature`, or the tool name. */
  feature: string;
  tool: string;
  requestId: string;
  status: ToolCallStatus;
  /** The handler's `componentData` (final events only, when the handler gave some). */
  componentData?: unknown;
  /** What the agent received (final events only). */
  response?: RpcToolResponse;
  /** Why the call did not succeed. */
  error?: string;
}

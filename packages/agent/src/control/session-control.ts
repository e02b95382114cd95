/**
 * What the control handlers need from a session, kept narrow so they can be
 * tested without a socket.
 */
import type { ConversationContext } from '../conversation/context.js';
import type { RtviRpcServerTransport } from '../server/rtvi-rpc-transport.js';
import type { DbSource } from '../scenario/initialize.js';
import type { DomainRegistry } from '../scenario/registry.js';
import type { BoundTool, ScenarioState } from '../scenario/types.js';
import type { PlaybackMark } from '../server/voice-playback.js';

export interface SessionControlOptions {
  /** Appended (after a newline) to prompts sent with `add_suffix`. */
  systemPromptSuffix: string;
  /** Bind tools in `update_system_prompt` (the reference's `enable_tool_calling`). */
  enableToolCalling: boolean;
  /** How long `get_context_history` waits for running tool calls. */
  contextIdleWaitMs: number;
}

export interface SessionControl {
  /** RPC to the browser over this connection. */
  readonly rpc: RtviRpcServerTransport;
  readonly state: ScenarioState;
  readonly context: ConversationContext;
  readonly registry: DomainRegistry;
  readonly dbSource: DbSource;
  readonly options: SessionControlOptions;
  readonly log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** Stop any running turn and return the context to its system prompt. */
  resetConversation(): Promise<void>;
  /** Install a new system prompt and tool set, clearing the scenario state. */
  startScenario(
    systemPrompt: string,
    toolDomain: string,
    tools: Map<string, BoundTool>,
  ): Promise<void>;
  /** Initialization succeeded. */
  initialized(): Promise<void>;
  /** Resolves once no tool call is running, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<void>;
  /** A client's playback mark: where a reply of the bot started playing (see `voice-playback.ts`). */
  voicePlayback?(mark: PlaybackMark): void;
}

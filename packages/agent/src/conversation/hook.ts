/**
 * The seam between a bot session and whatever produces its conversation (an
 * LLM loop, a scripted policy, or nothing at all). The session calls these
 * hooks; the conversation talks back through {@link ConversationHost}.
 */
import type {
  ActionRecord,
  RTVIMessage,
  ServerToClientMessageMap,
  ServerToClientType,
} from '@scenaro/sdk/protocol';
import type { RpcTransport } from '@scenaro/sdk';
import type { ScenarioState } from '../scenario/types.js';
import type { ConversationContext } from './context.js';

/** Options of one `send-text`, defaults applied. */
export interface SendTextOptions {
  runImmediately: boolean;
  audioResponse: boolean;
}

/** What a conversation can reach of its session. */
export interface ConversationHost {
  /** The session id (for logs). */
  readonly sessionId: string;
  /**
   * Scenario state: db, shared state, bound tools, actions. Change the db through tools
   * (`executeToolByName`); code that edits `state.db` directly must bracket the change with
   * `beginDbWrite(state)` or call `markDbChanged(state)`, or `db_hash` may be reused stale.
   */
  readonly state: ScenarioState;
  /** The session's context (system prompt and messages). */
  readonly context: ConversationContext;
  /** Send an RTVI event to the client. */
  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void;
  /** Push a `server-message` with an app payload. */
  push(data: unknown): void;
  /** Record-and-push hook for write tools: the action was appended to `state.actions`. */
  actionApplied(action: ActionRecord, toolDomain: string): void;
  /** Log with the session's id attached. */
  readonly log: {
    info(obj: object, msg?: string): void;
    warn(obj: object, msg?: string): void;
    error(obj: object, msg?: string): void;
  };
  /** Aborted when the session ends. */
  readonly signal: AbortSignal;
  /** RPC to the client's browser (frontend tools), when the connection carries one. */
  readonly rpc?: BrowserRpc;
  /** The bot's voice, when it speaks: replies with `audioResponse` are streamed into it. */
  readonly speech?: SpeechOutput;
}

/** What a scripted policy reads of its session: the scenario state and the context. */
export type PolicyHost = Pick<ConversationHost, 'state' | 'context'>;

/** Where a reply's text is spoken. */
export interface SpeechOutput {
  /** True while speech is playing or waiting to be spoken. */
  readonly active: boolean;
  /** More of the reply (sentences are spoken as they complete). */
  text(delta: string): void;
  /** Speak what has been collected now; more of the reply may follow (e.g. after a tool call). */
  flush(): void;
  /** The reply is complete. */
  end(): void;
  /** Drop the speech playing and pending; true when there was some. */
  interrupt(): boolean;
}

/** The part of a session's browser RPC the conversation uses. */
export interface BrowserRpc extends RpcTransport {
  /** Did the browser announce a handler for `method`? */
  hasRemoteMethod(method: string): boolean;
  /** The browser's identity for `performRpc`. */
  readonly remoteIdentity: string;
}

/** A conversation plugged into a session. Every hook is optional. */
export interface Conversation {
  /** `send-text`: a user turn arrived. */
  onUserText?(content: string, options: SendTextOptions): void | Promise<void>;
  /** Whether speech heard from the user (its transcript) is a turn; absent: always. */
  takesTurn?(heard: string): boolean;
  /**
   * The user spoke and the recognizer made out nothing, while the bot was silent: ask them to
   * say it again, or do nothing (undefined). Resolves once the reply has been handed to speech.
   */
  onUnheard?(): Promise<void> | undefined;
  /**
   * The user barged in: stop the running turn and the speech; returns true when either was
   * stopped (and `bot-interrupted` was sent).
   */
  interrupt?(): boolean;
  /** `reset`: the context went back to its system prompt; stop any running turn. */
  onReset?(): void | Promise<void>;
  /** `update_system_prompt` installed a new prompt and tool set; a new scenario begins. */
  onScenarioStart?(): void | Promise<void>;
  /** `apply_initialization` succeeded. */
  onInitialized?(): void | Promise<void>;
  /** Resolves when no tool call is running (or the timeout passes). */
  whenIdle?(timeoutMs: number): Promise<void>;
  /** Any other client -> server message the session does not handle itself. */
  onMessage?(message: RTVIMessage): void | Promise<void>;
  /** The session ended. */
  close?(): void;
}

/** Builds a session's conversation. */
export type ConversationFactory = (host: ConversationHost) => Conversation;

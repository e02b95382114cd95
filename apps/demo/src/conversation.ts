/**
 * The conversation with the bot, outside React: connects a `PipecatClient`, sends typed
 * messages (`send-text`), and folds the bot's events (streaming `bot-llm-text`,
 * `llm-function-call-*`, `turn-complete` pushes, errors, disconnects) into an observable
 * state the panel renders.
 */
import { RTVIEvent } from '@pipecat-ai/client-js';
import { RPC_RESPONSE_CODES, parseRpcToolResponse } from '@scenaro/sdk/protocol';
import type {
  LLMFunctionCallInProgressData,
  LLMFunctionCallStoppedData,
  PipecatClient,
  RTVIMessage,
  TransportState,
} from '@pipecat-ai/client-js';

/** The connection as the shopper sees it. */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

/** Where a tool call stands. `interrupted`: the connection closed while it ran. */
export type ToolStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** One line of the conversation log. */
export type ChatEntry =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'bot'; text: string; streaming: boolean }
  | {
      id: number;
      kind: 'tool';
      toolCallId: string;
      name: string;
      args?: Record<string, unknown>;
      status: ToolStatus;
      detail?: string;
    }
  | { id: number; kind: 'notice'; text: string; tone: 'info' | 'error' };

/** A new entry (the controller numbers it). */
type NewEntry = ChatEntry extends infer E ? (E extends ChatEntry ? Omit<E, 'id'> : never) : never;

/** What the conversation panel renders. */
export interface ConversationState {
  status: ConnectionStatus;
  entries: readonly ChatEntry[];
  /** A user turn is being answered. */
  thinking: boolean;
  mic: 'off' | 'on';
  /** Why the microphone is off, or what it does. */
  micMessage?: string;
}

/** A bot push the page reacts to (`action-applied`, `turn-complete`, ...). */
export type ServerMessageListener = (message: Record<string, unknown>) => void;

const MAX_ENTRIES = 200;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A tool result's failure: `{error}` from the bot, or a non-SUCCESS `RpcToolResponse`. */
export function toolFailure(result: unknown): string | undefined {
  if (!isObject(result)) return undefined;
  if (typeof result['error'] === 'string') return result['error'];
  if (!('requestId' in result)) return undefined;
  const parsed = parseRpcToolResponse(result);
  if (!parsed.ok || parsed.value.code === RPC_RESPONSE_CODES.SUCCESS) return undefined;
  const { code, data } = parsed.value;
  const message = isObject(data) && typeof data['message'] === 'string' ? data['message'] : '';
  return message ? `${code}: ${message}` : code;
}

function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (isObject(err) && isObject(err['data']) && typeof err['data']['message'] === 'string')
    return err['data']['message'];
  return String(err);
}

/** The microphone switch of the transport's media manager. */
export interface MicSwitch {
  setMic(enable: boolean): Promise<void>;
}

/** One page's conversation. */
export class ConversationController {
  readonly #client: PipecatClient;
  readonly #endpoint: { wsUrl: string; token?: string };
  readonly #mic: MicSwitch;
  readonly #listeners = new Set<() => void>();
  readonly #serverListeners = new Set<ServerMessageListener>();
  readonly #off: (() => void)[] = [];
  #state: ConversationState = { status: 'disconnected', entries: [], thinking: false, mic: 'off' };
  #nextId = 1;
  #streamingBot: number | undefined;
  #wanted = false;

  constructor(client: PipecatClient, endpoint: { wsUrl: string; token?: string }, mic?: MicSwitch) {
    this.#client = client;
    this.#endpoint = endpoint;
    this.#mic = mic ?? {
      setMic: async (enable) => {
        client.enableMic(enable);
      },
    };
    const on = <E extends RTVIEvent>(event: E, handler: (...args: never[]) => void) => {
      client.on(event, handler as never);
      this.#off.push(() => client.off(event, handler as never));
    };
    on(RTVIEvent.TransportStateChanged, (state: TransportState) => this.#onTransportState(state));
    on(RTVIEvent.BotReady, () => this.#set({ status: 'connected' }));
    on(RTVIEvent.Disconnected, () => this.#onDisconnected());
    on(RTVIEvent.BotLlmStarted, () => {
      this.#streamingBot = undefined;
    });
    on(RTVIEvent.BotLlmText, (data: { text: string }) => this.#onBotText(data.text));
    on(RTVIEvent.BotLlmStopped, () => this.#finishBotText());
    on(RTVIEvent.LLMFunctionCallInProgress, (data: LLMFunctionCallInProgressData) =>
      this.#onToolStarted(data),
    );
    on(RTVIEvent.LLMFunctionCallStopped, (data: LLMFunctionCallStoppedData) =>
      this.#onToolStopped(data),
    );
    on(RTVIEvent.ServerMessage, (data: unknown) => this.#onServerMessage(data));
    on(RTVIEvent.Error, (message: RTVIMessage) =>
      this.#notice(`The bot reported an error: ${errorText(message)}`, 'error'),
    );
  }

  // --- observable state ---------------------------------------------------

  getSnapshot = (): ConversationState => this.#state;

  /** The connection status now. */
  get status(): ConnectionStatus {
    return this.#state.status;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Listen to the bot's pushes (`server-message` data objects). */
  onServerMessage(listener: ServerMessageListener): () => void {
    this.#serverListeners.add(listener);
    return () => this.#serverListeners.delete(listener);
  }

  #set(patch: Partial<ConversationState>): void {
    this.#state = { ...this.#state, ...patch };
    for (const listener of [...this.#listeners]) listener();
  }

  #push(entry: NewEntry): number {
    const id = this.#nextId++;
    const entries = [...this.#state.entries, { ...entry, id } as ChatEntry].slice(-MAX_ENTRIES);
    this.#set({ entries });
    return id;
  }

  #update(id: number, patch: (entry: ChatEntry) => ChatEntry): void {
    this.#set({ entries: this.#state.entries.map((e) => (e.id === id ? patch(e) : e)) });
  }

  #notice(text: string, tone: 'info' | 'error' = 'info'): void {
    this.#push({ kind: 'notice', text, tone });
  }

  // --- actions ------------------------------------------------------------

  /** Connect to the bot (a new bot session, with a fresh store state). */
  async connect(): Promise<void> {
    if (this.#state.status === 'connecting' || this.#state.status === 'connected') return;
    this.#wanted = true;
    this.#set({ status: 'connecting' });
    try {
      const { wsUrl, token } = this.#endpoint;
      await this.#client.connect({ wsUrl, ...(token ? { token } : {}) } as never);
      this.#set({ status: 'connected' });
      this.#notice('Connected to the shop assistant. Type a request below.');
    } catch (err) {
      this.#wanted = false;
      this.#set({ status: 'error', thinking: false });
      this.#notice(`Could not connect to the assistant: ${errorText(err)}`, 'error');
    }
  }

  /** Close the connection; a running tool call is interrupted. */
  async disconnect(): Promise<void> {
    this.#wanted = false;
    try {
      await this.#client.disconnect();
    } catch (err) {
      this.#notice(`Disconnecting failed: ${errorText(err)}`, 'error');
    }
    if (this.#state.status !== 'disconnected') this.#onDisconnected();
  }

  /** Send a typed message (connecting first when needed). */
  async send(text: string): Promise<void> {
    const content = text.trim();
    if (!content) return;
    if (this.#state.status !== 'connected') {
      await this.connect();
      if (this.status !== 'connected') return;
    }
    this.#push({ kind: 'user', text: content });
    this.#set({ thinking: true });
    try {
      await this.#client.sendText(content);
    } catch (err) {
      this.#set({ thinking: false });
      this.#notice(`Your message was not sent: ${errorText(err)}`, 'error');
    }
  }

  /**
   * Turn the microphone on or off. It is used only when the browser allows it: a missing API,
   * a denied permission or no device leaves it off with a message, and typing keeps working.
   */
  async toggleMic(): Promise<void> {
    if (this.#state.mic === 'on') {
      await this.#mic.setMic(false).catch(() => undefined);
      this.#set({ mic: 'off', micMessage: 'Microphone off.' });
      return;
    }
    const devices = globalThis.navigator?.mediaDevices;
    if (!devices || typeof devices.getUserMedia !== 'function') {
      this.#set({
        mic: 'off',
        micMessage:
          'This browser does not allow microphone capture here (it needs HTTPS or localhost). Typing works.',
      });
      return;
    }
    try {
      const stream = await devices.getUserMedia({ audio: true });
      for (const track of stream.getTracks()) track.stop();
    } catch (err) {
      const name = (err as { name?: unknown } | null)?.name;
      const why =
        name === 'NotAllowedError'
          ? 'Microphone access was denied'
          : name === 'NotFoundError'
            ? 'No microphone was found'
            : `The microphone is unavailable (${String(name ?? err)})`;
      this.#set({ mic: 'off', micMessage: `${why}; you can keep typing.` });
      return;
    }
    try {
      await this.#mic.setMic(true);
      this.#set({
        mic: 'on',
        micMessage:
          'Microphone on: while connected, audio goes to the bot, which does not transcribe speech yet. Type your requests.',
      });
    } catch (err) {
      this.#set({ mic: 'off', micMessage: `The microphone could not start: ${errorText(err)}.` });
    }
  }

  /** Stop listening to the client. */
  dispose(): void {
    for (const off of this.#off.splice(0)) off();
    this.#listeners.clear();
    this.#serverListeners.clear();
  }

  // --- client events ------------------------------------------------------

  #onTransportState(state: TransportState): void {
    if (state === 'ready') this.#set({ status: 'connected' });
    else if (state === 'error') this.#set({ status: 'error' });
    else if (state === 'disconnected' || state === 'disconnecting') {
      if (this.#state.status !== 'disconnected' && state === 'disconnected') this.#onDisconnected();
    } else if (this.#state.status !== 'connected') this.#set({ status: 'connecting' });
  }

  #onDisconnected(): void {
    if (this.#state.status === 'disconnected') return;
    const interrupted: string[] = [];
    const entries = this.#state.entries.map((e): ChatEntry => {
      if (e.kind === 'tool' && e.status === 'running') {
        interrupted.push(e.name);
        return { ...e, status: 'interrupted', detail: 'the connection closed' };
      }
      if (e.kind === 'bot' && e.streaming) return { ...e, streaming: false };
      return e;
    });
    const wasThinking = this.#state.thinking;
    this.#streamingBot = undefined;
    if (this.#state.mic === 'on') void this.#mic.setMic(false).catch(() => undefined);
    this.#set({ status: 'disconnected', entries, thinking: false, mic: 'off' });
    const unexpected = this.#wanted ? ' The connection was lost.' : '';
    this.#wanted = false;
    this.#notice(
      interrupted.length > 0 || wasThinking
        ? `Disconnected while the assistant was working${
            interrupted.length > 0 ? ` (${interrupted.join(', ')} interrupted)` : ''
          }.${unexpected} Nothing is running now. Connect again to start a new session; the cart starts over.`
        : `Disconnected.${unexpected} Connect again to start a new session; the cart starts over.`,
      interrupted.length > 0 || unexpected ? 'error' : 'info',
    );
  }

  #onBotText(text: string): void {
    const id = this.#streamingBot;
    if (id === undefined) {
      this.#streamingBot = this.#push({ kind: 'bot', text, streaming: true });
      return;
    }
    this.#update(id, (e) => (e.kind === 'bot' ? { ...e, text: e.text + text } : e));
  }

  #finishBotText(): void {
    const id = this.#streamingBot;
    this.#streamingBot = undefined;
    if (id !== undefined)
      this.#update(id, (e) => (e.kind === 'bot' ? { ...e, streaming: false } : e));
  }

  #onToolStarted(data: LLMFunctionCallInProgressData): void {
    this.#finishBotText();
    this.#push({
      kind: 'tool',
      toolCallId: data.tool_call_id,
      name: data.function_name ?? 'a tool',
      ...(data.arguments ? { args: data.arguments } : {}),
      status: 'running',
    });
  }

  #onToolStopped(data: LLMFunctionCallStoppedData): void {
    const entry = [...this.#state.entries]
      .reverse()
      .find((e) => e.kind === 'tool' && e.toolCallId === data.tool_call_id);
    if (!entry) return;
    const failure = toolFailure(data.result);
    this.#update(entry.id, (e) =>
      e.kind === 'tool'
        ? {
            ...e,
            status: data.cancelled ? 'cancelled' : failure ? 'failed' : 'done',
            ...(failure ? { detail: failure } : {}),
          }
        : e,
    );
  }

  #onServerMessage(data: unknown): void {
    if (!isObject(data)) return;
    if (data['type'] === 'turn-complete') {
      this.#finishBotText();
      this.#set({ thinking: false });
      if (typeof data['error'] === 'string')
        this.#notice(`The turn failed: ${data['error']}`, 'error');
    } else if (typeof data['text'] === 'string' && data['text'].startsWith('<exit>')) {
      this.#notice('The assistant ended the conversation.');
    }
    for (const listener of [...this.#serverListeners]) listener(data);
  }
}

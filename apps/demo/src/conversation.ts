/**
 * The conversation with the bot, outside React: connects through the voice surface, sends typed
 * messages (`send-text`), and folds the bot's events (streaming `bot-llm-text`,
 * `llm-function-call-*`, `turn-complete` pushes, errors, disconnects) and the voice's (the
 * shopper's words as they are recognized, the reply as it is spoken, barge-in) into an
 * observable state the panel renders.
 */
import { RTVIEvent } from '@pipecat-ai/client-js';
import type { Voice } from '@scenaro/sdk';
import { RPC_RESPONSE_CODES, parseRpcToolResponse } from '@scenaro/sdk/protocol';
import type {
  LLMFunctionCallInProgressData,
  LLMFunctionCallStoppedData,
  PipecatClient,
  RTVIMessage,
  TransportState,
} from '@pipecat-ai/client-js';
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import { locateSpoken } from './chat-entries';
import type { ChatEntry, SpeechCursor } from './chat-entries';
import type { DemoVoice } from './types';

export type { ChatEntry, ToolStatus } from './chat-entries';

/** The connection as the shopper sees it. */
export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected' | 'error';

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
  /** The latest thing worth announcing (barge-in), numbered so a repeat is announced again. */
  announcement?: { text: string; n: number };
}

/** A bot push the page reacts to (`action-applied`, `turn-complete`, ...). */
export type ServerMessageListener = (message: Record<string, unknown>) => void;

const MAX_ENTRIES = 200;

/** A tool result's failure: `{error}` from the bot, or a non-SUCCESS `RpcToolResponse`. */
export function toolFailure(result: unknown): string | undefined {
  if (!isJsonObject(result)) return undefined;
  if (typeof result['error'] === 'string') return result['error'];
  if (!('requestId' in result)) return undefined;
  const parsed = parseRpcToolResponse(result);
  if (!parsed.ok || parsed.value.code === RPC_RESPONSE_CODES.SUCCESS) return undefined;
  const { code, data } = parsed.value;
  const message = isJsonObject(data) && typeof data['message'] === 'string' ? data['message'] : '';
  return message ? `${code}: ${message}` : code;
}

/** An error's text; an RTVI error message reads as the message in its `data`. */
function errorText(err: unknown): string {
  if (!(err instanceof Error) && isJsonObject(err) && isJsonObject(err['data'])) {
    const message = err['data']['message'];
    if (typeof message === 'string') return message;
  }
  return errorMessage(err);
}

/** What the controller needs besides the client and the voice. */
export interface ConversationOptions {
  /** What the bot does with speech. */
  voice: DemoVoice;
  /** Let the page play sound (called on the shopper's clicks). */
  unlockAudio?: () => void;
}

/** One page's conversation. */
export class ConversationController {
  readonly #client: PipecatClient;
  readonly #voice: Voice;
  readonly #options: ConversationOptions;
  readonly #listeners = new Set<() => void>();
  readonly #serverListeners = new Set<ServerMessageListener>();
  readonly #off: (() => void)[] = [];
  #state: ConversationState = { status: 'disconnected', entries: [], thinking: false, mic: 'off' };
  #nextId = 1;
  #streamingBot: number | undefined;
  /** The shopper's words being recognized. */
  #hearing: number | undefined;
  /** How far the bot has spoken in the voiced lines. */
  #spoken: SpeechCursor | undefined;
  #wanted = false;
  #announcements = 0;

  constructor(client: PipecatClient, voice: Voice, options: ConversationOptions) {
    this.#client = client;
    this.#voice = voice;
    this.#options = options;
    this.#off.push(
      voice.on('transcript', (t) => {
        if (!t.captured) this.#onHeard(t.text, t.final);
      }),
      voice.on('bot-speech', (e) => this.#onSpoken(e.text)),
      voice.on('bot-speaking', (e) =>
        e.speaking ? this.#startSpeaking() : this.#stopSpeaking(false),
      ),
      voice.on('bot-interrupted', () => this.#onInterrupted()),
      voice.on('state', (state) => {
        if (state.mic !== 'on' && this.#state.mic === 'on') this.#set({ mic: 'off' });
      }),
    );
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
    this.#options.unlockAudio?.();
    this.#set({ status: 'connecting' });
    try {
      await this.#voice.connect();
      this.#set({ status: 'connected' });
      this.#notice(
        this.#state.mic === 'on'
          ? 'Connected to the shop assistant. Speak, or type a request below.'
          : 'Connected to the shop assistant. Type a request below, or turn the microphone on to talk.',
      );
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
      await this.#voice.disconnect();
    } catch (err) {
      this.#notice(`Disconnecting failed: ${errorText(err)}`, 'error');
    }
    if (this.#state.status !== 'disconnected') this.#onDisconnected();
  }

  /** Send a typed message (connecting first when needed). */
  async send(text: string): Promise<void> {
    const content = text.trim();
    if (!content) return;
    this.#options.unlockAudio?.();
    if (this.#state.status !== 'connected') {
      await this.connect();
      if (this.status !== 'connected') return;
    }
    this.#push({ kind: 'user', text: content });
    this.#set({ thinking: true });
    try {
      // Spoken replies while the microphone is on (a voice conversation); written otherwise.
      await this.#client.sendText(content, { audio_response: this.#voiceReplies });
    } catch (err) {
      this.#set({ thinking: false });
      this.#notice(`Your message was not sent: ${errorText(err)}`, 'error');
    }
  }

  /**
   * Turn the microphone on or off (connecting first when needed). It is used only when the
   * browser allows it: a missing API, a denied permission or no device leaves it off with a
   * message, and typing keeps working.
   */
  async toggleMic(): Promise<void> {
    this.#options.unlockAudio?.();
    if (this.#state.mic === 'on') {
      await this.#voice.setMicEnabled(false);
      this.#set({
        mic: 'off',
        micMessage: 'Microphone off. Type your requests, or turn it on again to talk.',
      });
      return;
    }
    if (!(await this.#voice.setMicEnabled(true))) {
      const why = this.#voice.state.micError?.message ?? 'The microphone could not start.';
      this.#set({ mic: 'off', micMessage: why });
      return;
    }
    const { listens, problem } = this.#options.voice;
    if (!listens || problem) {
      await this.#voice.setMicEnabled(false);
      this.#set({
        mic: 'off',
        micMessage: problem
          ? `The assistant cannot hear you: its speech recognition is not available (${problem}). You can keep typing.`
          : 'The assistant here does not listen to speech (the demo was started without speech recognition); you can keep typing.',
      });
      return;
    }
    this.#set({
      mic: 'on',
      micMessage: this.#options.voice.speaks
        ? 'Microphone on: speak to the assistant; it answers aloud. Speak over it to interrupt.'
        : 'Microphone on: speak to the assistant (it answers in text).',
    });
    if (this.#state.status !== 'connected') await this.connect();
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
      if (e.kind === 'bot' && (e.streaming || e.speaking))
        return { ...e, streaming: false, speaking: false };
      if (e.kind === 'user' && e.interim) return { ...e, interim: false };
      return e;
    });
    const wasThinking = this.#state.thinking;
    this.#streamingBot = undefined;
    this.#hearing = undefined;
    this.#spoken = undefined;
    if (this.#state.mic === 'on') void this.#voice.setMicEnabled(false);
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
      const voiced = this.#voiceReplies;
      this.#streamingBot = this.#push({
        kind: 'bot',
        text,
        streaming: true,
        ...(voiced ? { voiced, spoken: 0 } : {}),
      });
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

  /** Replies are spoken: the bot has a voice and the microphone is on. */
  get #voiceReplies(): boolean {
    return this.#options.voice.speaks && this.#state.mic === 'on';
  }

  /** The shopper's words as the bot recognizes them: one line, fixed by the final. */
  #onHeard(text: string, final: boolean): void {
    const words = text.trim();
    const id = this.#hearing;
    if (final) this.#hearing = undefined;
    if (id === undefined) {
      if (!words) return;
      const added = this.#push({ kind: 'user', text: words, voice: true, interim: !final });
      if (!final) this.#hearing = added;
    } else if (!words && final) {
      this.#set({ entries: this.#state.entries.filter((e) => e.id !== id) });
    } else if (words) {
      this.#update(id, (e) => (e.kind === 'user' ? { ...e, text: words, interim: !final } : e));
    }
    // A final transcript is the shopper's turn: the assistant works on it.
    if (final && words) this.#set({ thinking: true });
  }

  /** A sentence of the reply was spoken: the line shows it. */
  #onSpoken(sentence: string): void {
    const found = locateSpoken(this.#state.entries, this.#spoken, sentence);
    if (!found) return;
    const previous = this.#spoken?.id;
    this.#spoken = found;
    this.#set({
      entries: this.#state.entries.map((e) => {
        if (e.kind !== 'bot') return e;
        if (e.id === found.id) return { ...e, spoken: found.offset, speaking: true };
        if (e.id === previous && e.speaking) return { ...e, speaking: false };
        return e;
      }),
    });
  }

  /** The first voiced line not yet fully spoken, at or after the speech cursor. */
  #unspokenLine(): ChatEntry | undefined {
    const from = this.#spoken?.id ?? 0;
    return this.#state.entries.find(
      (e) => e.kind === 'bot' && e.voiced && e.id >= from && (e.spoken ?? 0) < e.text.length,
    );
  }

  /** The bot's voice started: the line it speaks shows it at once. */
  #startSpeaking(): void {
    const line = this.#unspokenLine();
    if (line?.kind !== 'bot') return;
    this.#spoken = { id: line.id, offset: line.spoken ?? 0 };
    this.#update(line.id, (e) => (e.kind === 'bot' ? { ...e, speaking: true } : e));
  }

  /** The bot stopped speaking; `interrupted` marks the line it was speaking. */
  #stopSpeaking(interrupted: boolean): void {
    const id = this.#spoken?.id;
    if (id === undefined) return;
    this.#update(id, (e) =>
      e.kind === 'bot' && (e.speaking || interrupted)
        ? { ...e, speaking: false, ...(interrupted ? { interrupted: true } : {}) }
        : e,
    );
  }

  /** Barge-in: the line being spoken (or about to be) is marked, and the page says so. */
  #onInterrupted(): void {
    const cut = this.#unspokenLine();
    if (cut) {
      this.#spoken = { id: cut.id, offset: cut.kind === 'bot' ? (cut.spoken ?? 0) : 0 };
      this.#stopSpeaking(true);
    }
    this.#set({
      announcement: { text: 'You interrupted the assistant.', n: ++this.#announcements },
    });
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
    if (!isJsonObject(data)) return;
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

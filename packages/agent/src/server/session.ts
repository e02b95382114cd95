/**
 * One bot session: the state of one client's conversation. It reads RTVI messages,
 * answers the handshake and `client-message` requests, forwards conversation
 * input to its {@link Conversation}, and writes through the callbacks of the connection
 * attached to it, so it can be driven without a socket and can move to another connection
 * (a client coming back) with its state whole.
 */
import { RpcError } from '@scenaro/sdk';
import {
  botReady,
  errorResponse,
  negotiateVersion,
  rtviError,
  rtviRpcCallErrorMessage,
  serverEvent,
  serverMessage,
  serverResponse,
} from '@scenaro/sdk/protocol';
import type {
  ActionAppliedMessage,
  AudioFrameValue,
  ActionRecord,
  ClientMessageData,
  ClientRtviMessage,
  ClientToServerMessage,
  InvalidMessageError,
  SendTextData,
  RTVIMessage,
  ServerToClientMessageMap,
  ServerToClientType,
} from '@scenaro/sdk/protocol';
import { READ_ONLY_HANDLERS, SERIAL_HANDLERS } from '../control/handlers.js';
import type { ClientMessageHandler } from '../control/handlers.js';
import type { SessionControl, SessionControlOptions } from '../control/session-control.js';
import { ConversationContext } from '../conversation/context.js';
import type {
  Conversation,
  ConversationHost,
  SendTextOptions,
  SpeechOutput,
} from '../conversation/hook.js';
import { beginDbWrite } from '../scenario/db-revision.js';
import type { DbSource } from '../scenario/initialize.js';
import type { DomainRegistry } from '../scenario/registry.js';
import { createScenarioState } from '../scenario/types.js';
import type { BoundTool, ScenarioState } from '../scenario/types.js';
import type { Logger } from './logger.js';
import { screenMessage } from './message-screen.js';
import { RtviRpcServerTransport } from './rtvi-rpc-transport.js';
import { SerialQueue } from './serial-queue.js';
import { DEFAULT_SESSION_LIMITS, limitErrors } from './session-limits.js';
import type { SessionLimits } from './session-limits.js';
import { ORACLE_SAID_MESSAGE } from '../voice/stt.js';
import type { SessionConnection } from './session-connection.js';
import { VoiceSession } from './voice-session.js';
import type { PlaybackMark } from './voice-playback.js';

export type { SessionConnection } from './session-connection.js';
export type { BotSessionOptions } from './session-options.js';
import type { BotSessionOptions } from './session-options.js';

function errorName(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return `Error: ${String(err)}`;
}

/** A connected client's session. */
export class BotSession implements SessionControl, ConversationHost {
  readonly sessionId: string;
  readonly state: ScenarioState = createScenarioState();
  readonly context = new ConversationContext();
  readonly registry: DomainRegistry;
  readonly dbSource: DbSource;
  readonly options: SessionControlOptions;
  readonly log: Logger;
  readonly #abort = new AbortController();
  /** The options, with the connection callbacks going to whichever connection is attached. */
  readonly #opts: BotSessionOptions;
  #connection: SessionConnection | undefined;
  readonly #conversation: Conversation;
  readonly #inflight = new Set<Promise<void>>();
  readonly #serial: SerialQueue;
  readonly #limits: SessionLimits;
  /** Requests taken and not yet answered. */
  #pending = 0;
  /** Turns waiting or running. */
  #turns = 0;
  /** Input is paused: too many requests pending, a full audio queue. */
  #inputPaused = false;
  #audioPaused = false;
  #ready = false;
  #ignoredAudio = false;
  /** RPC to the browser over this connection (frontend tools, UI activity, dictation). */
  readonly rpc: RtviRpcServerTransport;
  /** Ears and voice, when the server has them. */
  readonly voice: VoiceSession | undefined;

  constructor(options: BotSessionOptions) {
    const { send, close, whenWritable, pauseInput, readySession, sendAudio } = options;
    this.#connection = { send, close, whenWritable, pauseInput, readySession, sendAudio };
    this.#opts = {
      ...options,
      send: (message) => this.#deliver(message),
      close: (code, reason) => this.#connection?.close(code, reason),
      whenWritable: () => this.#connection?.whenWritable?.(),
      pauseInput: (paused) => this.#connection?.pauseInput?.(paused),
    };
    this.sessionId = options.id;
    this.registry = options.registry;
    this.dbSource = options.dbSource;
    this.options = {
      systemPromptSuffix: options.systemPromptSuffix,
      enableToolCalling: options.enableToolCalling,
      contextIdleWaitMs: options.contextIdleWaitMs,
    };
    this.log = options.log;
    this.rpc = new RtviRpcServerTransport({
      send: (message) => this.#opts.send(message),
      signal: this.#abort.signal,
      connected: () => this.#connection !== undefined,
    });
    this.voice = options.voice
      ? new VoiceSession(options.voice, {
          emit: (type, data) => this.emit(type, data),
          push: (data) => this.push(data),
          sendAudio: (pcm, rate) => this.#connection?.sendAudio?.(pcm, rate),
          userSpeech: (text) => this.#userSpeech(text),
          userUnheard: () => {
            const run = this.#abort.signal.aborted ? undefined : this.#conversation.onUnheard?.();
            if (!run) return undefined;
            const settled = this.#guard(run, 'unheard speech');
            this.#track(settled);
            return settled;
          },
          interruptTurn: () => this.#conversation.interrupt?.(),
          rpc: this.rpc,
          log: this.log,
          ready: () => this.#ready,
          pauseAudio: (paused) => {
            const wasPaused = this.#inputPaused || this.#audioPaused;
            this.#audioPaused = paused;
            this.#pace(wasPaused);
          },
          ...options.voiceBounds,
        })
      : undefined;
    this.#conversation = options.conversation?.(this) ?? {};
    this.#limits = options.limits ?? DEFAULT_SESSION_LIMITS;
    this.#serial = new SerialQueue({ ready: this.#opts.whenWritable });
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** True once `client-ready` was answered on the attached connection. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Is a connection attached? */
  get attached(): boolean {
    return this.#connection !== undefined;
  }

  /**
   * Continue on `connection` (a client that came back, or took the session over): the state,
   * db, context and conversation are kept; the new client handshakes again. The session must
   * be detached first.
   */
  attach(connection: SessionConnection): void {
    if (this.#abort.signal.aborted) throw new Error('the session has ended');
    if (this.#connection) throw new Error('the session already has a connection');
    this.#connection = connection;
    this.#ready = false;
    if (this.#inputPaused || this.#audioPaused) connection.pauseInput?.(true);
  }

  /**
   * Let go of the connection: until another is attached, output is dropped (logged at debug),
   * running work goes on, and browser RPCs fail with 1503 (calls waiting on the old connection
   * included).
   */
  detach(): void {
    if (!this.#connection) return;
    this.#connection = undefined;
    this.#ready = false;
    this.rpc.disconnected();
    // Nobody hears the rest of the reply, and the user's broken-off utterance ends here.
    this.voice?.speech?.interrupt();
    this.voice?.connectionLost();
  }

  #deliver(message: RTVIMessage): boolean {
    const connection = this.#connection;
    if (connection) return connection.send(message);
    this.log.debug({ type: message.type }, 'no connection attached; message dropped');
    return false;
  }

  /** Number of requests being handled. */
  get inflight(): number {
    return this.#inflight.size;
  }

  /** Resolves when every request being handled has been answered. */
  async drain(): Promise<void> {
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
  }

  // --- ConversationHost ---------------------------------------------------

  get speech(): SpeechOutput | undefined {
    return this.voice?.speech;
  }

  emit<K extends ServerToClientType>(type: K, data?: ServerToClientMessageMap[K]): void {
    this.#opts.send(serverEvent(type, data));
  }

  push(data: unknown): void {
    this.#opts.send(serverMessage(data));
  }

  actionApplied(action: ActionRecord, toolDomain: string): void {
    this.push({
      type: 'action-applied',
      action,
      tool_domain: toolDomain,
    } satisfies ActionAppliedMessage);
  }

  // --- SessionControl -----------------------------------------------------

  async resetConversation(): Promise<void> {
    this.context.reset();
    await this.#conversation.onReset?.();
  }

  async startScenario(
    systemPrompt: string,
    toolDomain: string,
    tools: Map<string, BoundTool>,
  ): Promise<void> {
    this.context.setSystemPrompt(systemPrompt);
    const fresh = createScenarioState();
    this.state.shared = fresh.shared;
    this.state.db = undefined;
    delete this.state.dbSource;
    this.state.actions = [];
    this.state.toolDomain = toolDomain;
    this.state.tools = tools;
    await this.#conversation.onScenarioStart?.();
  }

  async initialized(): Promise<void> {
    await this.#conversation.onInitialized?.();
  }

  async whenIdle(timeoutMs: number): Promise<void> {
    await this.#conversation.whenIdle?.(timeoutMs);
  }

  voicePlayback(mark: PlaybackMark): void {
    this.voice?.playback(mark);
  }

  // --- inbound ------------------------------------------------------------

  /** Hear one `AudioRawFrame` of the user (ignored when the server has no voice). */
  audio(frame: AudioFrameValue): void {
    if (!this.voice) {
      if (!this.#ignoredAudio) this.log.debug({}, 'ignoring audio: this server has no voice');
      this.#ignoredAudio = true;
      return;
    }
    this.voice.audio(frame);
  }

  /**
   * Handle one RTVI message of the client, as decoded: a valid one, or an envelope refused by
   * validation (see {@link screenMessage}).
   */
  handle(input: ClientRtviMessage | InvalidMessageError): void {
    const screened = screenMessage(input);
    if (screened.kind === 'handle') this.#dispatch(screened.message);
    else if (screened.kind === 'answer') this.#opts.send(screened.answer);
    else {
      const { type, data } = screened.envelope;
      this.log.warn({ type, data }, 'peer reported an error; not answering');
    }
  }

  #dispatch(message: ClientToServerMessage): void {
    const id = message.id as string;
    switch (message.type) {
      case 'client-ready': {
        const check = negotiateVersion(
          (message.data as { version?: unknown } | undefined)?.version,
        );
        if (!check.ok) this.#opts.send(errorResponse(id, check.error));
        const session = this.#connection?.readySession?.();
        this.#opts.send(botReady(id, check.version, this.#opts.about, session));
        this.#ready = true;
        this.log.info({ version: check.version }, 'client ready');
        return;
      }
      case 'client-message': {
        const { t, d } = message.data as ClientMessageData;
        if (t === ORACLE_SAID_MESSAGE && this.voice?.toldText) {
          // Only a bot whose recognizer is told what was said (the oracle) knows this message.
          const error = this.voice.toldMessage(d);
          this.#opts.send(error ? errorResponse(id, error) : serverResponse(id, t, true));
          return;
        }
        const handler = this.#opts.router.get(t);
        if (!handler) {
          this.#opts.send(errorResponse(id, `unknown message type: ${t}`));
        } else if (this.#overPending(id)) {
          return;
        } else if (SERIAL_HANDLERS.has(handler)) {
          this.#serially(() => this.#answer(id, t, handler, d));
        } else {
          this.#track(this.#counted(this.#answer(id, t, handler, d)));
        }
        return;
      }
      case 'send-text': {
        if (this.#overPending(id)) return;
        const data = message.data as SendTextData;
        this.#serially(async () => this.#userText(id, data));
        return;
      }
      case 'disconnect-bot':
        this.#opts.close(1000, 'disconnect-bot');
        return;
      case 'append-to-context':
        this.#opts.send(errorResponse(id, 'Unsupported type append-to-context'));
        return;
      default:
        if (this.#overPending(id)) return;
        this.#serially(async () => {
          const run = this.#conversation.onMessage?.(message);
          if (run) this.#track(this.#guard(run, message.type));
        });
    }
  }

  #userText(id: string, data: SendTextData): void {
    const options = data.options ?? {};
    void this.#userTurn(
      data.content,
      {
        runImmediately: options.run_immediately ?? true,
        audioResponse: options.audio_response ?? true,
      },
      'send-text',
      (error) => this.#opts.send(errorResponse(id, error)),
    );
  }

  /** The user said `text`: a turn answered in speech, in order; resolves once it has run. */
  async #userSpeech(text: string): Promise<void> {
    if (this.#abort.signal.aborted) return;
    if (this.voice?.selective && this.#conversation.takesTurn?.(text) === false)
      return this.log.info({ text }, 'speech heard is not a turn for this conversation');
    const speech = { runImmediately: true, audioResponse: true };
    const refuse = (error: string) => this.#opts.send(rtviError(error, false));
    let turn: Promise<void> | undefined;
    await new Promise<void>((taken) =>
      this.#serially(async () => {
        turn = this.#userTurn(text, speech, 'speech', refuse);
        taken();
      }),
    );
    await turn;
  }

  /** Start a user turn within the session's limits; `refuse` reports a refusal. */
  #userTurn(
    content: string,
    options: SendTextOptions,
    what: string,
    refuse: (error: string) => void,
  ): Promise<void> | undefined {
    const { maxContextBytes, maxQueuedTurns } = this.#limits;
    if (options.runImmediately && this.#turns >= maxQueuedTurns) {
      refuse(limitErrors.turns(maxQueuedTurns));
      return;
    }
    // The message costs its content plus a few bytes of JSON around it.
    const bytes = this.context.bytes + Buffer.byteLength(content, 'utf8') + 32;
    if (bytes > maxContextBytes) {
      this.log.warn({ bytes, maxContextBytes }, `${what} refused: context limit`);
      refuse(limitErrors.context(bytes, maxContextBytes));
      return;
    }
    const run = this.#conversation.onUserText?.(content, options);
    if (!run) return;
    this.#turns++;
    const settled = this.#guard(run, what).finally(() => this.#turns--);
    this.#track(settled);
    return settled;
  }

  /** Refuses request `id` when the session already has its most pending requests. */
  #overPending(id: string): boolean {
    const limit = this.#limits.maxPendingRequests;
    if (this.#pending < limit) return false;
    this.#opts.send(errorResponse(id, limitErrors.pending(limit)));
    return true;
  }

  /** Counts `work` as a pending request until it settles; reading pauses while many are. */
  #counted(work: Promise<void>): Promise<void> {
    this.#pending++;
    this.#pace();
    return work.finally(() => {
      this.#pending--;
      this.#pace();
    });
  }

  /** Pause reading the client while too many requests are pending or its audio queue is full. */
  #pace(wasPaused = this.#inputPaused || this.#audioPaused): void {
    const { pauseInput } = this.#opts;
    if (!pauseInput) return;
    const limit = this.#limits.maxPendingRequests;
    if (!this.#inputPaused && this.#pending >= Math.max(1, Math.floor(limit / 2))) {
      this.#inputPaused = true;
    } else if (this.#inputPaused && this.#pending <= Math.floor(limit / 4)) {
      this.#inputPaused = false;
    }
    const paused = this.#inputPaused || this.#audioPaused;
    if (paused !== wasPaused) pauseInput(paused);
  }

  async #answer(id: string, t: string, handler: ClientMessageHandler, d: unknown): Promise<void> {
    const started = performance.now();
    const endWrite = READ_ONLY_HANDLERS.has(handler) ? undefined : beginDbWrite(this.state);
    try {
      const result = await handler(d, this);
      this.#opts.send(serverResponse(id, t, result));
      this.log.info(
        { requestId: id, t, ms: Math.round(performance.now() - started) },
        'client-message answered',
      );
    } catch (err) {
      this.log.warn({ requestId: id, t, err }, 'client-message failed');
      // RPC failures keep their LiveKit-compatible code for the browser's transport.
      this.#opts.send(
        RpcError.isInstance(err)
          ? rtviRpcCallErrorMessage(id, err.toWire())
          : errorResponse(id, errorName(err)),
      );
    } finally {
      endWrite?.();
    }
  }

  async #guard(run: void | Promise<void>, what: string): Promise<void> {
    try {
      await run;
    } catch (err) {
      this.log.error({ err, what }, 'conversation hook failed');
      this.#opts.send(rtviError(`${what} failed: ${errorName(err)}`, false));
    }
  }

  /** Run `work` after every earlier serial item of this session has finished. */
  #serially(work: () => Promise<void>): void {
    this.#track(this.#counted(this.#serial.add(work)));
  }

  #track(promise: Promise<void>): void {
    this.#inflight.add(promise);
    void promise.finally(() => this.#inflight.delete(promise));
  }

  /** End the session: abort running work and tell the conversation. */
  dispose(): void {
    if (this.#abort.signal.aborted) return;
    this.#abort.abort(new Error('session closed'));
    this.#serial.stop();
    try {
      this.#conversation.close?.();
    } catch (err) {
      this.log.error({ err }, 'conversation close failed');
    }
    this.voice?.close().catch((err: unknown) => this.log.error({ err }, 'voice close failed'));
  }
}

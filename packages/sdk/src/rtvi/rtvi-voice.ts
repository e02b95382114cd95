/**
 * The voice surface over a `PipecatClient` (`@pipecat-ai/client-js`, e.g. with
 * `@pipecat-ai/websocket-transport`): client-js's speaking, transcript and TTS callbacks become
 * the {@link Voice} state, events and transcript log; `bot-interrupted`, which client-js does not
 * surface, comes from a {@link tapRtviMessages} tap when one is given (otherwise barge-in is
 * inferred: the bot stopped speaking while the user spoke). Only types are imported from
 * client-js; the caller passes the client.
 */
import type { RTVIEvents } from '@pipecat-ai/client-js';
import { BaseVoice } from '../voice/base-voice.js';
import { requestMicrophone } from '../voice/microphone.js';
import type { RtviMessageTap } from './rtvi-message-tap.js';

/** The client events the voice listens to. */
export type RtviVoiceEvent =
  | 'botReady'
  | 'disconnected'
  | 'userStartedSpeaking'
  | 'userStoppedSpeaking'
  | 'userTranscript'
  | 'botStartedSpeaking'
  | 'botStoppedSpeaking'
  | 'botTtsText'
  | 'error';

/** A client-js callback, as its `RTVIEvents` types it. */
export type RtviVoiceListener<E extends RtviVoiceEvent> = NonNullable<RTVIEvents[E]>;

/** The subset of `PipecatClient` the voice uses (a real client fits). */
export interface RtviVoiceClientLike {
  on<E extends RtviVoiceEvent>(event: E, listener: RtviVoiceListener<E>): unknown;
  off<E extends RtviVoiceEvent>(event: E, listener: RtviVoiceListener<E>): unknown;
  connect(connectParams?: never): Promise<unknown>;
  disconnect(): Promise<void>;
  enableMic(enable: boolean): void;
}

/** How the page's microphone is switched (e.g. the transport's media manager). */
export interface RtviMicrophone {
  /** Start or stop capture; rejects (with what `getUserMedia` threw, or a `MicError`) when it cannot start. */
  setMic(enabled: boolean): Promise<void>;
  /** Stop or resume sending while keeping the device. @default `setMic(!muted)` */
  setMuted?(muted: boolean): Promise<void>;
}

/** Options of {@link createRtviVoice}. */
export interface RtviVoiceOptions {
  /** What `client.connect()` is given (e.g. `{wsUrl, token}`), or a function returning it. */
  connectParams?: unknown;
  /**
   * The microphone switch. @default ask the browser for the microphone (so a refusal is
   * reported), then `client.enableMic()`
   */
  mic?: RtviMicrophone;
  /** Inbound messages of the client's transport, for `bot-interrupted`. */
  messages?: RtviMessageTap;
}

function textOf(data: { text?: unknown } | null | undefined): string {
  const text = data?.text;
  return typeof text === 'string' ? text : '';
}

function errorOf(message: { data?: unknown } | null | undefined): { text: string; fatal: boolean } {
  const data = (message?.data ?? {}) as Record<string, unknown>;
  const text = [data['message'], data['error']].find((v) => typeof v === 'string') as
    string | undefined;
  return { text: text ?? 'unknown error', fatal: data['fatal'] === true };
}

/** A {@link Voice} over a `PipecatClient`. */
export class RtviVoice extends BaseVoice {
  readonly #client: RtviVoiceClientLike;
  readonly #options: RtviVoiceOptions;

  constructor(client: RtviVoiceClientLike, options: RtviVoiceOptions = {}) {
    super();
    this.#client = client;
    this.#options = options;
    const on = <E extends RtviVoiceEvent>(event: E, listener: RtviVoiceListener<E>) => {
      client.on(event, listener);
      this.onDispose(() => client.off(event, listener));
    };
    on('botReady', () => this.setState({ connection: 'connected' }));
    on('disconnected', () => this.closed());
    on('userStartedSpeaking', () => this.userSpeaking(true));
    on('userStoppedSpeaking', () => this.userSpeaking(false));
    on('userTranscript', (data) => this.userTranscript(textOf(data), data?.final === true));
    on('botStartedSpeaking', () => this.botSpeaking(true));
    on('botStoppedSpeaking', () => this.botSpeaking(false));
    on('botTtsText', (data) => this.botSpoke(textOf(data)));
    on('error', (message) => {
      const { text, fatal } = errorOf(message);
      this.reportError(text, fatal);
    });
    const unsubscribe = options.messages?.subscribe((message) => {
      if (message.type === 'bot-interrupted') this.botInterrupted(false);
    });
    if (unsubscribe) this.onDispose(unsubscribe);
  }

  protected async open(): Promise<void> {
    const params = this.#options.connectParams;
    const resolved = typeof params === 'function' ? (params as () => unknown)() : params;
    await this.#client.connect(resolved as never);
  }

  protected async close(): Promise<void> {
    await this.#client.disconnect();
  }

  protected async applyMic(enabled: boolean): Promise<void> {
    const mic = this.#options.mic;
    if (mic) return mic.setMic(enabled);
    if (enabled) {
      const problem = await requestMicrophone();
      if (problem) throw problem;
    }
    this.#client.enableMic(enabled);
  }

  protected async applyMute(muted: boolean): Promise<void> {
    const mic = this.#options.mic;
    if (mic?.setMuted) return mic.setMuted(muted);
    if (mic) return mic.setMic(!muted);
    this.#client.enableMic(!muted);
  }
}

/** Wrap a `PipecatClient` as a {@link Voice}. */
export function createRtviVoice(
  client: RtviVoiceClientLike,
  options: RtviVoiceOptions = {},
): RtviVoice {
  return new RtviVoice(client, options);
}

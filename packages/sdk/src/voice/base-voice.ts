/**
 * What every voice adapter shares: the state, the typed events, the transcript log, transcript
 * capture and the barge-in rule. An adapter (RTVI, LiveKit) feeds it the connection's events
 * through the protected methods and implements opening, closing and the microphone.
 */
import { Emitter } from '../session/emitter.js';
import { micErrorOf } from './microphone.js';
import { TranscriptLog } from './transcript-log.js';
import type {
  MicError,
  TranscriptEntry,
  UserTranscript,
  Voice,
  VoiceConnectOptions,
  VoiceEvents,
  VoiceState,
} from './types.js';

/** The state of a voice that has not connected. */
export const VOICE_OFF: Readonly<VoiceState> = {
  connection: 'disconnected',
  mic: 'off',
  micMuted: false,
  micError: undefined,
  userSpeaking: false,
  botSpeaking: false,
};

function isMicError(value: unknown): value is MicError {
  const v = value as Partial<MicError> | null;
  return typeof v?.reason === 'string' && typeof v.message === 'string';
}

/** The shared part of a voice adapter. */
export abstract class BaseVoice implements Voice {
  #state: VoiceState = VOICE_OFF;
  readonly #log = new TranscriptLog();
  readonly #events = new Emitter<VoiceEvents>();
  readonly #subscribers = new Set<() => void>();
  readonly #captures: ((transcript: UserTranscript) => void)[] = [];
  readonly #cleanups: (() => void)[] = [];
  /** The reply being spoken was already reported interrupted. */
  #interruptedReply = false;

  get state(): VoiceState {
    return this.#state;
  }

  get transcript(): readonly TranscriptEntry[] {
    return this.#log.entries;
  }

  on<K extends keyof VoiceEvents>(event: K, listener: (payload: VoiceEvents[K]) => void) {
    return this.#events.on(event, listener);
  }

  subscribe(listener: () => void): () => void {
    this.#subscribers.add(listener);
    return () => this.#subscribers.delete(listener);
  }

  captureTranscripts(listener: (transcript: UserTranscript) => void): () => void {
    this.#captures.push(listener);
    return () => {
      const at = this.#captures.lastIndexOf(listener);
      if (at >= 0) this.#captures.splice(at, 1);
    };
  }

  async connect(options: VoiceConnectOptions = {}): Promise<void> {
    if (this.#state.connection !== 'disconnected') return;
    this.setState({ connection: 'connecting' });
    if (options.mic) await this.setMicEnabled(true);
    try {
      await this.open();
    } catch (error) {
      this.closed();
      throw error;
    }
    this.setState({ connection: 'connected' });
  }

  async disconnect(): Promise<void> {
    try {
      await this.close();
    } finally {
      this.closed();
    }
  }

  async setMicEnabled(enabled: boolean): Promise<boolean> {
    if (!enabled) {
      this.setState({ mic: 'off', micMuted: false, micError: undefined });
      await this.applyMic(false).catch(() => undefined);
      return true;
    }
    if (this.#state.mic === 'on' || this.#state.mic === 'starting') return true;
    this.setState({ mic: 'starting', micError: undefined });
    try {
      await this.applyMic(true);
    } catch (error) {
      this.setState({
        mic: 'error',
        micMuted: false,
        micError: isMicError(error) ? error : micErrorOf(error),
      });
      return false;
    }
    this.setState({ mic: 'on', micMuted: false });
    return true;
  }

  async setMicMuted(muted: boolean): Promise<void> {
    if (this.#state.mic !== 'on' || this.#state.micMuted === muted) return;
    await this.applyMute(muted);
    this.setState({ micMuted: muted });
  }

  dispose(): void {
    this.detach();
    this.#subscribers.clear();
  }

  // --- what an adapter implements -------------------------------------------

  /** Open the connection (resolves once it can carry speech). */
  protected abstract open(): Promise<void>;
  /** Close the connection. */
  protected abstract close(): Promise<void>;
  /** Start or stop capture; reject with a `MicError` (or what `getUserMedia` threw) when it cannot start. */
  protected abstract applyMic(enabled: boolean): Promise<void>;
  /** Stop or resume sending the captured audio. */
  protected abstract applyMute(muted: boolean): Promise<void>;
  /** Stop listening to the connection's events: runs what {@link onDispose} was given. */
  protected detach(): void {
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
  }

  /** Have `cleanup` run on dispose (e.g. to stop listening to one of the connection's events). */
  protected onDispose(cleanup: () => void): void {
    this.#cleanups.push(cleanup);
  }

  // --- what an adapter reports ------------------------------------------------

  protected setState(patch: Partial<VoiceState>): void {
    const next = { ...this.#state, ...patch };
    const keys = Object.keys(patch) as (keyof VoiceState)[];
    if (keys.every((k) => next[k] === this.#state[k])) return;
    this.#state = next;
    this.#events.emit('state', next);
    this.#notify();
  }

  protected userSpeaking(speaking: boolean): void {
    if (this.#state.userSpeaking === speaking) return;
    this.setState({ userSpeaking: speaking });
    this.#events.emit('user-speaking', { speaking });
  }

  protected botSpeaking(speaking: boolean): void {
    if (this.#state.botSpeaking === speaking) return;
    if (speaking) {
      this.#interruptedReply = false;
    } else if (this.#state.userSpeaking && !this.#interruptedReply) {
      // No interruption message, but the bot went quiet while the user spoke: barge-in.
      this.botInterrupted(true);
    }
    this.setState({ botSpeaking: speaking });
    if (!speaking && this.#log.botStopped()) this.#notify();
    this.#events.emit('bot-speaking', { speaking });
  }

  protected userTranscript(text: string, final: boolean): void {
    const capture = this.#captures.at(-1);
    if (capture) {
      const transcript = { text, final, captured: true };
      capture(transcript);
      this.#events.emit('transcript', transcript);
      return;
    }
    if (this.#log.user(text, final)) this.#notify();
    this.#events.emit('transcript', { text, final, captured: false });
  }

  protected botSpoke(text: string): void {
    if (this.#log.botSpoke(text)) this.#notify();
    this.#events.emit('bot-speech', { text });
  }

  protected botInterrupted(inferred = false): void {
    if (this.#interruptedReply && this.#state.botSpeaking) return;
    this.#interruptedReply = true;
    if (this.#log.botInterrupted()) this.#notify();
    this.#events.emit('bot-interrupted', { inferred });
  }

  protected reportError(message: string, fatal: boolean): void {
    this.#events.emit('error', { message, fatal });
  }

  /** The connection is gone: everything that was going on stops, the microphone is released. */
  protected closed(): void {
    if (this.#log.settle()) this.#notify();
    const { userSpeaking, botSpeaking, mic } = this.#state;
    this.setState({
      connection: 'disconnected',
      userSpeaking: false,
      botSpeaking: false,
      ...(mic === 'on' || mic === 'starting' ? { mic: 'off' as const, micMuted: false } : {}),
    });
    if (mic === 'on' || mic === 'starting') void this.applyMic(false).catch(() => undefined);
    if (userSpeaking) this.#events.emit('user-speaking', { speaking: false });
    if (botSpeaking) this.#events.emit('bot-speaking', { speaking: false });
  }

  #notify(): void {
    for (const listener of [...this.#subscribers]) listener();
  }
}

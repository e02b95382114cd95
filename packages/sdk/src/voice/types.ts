/**
 * The voice surface an app sees around a voice connection (an RTVI / Pipecat client, a LiveKit
 * room): connection and microphone state, who is speaking, the user's live transcript, the
 * bot's spoken text and barge-in, as typed events and as a transcript log.
 */

/** The voice connection. */
export type VoiceConnection = 'disconnected' | 'connecting' | 'connected';

/** The microphone: `starting` while the browser is asked for it, `error` when it could not start. */
export type MicStatus = 'off' | 'starting' | 'on' | 'error';

/** Why the microphone could not start. */
export type MicProblem = 'unsupported' | 'denied' | 'not-found' | 'in-use' | 'failed';

/** A microphone that could not start, with a message fit to show the user. */
export interface MicError {
  reason: MicProblem;
  /** A polite sentence saying what happened and that typing still works. */
  message: string;
}

/** Everything a voice UI renders from. */
export interface VoiceState {
  connection: VoiceConnection;
  mic: MicStatus;
  /** The microphone is on but sends nothing. */
  micMuted: boolean;
  /** Why the microphone is off, when `mic` is `error`. */
  micError: MicError | undefined;
  /** Between the bot's user-started-speaking and user-stopped-speaking. */
  userSpeaking: boolean;
  /** Between bot-started-speaking and bot-stopped-speaking. */
  botSpeaking: boolean;
}

/** One piece of the user's transcript. */
export interface UserTranscript {
  text: string;
  /** False while the recognizer may still change it. */
  final: boolean;
  /** It went to a transcript capture (e.g. a dictation), not to the conversation log. */
  captured: boolean;
}

/** A piece of the bot's reply, as it is spoken. */
export interface BotSpeech {
  /** The text just spoken (a sentence, or a segment). */
  text: string;
}

/** The user spoke over the bot and the bot stopped. */
export interface BotInterruption {
  /**
   * True when the connection has no interruption message and the SDK inferred it: the bot
   * stopped speaking while the user was speaking.
   */
  inferred: boolean;
}

/** An error the voice connection reported. */
export interface VoiceError {
  message: string;
  fatal: boolean;
}

/** The typed events of a {@link Voice}. */
export interface VoiceEvents {
  /** Any change of {@link VoiceState}. */
  state: VoiceState;
  'user-speaking': { speaking: boolean };
  'bot-speaking': { speaking: boolean };
  transcript: UserTranscript;
  'bot-speech': BotSpeech;
  'bot-interrupted': BotInterruption;
  error: VoiceError;
}

/** One line of the transcript log. */
export type TranscriptEntry =
  | {
      id: number;
      role: 'user';
      text: string;
      /** False while the user's words are still being recognized. */
      final: boolean;
    }
  | {
      id: number;
      role: 'bot';
      /** What has been spoken so far. */
      text: string;
      /** False while the bot is still speaking this reply. */
      final: boolean;
      /** The user spoke over this reply and the bot stopped. */
      interrupted: boolean;
    };

/** Options of {@link Voice.connect}. */
export interface VoiceConnectOptions {
  /** Turn the microphone on with the connection. @default false */
  mic?: boolean;
}

/** A voice connection as an app drives it. */
export interface Voice {
  readonly state: VoiceState;
  /** The user's and the bot's words, oldest first. */
  readonly transcript: readonly TranscriptEntry[];
  /** Subscribe to one event; returns the unsubscribe function. */
  on<K extends keyof VoiceEvents>(
    event: K,
    listener: (payload: VoiceEvents[K]) => void,
  ): () => void;
  /** Called after every change of `state` or `transcript` (for `useSyncExternalStore`). */
  subscribe(listener: () => void): () => void;
  /** Connect, with the microphone on or off. A microphone that cannot start leaves it off. */
  connect(options?: VoiceConnectOptions): Promise<void>;
  disconnect(): Promise<void>;
  /** Turn the microphone on or off; resolves false when it could not start (see `state.micError`). */
  setMicEnabled(enabled: boolean): Promise<boolean>;
  /** Keep the microphone but send nothing (or send again). */
  setMicMuted(muted: boolean): Promise<void>;
  /**
   * Send the user's transcripts to `listener` instead of the log (e.g. while dictating into a
   * text box) until the returned function is called.
   */
  captureTranscripts(listener: (transcript: UserTranscript) => void): () => void;
  /** Stop listening to the underlying connection. */
  dispose(): void;
}

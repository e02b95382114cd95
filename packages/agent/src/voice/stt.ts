/**
 * Speech to text: the {@link SpeechToText} interface every engine adapter
 * implements. A session is fed the user's continuous 16 kHz stream (silence
 * included) and told where utterances start and end (by the caller's VAD);
 * it emits interim transcripts while it can and one final transcript per
 * utterance. An engine that keeps state (a recognizer process, a socket)
 * stays up for the whole session.
 */

/** What a session heard in one utterance. */
export interface Transcript {
  /** Utterance number in the session, from 1. */
  utterance: number;
  text: string;
  /** False for an interim transcript (the utterance may still change). */
  final: boolean;
  /** Where the utterance started, in samples of the session's stream. */
  startSample: number;
  /** Where it ended (set once the caller ended it). */
  endSample?: number;
}

/** One user's stream being transcribed. */
export interface SttSession {
  /** Rate of the audio `write` takes (mono PCM16). */
  readonly sampleRate: number;
  /** Samples written so far: the stream's current position. */
  readonly samples: number;
  /** PCM bytes of the stream the session holds, for engines that keep audio (memory bound checks). */
  readonly bufferedBytes?: number;
  /**
   * Feed PCM16 bytes of the continuous stream, silence included. An engine that reads slower
   * than it is fed returns a promise that resolves once it can take more (back-pressure).
   */
  write(pcm: Uint8Array): void | Promise<void>;
  /**
   * Speech started at `sample` (default: the current position). An utterance
   * still open is ended first. Returns the new utterance's number.
   */
  startUtterance(sample?: number): number;
  /**
   * Speech ended at `sample` (default: the current position); resolves with
   * the utterance's final transcript (empty text when nothing was recognised).
   * Rejects when no utterance is open or the engine failed.
   */
  endUtterance(sample?: number): Promise<Transcript>;
  /** Listen to every interim and final transcript; returns the unsubscribe function. */
  onTranscript(listener: (transcript: Transcript) => void): () => void;
  /** Stop the session; pending finals still resolve when the engine can give them. */
  close(): Promise<void>;
  /**
   * The other side said `text`, its audio now wholly in the stream written so far: only the
   * sessions of an engine that is told what was said ({@link SpeechToText.toldText}) have it.
   */
  told?(text: string): void;
  /**
   * The bot has just asked for `speech` (see {@link expectedSpeech}): the next utterance is
   * likely of that kind. An engine that can narrow what it listens for (a spelling grammar)
   * does so for that utterance; the others need not implement it.
   */
  expect?(speech: ExpectedSpeech): void;
}

/** Kinds of answer a bot's prompt can ask for, which a recognizer may listen for. */
export type ExpectedSpeech = 'spelling';

/**
 * What a sentence the bot says asks the user to say next, if it narrows it: a question that asks
 * to spell ("Could you spell it for me, letter by letter?") expects a spelling.
 */
export function expectedSpeech(sentence: string): ExpectedSpeech | undefined {
  return /\bspell\b[^.!?]*\?\s*$|\bletter by letter\b/i.test(sentence) ? 'spelling' : undefined;
}

/** Options of a new session. */
export interface SttSessionOptions {
  /** A language hint (ISO 639-1, e.g. `en`) for engines that take one. */
  language?: string;
}

/** A speech recognizer. */
export interface SpeechToText {
  /** Adapter name, e.g. `pocketsphinx`, `openai`, `none`. */
  readonly name: string;
  /** Rate of the audio sessions take (16000 for every adapter here). */
  readonly sampleRate: number;
  /** Resolves when the engine can run here; rejects with a `SpeechEngineUnavailableError` saying what to install otherwise. */
  check(): Promise<void>;
  /** Start transcribing one stream. */
  openSession(options?: SttSessionOptions): Promise<SttSession>;
  /** Release what the engine shares between sessions. */
  close(): Promise<void>;
  /**
   * True for an engine that is told what the other side said instead of recognizing it from the
   * audio (`oracle`: an evaluation's bridge tells it, with {@link ORACLE_SAID_MESSAGE}); its
   * sessions take {@link SttSession.told}. The audio still times its utterances.
   */
  readonly toldText?: boolean;
}

/**
 * The `client-message` type (`t`) that tells a bot whose recognizer is told what was said
 * ({@link SpeechToText.toldText}) that the other side said `d.text` ({@link OracleSaidData}). A
 * bot whose recognizer hears for itself answers it as an unknown message.
 */
export const ORACLE_SAID_MESSAGE = 'oracle-said';

/** The `d` of an {@link ORACLE_SAID_MESSAGE} `client-message`. */
export interface OracleSaidData {
  /** What the other side said, in spoken form (its `bot-tts-text`). */
  text: string;
}

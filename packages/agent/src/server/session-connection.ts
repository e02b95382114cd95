/**
 * What a bot session needs of the connection it is attached to. A session outlives its
 * connections (a reconnect, a takeover): the server attaches it to each in turn.
 */
import type { BotReadySession, RTVIMessage } from '@scenaro/sdk/protocol';

/** The connection a session reads from and writes to; a session can move to another one. */
export interface SessionConnection {
  /** Writes one outgoing message. Returns false if it could not be sent. */
  send: (message: RTVIMessage) => boolean;
  /** Asks the transport to end the connection (e.g. on `disconnect-bot`). */
  close: (code: number, reason: string) => void;
  /**
   * Resolves once the connection can take more output, or returns undefined when it can now:
   * queued requests wait for it, so a burst of requests never piles up replies.
   */
  whenWritable?: () => Promise<void> | undefined;
  /** Stop (true) or resume (false) reading from the connection. */
  pauseInput?: (paused: boolean) => void;
  /** What each `bot-ready` on this connection says about its session (a resume token). */
  readySession?: () => BotReadySession | undefined;
  /**
   * Writes one frame of the bot's audio (mono PCM16). May return a promise to wait on before the
   * next frame (the connection's buffer is full). @default audio is not sent
   */
  sendAudio?: (pcm: Uint8Array, sampleRate: number) => void | Promise<void>;
}

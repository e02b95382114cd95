/**
 * What an `RtviClient` is told (connection, handshake and request options) and what it
 * reports (frame-log directions, undecodable messages, how the connection closed).
 *
 * @module
 */
import type { AudioFrameValue, RTVIAbout, RTVIMessage } from '@scenaro/sdk/protocol';

/** Direction of a frame-log line: sent, received, closed, trouble. */
export type RtviLogDirection = '->' | '<-' | 'xx' | '!!';

/** Options of `RtviClient.connect`. */
export interface RtviClientOptions {
  /** What the client talks to, as error messages name it ("the agent bot"). @default 'bot' */
  peer?: string;
  /** Auth token, appended to the URL as `?token=`. */
  token?: string;
  /** Extra HTTP headers of the upgrade request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** How long to wait for the socket to open. @default 5000 */
  connectTimeoutMs?: number;
  /** Default deadline of a request and of the handshake. @default 10000 */
  requestTimeoutMs?: number;
  /** Keep every envelope received in `messages` (what `waitFor` searches). @default true */
  record?: boolean;
  /** Encode outgoing frames in Node's shared allocation pool (faster for small frames). @default false */
  pooledFrames?: boolean;
  /** Negotiate permessage-deflate (the `ws` default when not given). */
  perMessageDeflate?: boolean;
  /** Largest inbound message, bytes. @default 64 MiB */
  maxPayload?: number;
  /** Receives a line per frame in both directions once the socket is open. */
  log?: (direction: RtviLogDirection, text: string) => void;
  /** Every inbound envelope that is not the awaited reply to a request. */
  onMessage?: (message: RTVIMessage) => void;
  /** Every inbound `AudioRawFrame` (the bot's speech). */
  onAudio?: (frame: AudioFrameValue) => void;
  /** The connection closed without `close()` or `terminate()` being called. */
  onClose?: (info: CloseInfo) => void;
}

/** Options of `RtviClient.handshake`. */
export interface HandshakeOptions {
  /** The `about` of `client-ready`. @default { library: 'scenaro-rtvi-client' } */
  about?: RTVIAbout;
  /** The protocol version announced. @default the SDK's RTVI protocol version */
  version?: string;
  /** How long to wait for `bot-ready`. @default `requestTimeoutMs` */
  timeoutMs?: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** The request id. @default a fresh `nextRequestId()` */
  id?: string;
  /** Deadline, ms. @default `requestTimeoutMs` */
  timeoutMs?: number;
}

/** Something received that is not a decodable RTVI envelope. */
export interface UndecodedMessage {
  isBinary: boolean;
  bytes: Uint8Array;
  reason: string;
}

/** How the connection ended. */
export interface CloseInfo {
  code: number;
  reason: string;
}

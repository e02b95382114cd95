/**
 * The bot server's WebSocket transport: Pipecat protobuf frames in binary WebSocket messages,
 * upgraded on the server's HTTP port. It checks each upgrade against the server's admission rules
 * (answering 503, 403 or 401), caps incoming messages (`maxMessageBytes`, 1009), reads each
 * connection fairly (see {@link ConnectionReader}), holds connections to their deadlines (see
 * {@link ConnectionWatch}: handshake, half-sent message, ping), and bounds what waits unsent for
 * a client (`maxBufferedBytes`: a client that stopped reading is closed with 1013).
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import { FrameDecodeError, decodeClientFrame, encodeAudioFrame } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../bot-server-options.js';
import { ConnectionReader } from '../connection-reader.js';
import type { TakenKind } from '../connection-reader.js';
import { ConnectionWatch } from '../connection-watch.js';
import { refuseUpgrade, requestId } from '../http-front.js';
import type { Logger } from '../logger.js';
import { encodeOutgoing } from '../reply-encoder.js';
import { closeWithin, whenDrained } from '../socket-drain.js';
import type {
  ConnectionInfo,
  ConnectionReceiver,
  InboundFrame,
  Transport,
  TransportConnection,
  TransportHost,
  UnsupportedInput,
} from '../transport.js';

/** Options of a {@link WebSocketServerTransport}; the server passes its own (see `BotServerOptions`). */
export interface WebSocketServerTransportOptions {
  /** Largest accepted incoming message; larger closes with 1009. @default 1 MiB */
  maxMessageBytes?: number;
  /** Largest reply sent; a larger `server-response` becomes an `error-response`. @default 1 MiB */
  maxOutgoingBytes?: number;
  /** Close a connection whose unsent data exceeds this (a client that stopped reading). @default 16 MiB */
  maxBufferedBytes?: number;
  /** How long a client closed for not reading gets to take the close. @default 5000 */
  slowReaderCloseGraceMs?: number;
  /** How long a new connection may take to send `client-ready`. @default 10000 */
  handshakeTimeoutMs?: number;
  /** How often each connection is pinged. @default 30000 */
  pingIntervalMs?: number;
  /** How long a message may take to arrive once it has started. @default 10000 */
  frameTimeoutMs?: number;
}

/** What every connection of one transport shares. */
interface Shared {
  host: TransportHost;
  watch: ConnectionWatch;
  maxOutgoingBytes: number;
  maxBufferedBytes: number;
  slowReaderCloseGraceMs: number;
}

const TEXT_MESSAGE: UnsupportedInput = Object.freeze({
  kind: 'error',
  reason: 'unsupported',
  message: 'Text WebSocket messages are not supported: send binary protobuf Pipecat frames.',
});

/** Protobuf frames over WebSocket, on the server's HTTP port. */
export class WebSocketServerTransport implements Transport {
  readonly #options: Omit<Shared, 'host' | 'watch'>;
  readonly #watch: ConnectionWatch;
  readonly #wss: WebSocketServer;
  #host: TransportHost | undefined;

  constructor(options: WebSocketServerTransportOptions = {}) {
    this.#options = {
      maxOutgoingBytes: options.maxOutgoingBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
      slowReaderCloseGraceMs: options.slowReaderCloseGraceMs ?? 5000,
    };
    this.#watch = new ConnectionWatch({
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
      pingIntervalMs: options.pingIntervalMs ?? 30_000,
      frameTimeoutMs: options.frameTimeoutMs ?? 10_000,
    });
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      // Messages are paced by each connection's reader (see ConnectionReader).
      allowSynchronousEvents: true,
    });
  }

  start(host: TransportHost): void {
    if (this.#host) throw new Error('the transport has already started');
    this.#host = host;
    const shared: Shared = { ...this.#options, host, watch: this.#watch };
    host.http.on('upgrade', (req, socket, head) => this.#onUpgrade(host, req, socket, head));
    this.#wss.on('connection', (ws, req) => host.accept(new WebSocketConnection(ws, req, shared)));
  }

  drain(): void {
    this.#watch.stop();
  }

  close(): void {
    this.#wss.close();
  }

  #onUpgrade(host: TransportHost, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refused = refuseUpgrade(req, socket, {
      ...host.admission(),
      pendingHandshakes: this.#watch.pendingHandshakes,
      log: host.log,
    });
    if (refused) host.metrics.connectionRefused(refused);
    else this.#wss.handleUpgrade(req, socket, head, (ws) => this.#wss.emit('connection', ws, req));
  }
}

/** One WebSocket client. */
class WebSocketConnection implements TransportConnection {
  readonly info: ConnectionInfo;
  readonly #ws: WebSocket;
  readonly #socket: Socket;
  readonly #shared: Shared;
  readonly #reader: ConnectionReader;
  #receiver: ConnectionReceiver | undefined;

  constructor(ws: WebSocket, req: IncomingMessage, shared: Shared) {
    this.#ws = ws;
    this.#socket = req.socket;
    this.#shared = shared;
    this.info = {
      url: req.url ?? '/',
      remoteAddress: req.socket.remoteAddress,
      requestId: requestId(req),
    };
    this.#reader = new ConnectionReader((paused) => {
      shared.watch.setPaused(ws, paused);
      if (paused) ws.pause();
      else ws.resume();
    });
  }

  bind(receiver: ConnectionReceiver): void {
    if (this.#receiver) throw new Error('the connection is already bound');
    this.#receiver = receiver;
    const ws = this.#ws;
    this.#shared.watch.add(ws, this.#socket, () => receiver.ready(), receiver.log);
    this.#reader.take = (data, isBinary) => take(data, isBinary, receiver);
    ws.on('message', (data, isBinary) => this.#reader.push(data, isBinary));
    ws.on('close', (code) => receiver.closed(code));
    ws.on('error', (err) => receiver.error(err));
  }

  readonly send = (message: RTVIMessage): boolean => {
    const ws = this.#ws;
    if (ws.readyState !== ws.OPEN) return false;
    const bytes = encodeOutgoing(message, this.#shared.maxOutgoingBytes, this.#log);
    if (!bytes || !this.#fits(bytes.byteLength)) return false;
    ws.send(bytes, { binary: true });
    return true;
  };

  readonly sendAudio = (pcm: Uint8Array, sampleRate: number): Promise<void> | undefined => {
    const ws = this.#ws;
    if (ws.readyState !== ws.OPEN) return undefined;
    const bytes = encodeAudioFrame(pcm, sampleRate, 1, { pooled: true });
    if (!this.#fits(bytes.byteLength)) return undefined;
    ws.send(bytes, { binary: true });
    this.#shared.host.metrics.audioSent(pcm.byteLength, sampleRate);
    return this.whenWritable();
  };

  /** Undefined while at most a quarter of `maxBufferedBytes` is unsent. */
  whenWritable(): Promise<void> | undefined {
    return whenDrained(this.#ws, this.#socket, this.#shared.maxBufferedBytes / 4);
  }

  pauseInput(paused: boolean): void {
    this.#reader.setPaused('session', paused);
  }

  close(code: number, reason: string, graceMs?: number): void {
    if (graceMs === undefined) this.#ws.close(code, reason);
    else closeWithin(this.#ws, code, reason, graceMs);
  }

  terminate(): void {
    this.#ws.terminate();
  }

  get #log(): Logger {
    return this.#receiver?.log ?? this.#shared.host.log;
  }

  /** False (and the connection closing) when `bytes` more would exceed `maxBufferedBytes`. */
  #fits(bytes: number): boolean {
    const ws = this.#ws;
    const { maxBufferedBytes, slowReaderCloseGraceMs, host } = this.#shared;
    if (ws.bufferedAmount + bytes <= maxBufferedBytes) return true;
    this.#log.warn(
      { buffered: ws.bufferedAmount },
      'client is not reading; closing the connection',
    );
    host.metrics.error('slow_reader');
    this.#receiver?.stalled();
    // A client that reads nothing never takes the close frame either.
    closeWithin(ws, 1013, 'Client is not reading its messages', slowReaderCloseGraceMs);
    return false;
  }
}

/** Decode one WebSocket message for `receiver`; says whether it was a frame of audio. */
function take(data: RawData, isBinary: boolean, receiver: ConnectionReceiver): TakenKind {
  let frame: InboundFrame = TEXT_MESSAGE;
  if (isBinary) {
    try {
      frame = decodeClientFrame(toBytes(data));
    } catch (err) {
      // Decoding never throws; should it, the client hears of an undecodable frame.
      frame = { kind: 'error', reason: 'not-a-frame', error: new FrameDecodeError(String(err)) };
    }
  }
  receiver.frame(frame);
  return frame.kind === 'audio' ? 'audio' : 'other';
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

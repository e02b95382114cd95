/**
 * What one incoming WebSocket message becomes: an RTVI message for its session, a frame of the
 * user's audio, or an RTVI `error` back to the client (text messages, undecodable frames,
 * malformed envelopes). Every frame is counted in the server's metrics, and requests that get a
 * reply (`client-ready`, `client-message`) start their timer here.
 */
import type { RawData } from 'ws';
import { decodeRtviFrame, rtviError } from '@scenaro/sdk/protocol';
import type { ClientMessageData, RTVIMessage } from '@scenaro/sdk/protocol';
import type { ServerMetrics } from './metrics.js';
import type { BotSession } from './session.js';
import type { TakenKind } from './connection-reader.js';

/** Where a frame goes. */
export interface FrameIntake {
  session: BotSession;
  /** Answer the client directly (an RTVI `error`). */
  reply: (message: RTVIMessage) => void;
  metrics: ServerMetrics;
  /** Sees every RTVI message before its session does (turn tracing). */
  received: (message: RTVIMessage) => void;
  /** The metrics label of a `client-message` type (`unknown` for types nobody handles). */
  requestLabel: (t: string) => string;
}

/**
 * Hand one WebSocket message to its session. Nothing it throws leaves here: one session's frame
 * never ends the process; the client is told, the error counted, and the session goes on.
 */
export function takeFrame(data: RawData, isBinary: boolean, intake: FrameIntake): TakenKind {
  try {
    return route(data, isBinary, intake);
  } catch (err) {
    intake.metrics.error('internal');
    intake.session.log.error({ err }, 'a frame could not be handled; the session goes on');
    intake.reply(rtviError('The server failed to handle that frame; it was dropped.', false));
    return 'other';
  }
}

/** Hand the message on; says whether it was a frame of audio. */
function route(data: RawData, isBinary: boolean, intake: FrameIntake): TakenKind {
  const { session, reply, metrics } = intake;
  if (!isBinary) {
    metrics.frameReceived('other');
    metrics.error('bad_frame');
    reply(
      rtviError(
        'Text WebSocket messages are not supported: send binary protobuf Pipecat frames.',
        false,
      ),
    );
    return 'other';
  }
  const decoded = decodeRtviFrame(toBytes(data));
  if (decoded.ok) {
    metrics.frameReceived('message');
    timeRequest(decoded.message, intake);
    intake.received(decoded.message);
    session.handle(decoded.message);
    return 'other';
  }
  switch (decoded.reason) {
    case 'not-a-frame':
      metrics.frameReceived('other');
      metrics.error('bad_frame');
      reply(rtviError(`Undecodable frame: ${decoded.error.message}`, false));
      return 'other';
    case 'not-a-message':
      if (decoded.frame.kind === 'audio') {
        metrics.frameReceived('audio', decoded.frame);
        session.audio(decoded.frame);
        return 'audio';
      }
      metrics.frameReceived('other');
      session.log.debug({ kind: decoded.frame.kind }, 'ignored a non-message frame');
      return 'other';
    case 'bad-envelope':
      metrics.frameReceived('message');
      if (decoded.error.kind === 'foreign-label') {
        session.log.warn({ label: decoded.error.message }, 'ignored a message that is not RTVI');
        return 'other';
      }
      if (decoded.error.type === 'error' || decoded.error.type === 'error-response') {
        // Never answer a peer's error, even a malformed one (no error ping-pong).
        session.log.warn({ type: decoded.error.type }, 'ignored a malformed peer error');
        return 'other';
      }
      metrics.error('bad_frame');
      reply(rtviError(`Invalid RTVI transport message: ${decoded.error.message}`, false));
      return 'other';
  }
}

/** Start timing a request that will get a reply with its id. */
function timeRequest(message: RTVIMessage, intake: FrameIntake): void {
  if (typeof message.id !== 'string') return;
  if (message.type === 'client-ready') {
    intake.metrics.requestReceived(intake.session, message.id, 'client-ready');
  } else if (message.type === 'client-message') {
    const t = (message.data as Partial<ClientMessageData> | undefined)?.t;
    if (typeof t === 'string')
      intake.metrics.requestReceived(intake.session, message.id, intake.requestLabel(t));
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

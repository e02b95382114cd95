/**
 * What one decoded frame from a client becomes: an RTVI message for its session, a frame of the
 * user's audio, or an RTVI `error` back to the client (input the transport cannot carry,
 * undecodable frames, malformed envelopes). Every frame is counted in the server's metrics, and
 * requests that get a reply (`client-ready`, `client-message`) start their timer here.
 */
import { rtviError } from '@scenaro/sdk/protocol';
import type {
  ClientFrameError,
  ClientMessageData,
  ClientRtviMessage,
  InvalidMessageError,
  RTVIMessage,
} from '@scenaro/sdk/protocol';
import type { ServerMetrics } from './metrics.js';
import type { BotSession } from './session.js';
import type { InboundFrame, UnsupportedInput } from './transport.js';

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
 * Hand one frame to its session. Nothing it throws leaves here: one session's frame never ends
 * the process; the client is told, the error counted, and the session goes on.
 */
export function takeFrame(frame: InboundFrame, intake: FrameIntake): void {
  try {
    route(frame, intake);
  } catch (err) {
    intake.metrics.error('internal');
    intake.session.log.error({ err }, 'a frame could not be handled; the session goes on');
    intake.reply(rtviError('The server failed to handle that frame; it was dropped.', false));
  }
}

function route(frame: InboundFrame, intake: FrameIntake): void {
  const { session, metrics } = intake;
  switch (frame.kind) {
    case 'audio':
      metrics.frameReceived('audio', frame.frame);
      session.audio(frame.frame);
      return;
    case 'message':
      toSession(frame, frame.message, intake);
      return;
    case 'frame':
      metrics.frameReceived('other');
      session.log.debug({ kind: frame.frame.kind }, 'ignored a non-message frame');
      return;
    case 'error':
      refused(frame, intake);
      return;
  }
}

/** What could not be used as it came: told to the client, or to the session to answer. */
function refused(frame: ClientFrameError | UnsupportedInput, intake: FrameIntake): void {
  const { session, reply, metrics } = intake;
  switch (frame.reason) {
    case 'unsupported':
      metrics.frameReceived('other');
      metrics.error('bad_frame');
      reply(rtviError(frame.message, false));
      return;
    case 'not-a-frame':
      metrics.frameReceived('other');
      metrics.error('bad_frame');
      reply(rtviError(`Undecodable frame: ${frame.error.message}`, false));
      return;
    case 'bad-envelope':
      metrics.frameReceived('message');
      if (frame.error.kind === 'foreign-label') {
        session.log.warn({ label: frame.error.message }, 'ignored a message that is not RTVI');
        return;
      }
      if (frame.error.type === 'error' || frame.error.type === 'error-response') {
        // Never answer a peer's error, even a malformed one (no error ping-pong).
        session.log.warn({ type: frame.error.type }, 'ignored a malformed peer error');
        return;
      }
      metrics.error('bad_frame');
      reply(rtviError(`Invalid RTVI transport message: ${frame.error.message}`, false));
      return;
    case 'invalid-message':
      // An RTVI envelope all the same: the session answers it (addressed by its id).
      toSession(frame, frame.envelope, intake);
      return;
  }
}

/** A message for the session, valid or not (`envelope`, its RTVI envelope): counted, timed, seen, handled. */
function toSession(
  frame: ClientRtviMessage | InvalidMessageError,
  envelope: RTVIMessage,
  intake: FrameIntake,
): void {
  intake.metrics.frameReceived('message');
  timeRequest(envelope, intake);
  intake.received(envelope);
  intake.session.handle(frame);
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

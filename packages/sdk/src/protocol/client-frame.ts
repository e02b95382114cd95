/**
 * What a server reads from a client, decoded once into one discriminated union: a frame of the
 * user's audio, a validated RTVI message, another Pipecat frame, or an error with its reason.
 * The envelope of a `MessageFrame` is parsed once and its data validated against its type in
 * the same pass, so the server never parses it again.
 *
 * Decoding never throws: every failure is an `error` value.
 */
import { tryDecodeFrame } from './frames.js';
import type {
  AudioFrameValue,
  FrameDecodeError,
  InterruptionFrameValue,
  TextFrameValue,
  TranscriptionFrameValue,
} from './frames.js';
import { parseEnvelope, validateClientToServer } from './rtvi-parse.js';
import type { EnvelopeError } from './rtvi-parse.js';
import type { ClientToServerMessage, RTVIMessage } from './rtvi.js';

/** A frame of the user's audio. */
export interface ClientAudioFrame {
  kind: 'audio';
  frame: AudioFrameValue;
}

/** A valid RTVI message to the server (it has an `id`, and its `data` matches its type). */
export interface ClientRtviMessage {
  kind: 'message';
  message: ClientToServerMessage;
}

/** A Pipecat frame a client may send besides audio and messages (text, transcription, interruption). */
export interface ClientOtherFrame {
  kind: 'frame';
  frame: TextFrameValue | TranscriptionFrameValue | InterruptionFrameValue;
}

/** Bytes that are not a Pipecat frame. */
export interface NotAFrameError {
  kind: 'error';
  reason: 'not-a-frame';
  error: FrameDecodeError;
}

/** A `MessageFrame` whose data is not an RTVI envelope (not JSON, another label, bad fields). */
export interface BadEnvelopeError {
  kind: 'error';
  reason: 'bad-envelope';
  error: EnvelopeError;
}

/**
 * An RTVI envelope that is not a valid message to the server (no `id`, a type the server does
 * not know, data that does not match its type): the envelope is kept, to address the answer.
 */
export interface InvalidMessageError {
  kind: 'error';
  reason: 'invalid-message';
  envelope: RTVIMessage;
  error: EnvelopeError;
}

/** Why what a client sent could not be used. */
export type ClientFrameError = NotAFrameError | BadEnvelopeError | InvalidMessageError;

/** One decoded frame from a client. */
export type ClientFrame =
  ClientAudioFrame | ClientRtviMessage | ClientOtherFrame | ClientFrameError;

/** What an RTVI envelope (a `MessageFrame`'s data, or JSON from another transport) is. */
export type ClientMessageRead = ClientRtviMessage | BadEnvelopeError | InvalidMessageError;

/**
 * Read one RTVI envelope sent to a server: JSON text (or an already decoded value), parsed and
 * validated in one pass. Never throws.
 */
export function readClientMessage(input: unknown): ClientMessageRead {
  const parsed = parseEnvelope(input);
  if (!parsed.ok) return { kind: 'error', reason: 'bad-envelope', error: parsed.error };
  const envelope = parsed.value;
  const valid = validateClientToServer(envelope);
  if (!valid.ok) return { kind: 'error', reason: 'invalid-message', envelope, error: valid.error };
  return { kind: 'message', message: valid.value };
}

/** Decode the bytes of one binary WebSocket message from a client. Never throws. */
export function decodeClientFrame(bytes: Uint8Array): ClientFrame {
  const decoded = tryDecodeFrame(bytes);
  if (!decoded.ok) return { kind: 'error', reason: 'not-a-frame', error: decoded.error };
  const frame = decoded.value;
  switch (frame.kind) {
    case 'audio':
      return { kind: 'audio', frame };
    case 'message':
      return readClientMessage(frame.data);
    default:
      return { kind: 'frame', frame };
  }
}

/** The envelope of a message or of an invalid message (undefined for anything else). */
export function envelopeOf(frame: ClientFrame): RTVIMessage | undefined {
  if (frame.kind === 'message') return frame.message;
  if (frame.kind === 'error' && frame.reason === 'invalid-message') return frame.envelope;
  return undefined;
}

/**
 * What a session does with one decoded RTVI message from its client before it handles it: a
 * peer's error is never answered (two peers can never ping-pong errors), data nested too deep
 * is refused, and an envelope that failed validation is answered with an `error-response`
 * addressed by its id (or an RTVI `error` when it has none). A pure function: no session state.
 */
import { errorResponse, rtviError } from '@scenaro/sdk/protocol';
import type {
  ClientRtviMessage,
  ClientToServerMessage,
  InvalidMessageError,
  RTVIMessage,
} from '@scenaro/sdk/protocol';
import { MAX_NESTING_DEPTH, exceedsNestingDepth } from '../scenario/initialize.js';

/** Message types a session never answers. */
const NEVER_ANSWER = new Set(['error', 'error-response']);

/** The outcome of {@link screenMessage}. */
export type Screened =
  /** Handle it. */
  | { kind: 'handle'; message: ClientToServerMessage }
  /** Send `answer` back, and handle nothing. */
  | { kind: 'answer'; answer: RTVIMessage }
  /** A peer's error: log it, and do not answer. */
  | { kind: 'ignore'; envelope: RTVIMessage };

/** Screen one message of the client (valid, or refused by validation). */
export function screenMessage(input: ClientRtviMessage | InvalidMessageError): Screened {
  const envelope = input.kind === 'message' ? input.message : input.envelope;
  if (NEVER_ANSWER.has(envelope.type)) return { kind: 'ignore', envelope };
  if (exceedsNestingDepth(envelope.data)) {
    const text = `Invalid message: data nests deeper than ${MAX_NESTING_DEPTH} levels`;
    return {
      kind: 'answer',
      answer:
        envelope.id !== undefined
          ? errorResponse(envelope.id, text)
          : rtviError(`Invalid RTVI transport message: ${text}`, false),
    };
  }
  if (input.kind === 'message') return { kind: 'handle', message: input.message };
  const { error } = input;
  let answer: RTVIMessage;
  if (error.kind === 'unknown-type' && error.id !== undefined) {
    answer = errorResponse(error.id, `Unsupported type ${envelope.type}`);
  } else if (error.id !== undefined && error.kind === 'invalid-data') {
    answer = errorResponse(error.id, `Invalid message: ${error.message}`);
  } else {
    answer = rtviError(`Invalid RTVI transport message: ${error.message}`, false);
  }
  return { kind: 'answer', answer };
}

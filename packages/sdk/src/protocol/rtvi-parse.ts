/**
 * Validating parsers for inbound RTVI envelopes: the envelope itself, then its data against the
 * schema of its type and direction.
 */
import { isJsonObject } from '../util/index.js';
import { z } from 'zod';
import type { ParseResult } from './rpc.js';
import { RTVI_MESSAGE_LABEL } from './rtvi.js';
import type { ClientToServerMessage, RTVIMessage, ServerToClientMessage } from './rtvi.js';
import { clientToServerDataSchemas, serverToClientDataSchemas } from './rtvi-schemas.js';

/** Why an inbound envelope was refused. */
export type EnvelopeErrorKind =
  /** Not JSON, not an object, or the envelope fields are of the wrong type. */
  | 'invalid'
  /** A well-formed object whose label is not `rtvi-ai`: not for us, to be ignored. */
  | 'foreign-label'
  /** The envelope has no `id` but the direction requires one. */
  | 'missing-id'
  /** The `type` is not one this direction knows. */
  | 'unknown-type'
  /** The `data` does not match the type's schema. */
  | 'invalid-data';

/** A refused envelope: the kind of failure, a message naming the bad field, and what could be read. */
export interface EnvelopeError {
  kind: EnvelopeErrorKind;
  message: string;
  /** Dotted path of the offending field (`id`, `data.content`, ...), empty for the whole value. */
  path: string;
  /** The envelope's id and type when they could be read (to address an `error-response`). */
  id?: string;
  type?: string;
}

export type EnvelopeParseResult<M> = { ok: true; value: M } | { ok: false; error: EnvelopeError };

const base = z
  .object({
    label: z.string(),
    type: z.string().min(1),
    id: z.string().optional(),
    data: z.unknown().optional(),
  })
  .loose();

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  return [prefix, ...path.map(String)].filter(Boolean).join('.');
}

function firstIssue(error: z.ZodError, prefix: string): { path: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { path: prefix, message: 'invalid value' };
  const path = formatPath(prefix, issue.path);
  return { path, message: `${path || 'value'}: ${issue.message}` };
}

/** Parse JSON text (or an already decoded value) into a generic RTVI envelope. */
export function parseEnvelope(input: unknown): EnvelopeParseResult<RTVIMessage> {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (err) {
      return {
        ok: false,
        error: {
          kind: 'invalid',
          path: '',
          message: `message is not valid JSON: ${(err as Error).message}`,
        },
      };
    }
  }
  if (!isJsonObject(value)) {
    return {
      ok: false,
      error: { kind: 'invalid', path: '', message: 'message is not a JSON object' },
    };
  }
  const parsed = base.safeParse(value);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.error, '');
    const error: EnvelopeError = {
      kind: 'invalid',
      path,
      message: `invalid RTVI envelope: ${message}`,
    };
    if (typeof value['id'] === 'string') error.id = value['id'];
    if (typeof value['type'] === 'string') error.type = value['type'];
    return { ok: false, error };
  }
  const { label, type, id, data } = parsed.data;
  if (label !== RTVI_MESSAGE_LABEL) {
    const error: EnvelopeError = {
      kind: 'foreign-label',
      path: 'label',
      message: `label is ${JSON.stringify(label)}, not ${JSON.stringify(RTVI_MESSAGE_LABEL)}`,
      type,
    };
    if (id !== undefined) error.id = id;
    return { ok: false, error };
  }
  const message: RTVIMessage = { label: RTVI_MESSAGE_LABEL, type };
  if (id !== undefined) message.id = id;
  if (data !== undefined) message.data = data;
  return { ok: true, value: message };
}

function validateData<M>(
  message: RTVIMessage,
  schemas: Record<string, z.ZodType>,
  requireId: boolean,
): EnvelopeParseResult<M> {
  const schema = Object.prototype.hasOwnProperty.call(schemas, message.type)
    ? schemas[message.type]
    : undefined;
  const known: EnvelopeError = { kind: 'invalid', path: '', message: '', type: message.type };
  if (message.id !== undefined) known.id = message.id;
  if (requireId && message.id === undefined) {
    return {
      ok: false,
      error: { ...known, kind: 'missing-id', path: 'id', message: 'id: is required' },
    };
  }
  if (!schema) {
    return {
      ok: false,
      error: {
        ...known,
        kind: 'unknown-type',
        path: 'type',
        message: `Unsupported type ${message.type}`,
      },
    };
  }
  const result = schema.safeParse(message.data);
  if (!result.success) {
    const { path, message: text } = firstIssue(result.error, 'data');
    return { ok: false, error: { ...known, kind: 'invalid-data', path, message: text } };
  }
  return { ok: true, value: message as M };
}

/**
 * Validate an inbound message on the server side: an RTVI envelope with an `id`
 * (as Pipecat requires) whose `data` matches its type.
 */
export function parseClientToServer(input: unknown): EnvelopeParseResult<ClientToServerMessage> {
  const parsed = parseEnvelope(input);
  if (!parsed.ok) return parsed;
  return validateClientToServer(parsed.value);
}

/**
 * Validate an envelope {@link parseEnvelope} already returned as a message to the server (its
 * `id`, its `type`, its `data`), without parsing the envelope again.
 */
export function validateClientToServer(
  envelope: RTVIMessage,
): EnvelopeParseResult<ClientToServerMessage> {
  return validateData(envelope, clientToServerDataSchemas, true);
}

/** Validate an inbound message on the client (or bridge) side. `id` is optional here. */
export function parseServerToClient(input: unknown): EnvelopeParseResult<ServerToClientMessage> {
  const parsed = parseEnvelope(input);
  if (!parsed.ok) return parsed;
  return validateData(parsed.value, serverToClientDataSchemas, false);
}

/** Narrow a parse result to a value, for callers that prefer the ParseResult shape. */
export function toParseResult<T>(result: EnvelopeParseResult<T>): ParseResult<T> {
  if (result.ok) return result;
  return {
    ok: false,
    error: { path: result.error.path, message: result.error.message },
    message: result.error.message,
  };
}

/**
 * The RTVI envelope (Pipecat's real-time voice interface protocol): label,
 * protocol version, the data type of every message in each direction, builders
 * for the messages this project sends, and validating parsers for inbound ones.
 */
import { z } from 'zod';
import type { ParseResult } from './rpc.js';

/** Label carried by every RTVI envelope. Envelopes with another label are not RTVI. */
export const RTVI_MESSAGE_LABEL = 'rtvi-ai';
/** Protocol version this project speaks and advertises. */
export const RTVI_PROTOCOL_VERSION = '2.1.0';
/** Legacy major version still accepted (and echoed back) in the handshake. */
export const RTVI_LEGACY_SUPPORTED_MAJOR = 1;

/** An RTVI envelope as it travels inside a Pipecat `MessageFrame`. */
export interface RTVIMessage<T extends string = string, D = unknown> {
  label: typeof RTVI_MESSAGE_LABEL;
  type: T;
  id?: string;
  data?: D;
}

// ---------------------------------------------------------------------------
// Client -> server

/** Who the client is, sent with `client-ready`. */
export interface RTVIAbout {
  library: string;
  library_version?: string;
  platform?: string;
  platform_version?: string;
  platform_details?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ClientReadyData {
  version: string;
  about?: RTVIAbout;
}
/** `client-message`: a request (or notice) to the app. `t` is the message type, `d` the argument. */
export interface ClientMessageData<D = unknown> {
  t: string;
  d?: D;
}
export interface SendTextOptions {
  /** Interrupt the bot and respond now (default true). */
  run_immediately?: boolean;
  /** Speak the answer (default true); false means text only. */
  audio_response?: boolean;
}
export interface SendTextData {
  content: string;
  options?: SendTextOptions;
}
export interface LLMFunctionCallResultData {
  function_name: string;
  tool_call_id: string;
  arguments: Record<string, unknown>;
  result: unknown;
}
export interface DtmfData {
  buttons: string[];
}
export interface RawAudioData {
  base64Audio: string;
  sampleRate: number;
  numChannels: number;
}
export interface RawAudioBatchData {
  base64AudioBatch: string[];
  sampleRate: number;
  numChannels: number;
}
export interface UiEventData {
  event: string;
  payload?: unknown;
}
export interface UiSnapshotData {
  tree: { root: unknown; captured_at: unknown; selection?: unknown };
}
export interface UiCancelJobGroupData {
  job_id: string;
  reason?: string;
}
/** Deprecated since RTVI 1.1; current servers answer it with `Unsupported type`. */
export interface AppendToContextData {
  role: string;
  content: unknown;
  run_immediately?: boolean;
}

/** Data type of every client -> server message, by `type`. */
export interface ClientToServerMessageMap {
  'client-ready': ClientReadyData;
  'client-message': ClientMessageData;
  'send-text': SendTextData;
  'llm-function-call-result': LLMFunctionCallResultData;
  'disconnect-bot': Record<string, never>;
  dtmf: DtmfData;
  'raw-audio': RawAudioData;
  'raw-audio-batch': RawAudioBatchData;
  'ui-event': UiEventData;
  'ui-snapshot': UiSnapshotData;
  'ui-cancel-job-group': UiCancelJobGroupData;
  'append-to-context': AppendToContextData;
}
export type ClientToServerType = keyof ClientToServerMessageMap;
/** A client -> server message of a known type. */
export type ClientToServerMessage = {
  [K in ClientToServerType]: RTVIMessage<K, ClientToServerMessageMap[K]>;
}[ClientToServerType];

// ---------------------------------------------------------------------------
// Server -> client

export interface BotReadyData {
  version: string;
  about?: RTVIAbout;
}
export interface ServerResponseData<D = unknown> {
  t: string;
  d?: D;
}
export interface ErrorResponseData {
  error: string;
}
export interface ErrorData {
  error: string;
  fatal: boolean;
}
export interface TextData {
  text: string;
}
export interface UserTranscriptionData {
  text: string;
  user_id: string;
  timestamp: string;
  final: boolean;
}
export interface BotOutputData {
  text: string;
  aggregated_by: 'sentence' | 'word' | (string & {});
  segment_id?: string;
  spoken?: boolean;
  will_be_spoken?: boolean;
  spoken_status?: 'new' | 'in-progress' | 'completed';
  spoken_progress?: { accumulated_text: string; remaining_text: string };
}
export interface MetricValue {
  processor: string;
  model?: string;
  value: number;
}
export interface TokenUsageMetric {
  processor: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  [key: string]: unknown;
}
export interface MetricsData {
  ttfb?: MetricValue[];
  processing?: MetricValue[];
  ttfa?: { processor: string; ttfa: number; ttfb: number; leading_silence: number }[];
  ttfat?: unknown[];
  tokens?: TokenUsageMetric[];
  characters?: MetricValue[];
  stt_usage?: unknown[];
}
export interface LLMFunctionCallStartedData {
  function_name?: string;
}
export interface LLMFunctionCallInProgressData {
  tool_call_id: string;
  function_name?: string;
  arguments?: Record<string, unknown>;
}
export interface LLMFunctionCallStoppedData {
  tool_call_id: string;
  cancelled: boolean;
  function_name?: string;
  result?: unknown;
}
/** Deprecated form of a function-call request, still understood by client-js. */
export interface LLMFunctionCallData {
  function_name: string;
  tool_call_id: string;
  args: Record<string, unknown>;
}
export interface AudioLevelData {
  value: number;
}
export interface UiCommandData {
  command: string;
  payload: unknown;
}
export interface UiJobGroupData {
  kind: 'group_started' | 'job_update' | 'job_completed' | 'group_completed';
  job_id: string;
  [key: string]: unknown;
}
export interface BotTtsAudioData {
  audio: string;
  sample_rate: number;
  num_channels: number;
}
type NoData = Record<string, never> | undefined;

/** Data type of every server -> client message, by `type`. */
export interface ServerToClientMessageMap {
  'bot-ready': BotReadyData;
  'server-response': ServerResponseData;
  'error-response': ErrorResponseData;
  error: ErrorData;
  'server-message': unknown;
  'user-started-speaking': NoData;
  'user-stopped-speaking': NoData;
  'bot-started-speaking': NoData;
  'bot-stopped-speaking': NoData;
  'bot-interrupted': NoData;
  'vad-user-started-speaking': NoData;
  'vad-user-stopped-speaking': NoData;
  'user-mute-started': NoData;
  'user-mute-stopped': NoData;
  'user-transcription': UserTranscriptionData;
  'user-llm-text': TextData;
  'bot-llm-started': NoData;
  'bot-llm-stopped': NoData;
  'bot-tts-started': NoData;
  'bot-tts-stopped': NoData;
  'bot-llm-text': TextData;
  'bot-tts-text': TextData;
  'bot-transcription': TextData;
  'bot-output': BotOutputData;
  metrics: MetricsData;
  'llm-function-call-started': LLMFunctionCallStartedData;
  'llm-function-call-in-progress': LLMFunctionCallInProgressData;
  'llm-function-call-stopped': LLMFunctionCallStoppedData;
  'llm-function-call': LLMFunctionCallData;
  'user-audio-level': AudioLevelData;
  'bot-audio-level': AudioLevelData;
  'system-log': TextData;
  'ui-command': UiCommandData;
  'ui-job-group': UiJobGroupData;
  'bot-tts-audio': BotTtsAudioData;
}
export type ServerToClientType = keyof ServerToClientMessageMap;
/** A server -> client message of a known type. */
export type ServerToClientMessage = {
  [K in ServerToClientType]: RTVIMessage<K, ServerToClientMessageMap[K]>;
}[ServerToClientType];

// ---------------------------------------------------------------------------
// Builders

function envelope<T extends string, D>(type: T, data: D, id?: string): RTVIMessage<T, D> {
  const message: RTVIMessage<T, D> = { label: RTVI_MESSAGE_LABEL, type };
  if (id !== undefined) message.id = id;
  if (data !== undefined) message.data = data;
  return message;
}

/** `client-ready`, the handshake opener. */
export function clientReady(id: string, about: RTVIAbout, version = RTVI_PROTOCOL_VERSION) {
  return envelope('client-ready', { version, about } satisfies ClientReadyData, id);
}
/** `client-message {t, d}`: a request answered by `server-response` or `error-response` with the same id. */
export function clientMessage<D>(id: string, t: string, d?: D) {
  const data: ClientMessageData<D> = { t };
  if (d !== undefined) data.d = d;
  return envelope('client-message', data, id);
}
/** `send-text`: inject a user turn. It has no reply. */
export function sendText(id: string, content: string, options?: SendTextOptions) {
  const data: SendTextData = { content };
  if (options !== undefined) data.options = options;
  return envelope('send-text', data, id);
}
/** `server-response`: answers the `client-message` with the same id. `d` is omitted when undefined. */
export function serverResponse<D>(id: string, t: string, d?: D) {
  const data: ServerResponseData<D> = { t };
  if (d !== undefined) data.d = d;
  return envelope('server-response', data, id);
}
/** `error-response`: the request with this id failed. */
export function errorResponse(id: string, error: string) {
  return envelope('error-response', { error } satisfies ErrorResponseData, id);
}
/** `error`: a problem not tied to a request id. */
export function rtviError(error: string, fatal = false) {
  return envelope('error', { error, fatal } satisfies ErrorData);
}
/** `server-message`: an unsolicited push with an app-defined payload. */
export function serverMessage<D>(data: D) {
  return envelope('server-message', data);
}
/** `bot-ready`: answers `client-ready`, echoing its id. */
export function botReady(id: string, version: string, about?: RTVIAbout) {
  const data: BotReadyData = { version };
  if (about !== undefined) data.about = about;
  return envelope('bot-ready', data, id);
}
/** Any server -> client event by type. */
export function serverEvent<K extends ServerToClientType>(
  type: K,
  data?: ServerToClientMessageMap[K],
): RTVIMessage<K, ServerToClientMessageMap[K]> {
  return envelope(type, data as ServerToClientMessageMap[K]);
}

// ---------------------------------------------------------------------------
// Version negotiation

/** Outcome of checking a client's protocol version. */
export type VersionCheck =
  { ok: true; version: string; legacy: boolean } | { ok: false; version: string; error: string };

/**
 * Check a `client-ready` version the way Pipecat does: exactly three integer
 * parts; the server's major or the legacy major 1 are accepted (a legacy
 * client's version is echoed back). Anything else yields an error text, and the
 * server continues with its own version.
 */
export function negotiateVersion(clientVersion: unknown): VersionCheck {
  if (typeof clientVersion !== 'string') {
    return {
      ok: false,
      version: RTVI_PROTOCOL_VERSION,
      error: `Client version unknown. Server protocol is ${RTVI_PROTOCOL_VERSION}. Compatibility issues may occur.`,
    };
  }
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(clientVersion);
  const serverMajor = Number(RTVI_PROTOCOL_VERSION.split('.')[0]);
  const major = match ? Number(match[1]) : NaN;
  if (major === serverMajor) return { ok: true, version: RTVI_PROTOCOL_VERSION, legacy: false };
  if (major === RTVI_LEGACY_SUPPORTED_MAJOR)
    return { ok: true, version: clientVersion, legacy: true };
  return {
    ok: false,
    version: RTVI_PROTOCOL_VERSION,
    error: `RTVI version ${clientVersion} is not compatible with server protocol ${RTVI_PROTOCOL_VERSION}. Compatibility issues may occur.`,
  };
}

// ---------------------------------------------------------------------------
// Validating parsers

const about = z
  .object({
    library: z.string(),
    library_version: z.string().optional(),
    platform: z.string().optional(),
    platform_version: z.string().optional(),
    platform_details: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const object = z.record(z.string(), z.unknown());

/** zod schemas for the data of every client -> server message. Unknown fields pass through. */
export const clientToServerDataSchemas = {
  // The version is checked by negotiateVersion(), which answers a missing or bad one with an
  // error-response and carries on (Pipecat's behaviour), so the schema leaves it open.
  'client-ready': z
    .object({ version: z.unknown().optional(), about: z.unknown().optional() })
    .loose(),
  'client-message': z.object({ t: z.string().min(1), d: z.unknown().optional() }).loose(),
  'send-text': z
    .object({
      content: z.string(),
      options: z
        .object({
          run_immediately: z.boolean().optional(),
          audio_response: z.boolean().optional(),
        })
        .loose()
        .optional(),
    })
    .loose(),
  'llm-function-call-result': z
    .object({
      function_name: z.string(),
      tool_call_id: z.string(),
      arguments: object,
      result: z.unknown(),
    })
    .loose(),
  'disconnect-bot': object.optional(),
  dtmf: z.object({ buttons: z.array(z.string().regex(/^[0-9*#]$/)).min(1) }).loose(),
  'raw-audio': z
    .object({
      base64Audio: z.string(),
      sampleRate: z.number().int().positive(),
      numChannels: z.number().int().positive(),
    })
    .loose(),
  'raw-audio-batch': z
    .object({
      base64AudioBatch: z.array(z.string()),
      sampleRate: z.number().int().positive(),
      numChannels: z.number().int().positive(),
    })
    .loose(),
  'ui-event': z.object({ event: z.string(), payload: z.unknown().optional() }).loose(),
  'ui-snapshot': z
    .object({
      tree: z
        .object({ root: z.unknown(), captured_at: z.unknown(), selection: z.unknown().optional() })
        .loose(),
    })
    .loose(),
  'ui-cancel-job-group': z.object({ job_id: z.string(), reason: z.string().optional() }).loose(),
  'append-to-context': z
    .object({ role: z.string(), content: z.unknown(), run_immediately: z.boolean().optional() })
    .loose(),
} satisfies Record<ClientToServerType, z.ZodType>;

const text = z.object({ text: z.string() }).loose();
const none = z.unknown().optional();
const metricValue = z
  .object({ processor: z.string(), model: z.string().optional(), value: z.number() })
  .loose();

/** zod schemas for the data of every server -> client message. Unknown fields pass through. */
export const serverToClientDataSchemas = {
  'bot-ready': z.object({ version: z.string(), about: about.optional() }).loose(),
  'server-response': z.object({ t: z.string(), d: z.unknown().optional() }).loose(),
  'error-response': z.object({ error: z.string() }).loose(),
  error: z.object({ error: z.string(), fatal: z.boolean() }).loose(),
  'server-message': z.unknown(),
  'user-started-speaking': none,
  'user-stopped-speaking': none,
  'bot-started-speaking': none,
  'bot-stopped-speaking': none,
  'bot-interrupted': none,
  'vad-user-started-speaking': none,
  'vad-user-stopped-speaking': none,
  'user-mute-started': none,
  'user-mute-stopped': none,
  'user-transcription': z
    .object({ text: z.string(), user_id: z.string(), timestamp: z.string(), final: z.boolean() })
    .loose(),
  'user-llm-text': text,
  'bot-llm-started': none,
  'bot-llm-stopped': none,
  'bot-tts-started': none,
  'bot-tts-stopped': none,
  'bot-llm-text': text,
  'bot-tts-text': text,
  'bot-transcription': text,
  'bot-output': z.object({ text: z.string(), aggregated_by: z.string() }).loose(),
  metrics: z
    .object({
      ttfb: z.array(metricValue).optional(),
      processing: z.array(metricValue).optional(),
      tokens: z
        .array(
          z
            .object({
              processor: z.string(),
              model: z.string(),
              prompt_tokens: z.number(),
              completion_tokens: z.number(),
              total_tokens: z.number(),
            })
            .loose(),
        )
        .optional(),
      characters: z.array(metricValue).optional(),
    })
    .loose(),
  'llm-function-call-started': z.object({ function_name: z.string().optional() }).loose(),
  'llm-function-call-in-progress': z
    .object({
      tool_call_id: z.string(),
      function_name: z.string().optional(),
      arguments: object.optional(),
    })
    .loose(),
  'llm-function-call-stopped': z
    .object({
      tool_call_id: z.string(),
      cancelled: z.boolean(),
      function_name: z.string().optional(),
      result: z.unknown().optional(),
    })
    .loose(),
  'llm-function-call': z
    .object({ function_name: z.string(), tool_call_id: z.string(), args: object })
    .loose(),
  'user-audio-level': z.object({ value: z.number() }).loose(),
  'bot-audio-level': z.object({ value: z.number() }).loose(),
  'system-log': text,
  'ui-command': z.object({ command: z.string(), payload: z.unknown() }).loose(),
  'ui-job-group': z
    .object({
      kind: z.enum(['group_started', 'job_update', 'job_completed', 'group_completed']),
      job_id: z.string(),
    })
    .loose(),
  'bot-tts-audio': z
    .object({ audio: z.string(), sample_rate: z.number(), num_channels: z.number() })
    .loose(),
} satisfies Record<ServerToClientType, z.ZodType>;

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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      error: { kind: 'invalid', path: '', message: 'message is not a JSON object' },
    };
  }
  const parsed = base.safeParse(value);
  if (!parsed.success) {
    const { path, message } = firstIssue(parsed.error, '');
    const raw = value as Record<string, unknown>;
    const error: EnvelopeError = {
      kind: 'invalid',
      path,
      message: `invalid RTVI envelope: ${message}`,
    };
    if (typeof raw['id'] === 'string') error.id = raw['id'];
    if (typeof raw['type'] === 'string') error.type = raw['type'];
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
  return validateData(parsed.value, clientToServerDataSchemas, true);
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

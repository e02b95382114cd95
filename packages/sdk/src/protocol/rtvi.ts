/**
 * The RTVI envelope (Pipecat's real-time voice interface protocol): label,
 * protocol version, and the data type of every message in each direction.
 * Builders are in `rtvi-builders.ts`, version negotiation in `rtvi-version.ts`,
 * the data schemas in `rtvi-schemas.ts` and the validating parsers in `rtvi-parse.ts`.
 */

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
/** The union of the envelopes a type -> data map describes. */
type MessageOf<M> = { [K in keyof M & string]: RTVIMessage<K, M[K]> }[keyof M & string];
/** A client -> server message of a known type. */
export type ClientToServerMessage = MessageOf<ClientToServerMessageMap>;

// ---------------------------------------------------------------------------
// Server -> client

export interface BotReadyData {
  version: string;
  about?: RTVIAbout;
  /** The connection's session, when the bot lets a client come back to it (Scenaro's bot). */
  session?: BotReadySession;
}
/**
 * How a client gets its session back after a disconnect: reconnect within `resume_grace_ms`
 * with `?resume=<resume_token>` on the WebSocket URL. Each `bot-ready` carries a new token.
 */
export interface BotReadySession {
  resume_token: string;
  resume_grace_ms: number;
  /** This connection continues an earlier connection's session. */
  resumed: boolean;
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
export type ServerToClientMessage = MessageOf<ServerToClientMessageMap>;

/**
 * Builders of the RTVI messages this project sends, in both directions.
 */
import { RTVI_MESSAGE_LABEL, RTVI_PROTOCOL_VERSION } from './rtvi.js';
import type {
  BotReadyData,
  BotReadySession,
  ClientMessageData,
  ClientReadyData,
  ErrorData,
  ErrorResponseData,
  RTVIAbout,
  RTVIMessage,
  SendTextData,
  SendTextOptions,
  ServerResponseData,
  ServerToClientMessageMap,
  ServerToClientType,
} from './rtvi.js';

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
export function botReady(
  id: string,
  version: string,
  about?: RTVIAbout,
  session?: BotReadySession,
) {
  const data: BotReadyData = { version };
  if (about !== undefined) data.about = about;
  if (session !== undefined) data.session = session;
  return envelope('bot-ready', data, id);
}
/** Any server -> client event by type. */
export function serverEvent<K extends ServerToClientType>(
  type: K,
  data?: ServerToClientMessageMap[K],
): RTVIMessage<K, ServerToClientMessageMap[K]> {
  return envelope(type, data as ServerToClientMessageMap[K]);
}

/**
 * The real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport` in plain Node 20, as a
 * browser would use them against a bot server. client-js needs three things a browser has:
 *
 * 1. `globalThis.window` (client-js reads `window?.navigator`);
 * 2. a global `WebSocket` whose `binaryType` is `"blob"` (the protobuf serializer only accepts
 *    Blobs), built on the `ws` package (an existing global WebSocket, as on Node 22, is kept);
 * 3. a media manager without devices (the default one needs `navigator`): a
 *    {@link NodeMediaManager}, whose microphone we feed with PCM and whose speaker records the
 *    bot audio. Without the `mic` option the client runs with `enableMic: false`.
 *
 * The transport's own code sends and receives everything: mic chunks go through the callback it
 * registered with its media manager and bot audio arrives through its `bufferBotAudio` call, so
 * the bytes on the wire are exactly what the browser transport sends.
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import type { RTVIEventCallbacks, RTVIMessage } from '@pipecat-ai/client-js';
import { ProtobufFrameSerializer, WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { WebSocket as WsWebSocket } from 'ws';
import { tryDecodeFrame } from '../protocol/index.js';
import { tapRtviMessages } from '../rtvi/rtvi-message-tap.js';
import { PipecatEventLog, RTVI_CALLBACK_NAMES } from './events.js';
import type { CallbackArrival, RtviArrival, WaitForOptions } from './events.js';
import { NodeMediaManager, asTransportMediaManager } from './media.js';
import type { MicOptions, NodeMicrophone } from './mic.js';
import type { NodeSpeaker } from './speaker.js';

/** `ws`'s WebSocket with `binaryType = "blob"`, as browsers default to. */
export class BlobWebSocket extends WsWebSocket {
  constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
    super(...args);
    (this as { binaryType: string }).binaryType = 'blob';
  }
}

/**
 * Install the `window` and `WebSocket` globals client-js expects of a browser (those already
 * there are kept) and set client-js's log level (silent unless `PIPECAT_LOG` is set). Returns a
 * function that puts the globals back as they were.
 */
export function installPipecatNodeShims(): () => void {
  const scope = globalThis as Record<string, unknown>;
  const hadWindow = Object.prototype.hasOwnProperty.call(scope, 'window');
  const previousWindow = scope['window'];
  const previousWebSocket = scope['WebSocket'];
  if (scope['window'] === undefined) scope['window'] = globalThis;
  if (typeof scope['WebSocket'] !== 'function') scope['WebSocket'] = BlobWebSocket;
  logger.setLevel(process.env['PIPECAT_LOG'] ? LogLevel.DEBUG : LogLevel.NONE);
  return () => {
    if (hadWindow) scope['window'] = previousWindow;
    else delete scope['window'];
    if (previousWebSocket === undefined) delete scope['WebSocket'];
    else scope['WebSocket'] = previousWebSocket;
  };
}

/**
 * The transport's protobuf serializer, unchanged on the way out; on the way in it also notes the
 * `sample_rate` / `num_channels` of each audio frame for the speaker (the transport drops them).
 * Every inbound message gets the same extra read, so arrival order is kept.
 */
class WireNotingSerializer extends ProtobufFrameSerializer {
  constructor(private readonly media: NodeMediaManager) {
    super();
  }
  override async deserialize(data: unknown): ReturnType<ProtobufFrameSerializer['deserialize']> {
    const bytes = data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : undefined;
    const parsed = await super.deserialize(data);
    if (parsed.type === 'audio' && bytes) {
      const frame = tryDecodeFrame(bytes);
      if (frame.ok && frame.value.kind === 'audio') {
        const { sampleRate, numChannels } = frame.value;
        this.media.noteWireFormat(parsed.audio, { sampleRate, numChannels });
      }
    }
    return parsed;
  }
}

/** RTVI events after which the speaker is flushed. */
export type SpeakerFlushEvent = 'user-started-speaking' | 'bot-interrupted';

/** Options of {@link createPipecatNodeClient}. */
export interface PipecatNodeClientOptions {
  /**
   * Turn the microphone on (`enableMic: true`) and feed it from `client.mic`; `true` means the
   * defaults (real-time, 512-byte chunks). Without it the mic is off and sends nothing.
   */
  mic?: MicOptions | true;
  /** The transport's `recorderSampleRate` (frames say it; the mic records at it). @default 16000 */
  recorderSampleRate?: number;
  /** The rate the speaker plays at. @default 24000 */
  playerSampleRate?: number;
  /**
   * Flush the speaker on these events, as a page wiring barge-in itself would (the WebSocket
   * transport never does). @default []
   */
  flushSpeakerOn?: SpeakerFlushEvent[];
  /** Sees the transport before the client initializes it (e.g. to tap its messages). */
  beforeClient?: (transport: WebSocketTransport) => void;
}

/** Options of {@link connectPipecatClient}. */
export interface PipecatConnectOptions extends PipecatNodeClientOptions {
  /** Appended to the URL as `?token=` by the transport. */
  token?: string;
}

/** A client, not connected yet, plus everything it receives. */
export interface PipecatNodeClient {
  client: PipecatClient;
  transport: WebSocketTransport;
  /**
   * The text-path callbacks (server messages, errors, metrics, LLM text, bot output, function
   * calls) in order, as `[callback name, data]`. `timeline` has every callback, with times.
   */
  events: [string, unknown][];
  serverMessages: unknown[];
  errors: RTVIMessage[];
  /** Every inbound RTVI message, in arrival order, with times (`bot-interrupted` included). */
  messages: RtviArrival[];
  /** Every RTVI callback client-js fired, in order, with times. */
  timeline: CallbackArrival[];
  media: NodeMediaManager;
  mic: NodeMicrophone;
  speaker: NodeSpeaker;
  /** The clock of every `at`: ms since the client was created. */
  now(): number;
  /** The first inbound message of `type` (see {@link WaitForOptions}). */
  waitForMessage(type: string, options?: WaitForOptions): Promise<RtviArrival>;
}

/** A connected client plus everything it received. */
export interface ConnectedClient extends PipecatNodeClient {
  botReady: unknown;
  disconnect(): Promise<void>;
}

/** The callbacks whose events land in `events` (the text path). */
const TEXT_PATH_CALLBACKS = new Set<string>([
  'onServerMessage',
  'onError',
  'onMetrics',
  'onUserLlmText',
  'onBotOutput',
  'onBotLlmText',
  'onBotLlmStarted',
  'onBotLlmStopped',
  'onLLMFunctionCallStarted',
  'onLLMFunctionCallInProgress',
  'onLLMFunctionCallStopped',
]);

/**
 * A real PipecatClient over a `WebSocketTransport`, ready for Node (the shims are installed) and
 * not connected yet: call `client.connect(...)`, or use {@link connectPipecatClient}.
 */
export function createPipecatNodeClient(options: PipecatNodeClientOptions = {}): PipecatNodeClient {
  installPipecatNodeShims();
  const start = performance.now();
  const now = (): number => performance.now() - start;
  const recorderSampleRate = options.recorderSampleRate ?? 16_000;
  const media = new NodeMediaManager({
    recorderSampleRate,
    playerSampleRate: options.playerSampleRate ?? 24_000,
    ...(options.mic && options.mic !== true ? { mic: options.mic } : {}),
    now,
  });
  const log = new PipecatEventLog(now);
  const serverMessages: unknown[] = [];
  const errors: RTVIMessage[] = [];
  const events: [string, unknown][] = [];
  const flushOn = new Set<string>(options.flushSpeakerOn ?? []);
  const transport = new WebSocketTransport({
    mediaManager: asTransportMediaManager(media),
    serializer: new WireNotingSerializer(media),
    recorderSampleRate,
  });
  tapRtviMessages(transport).subscribe((message) => {
    log.message(message);
    if (flushOn.has(message.type)) void media.userStartedSpeaking(message.type);
  });
  options.beforeClient?.(transport);
  const callbacks: RTVIEventCallbacks = {};
  for (const name of RTVI_CALLBACK_NAMES) {
    callbacks[name] = (data?: unknown) => {
      log.callback(name, data);
      if (TEXT_PATH_CALLBACKS.has(name)) events.push([name, data]);
      if (name === 'onServerMessage') serverMessages.push(data);
      if (name === 'onError') errors.push(data as RTVIMessage);
    };
  }
  const client = new PipecatClient({
    transport,
    enableMic: options.mic !== undefined,
    enableCam: false,
    callbacks,
  });
  return {
    client,
    transport,
    events,
    serverMessages,
    errors,
    messages: log.messages,
    timeline: log.timeline,
    media,
    mic: media.mic,
    speaker: media.speaker,
    now,
    waitForMessage: (type, waitOptions) => log.waitFor(type, waitOptions),
  };
}

/**
 * Connect a real PipecatClient to `url`. The second argument is the token (appended as
 * client-js does) or {@link PipecatConnectOptions}.
 */
export async function connectPipecatClient(
  url: string,
  tokenOrOptions?: string | PipecatConnectOptions,
): Promise<ConnectedClient> {
  const options =
    typeof tokenOrOptions === 'string' ? { token: tokenOrOptions } : (tokenOrOptions ?? {});
  const created = createPipecatNodeClient(options);
  const botReady = await created.client.connect({
    wsUrl: url,
    ...(options.token ? { token: options.token } : {}),
  } as never);
  return {
    ...created,
    botReady,
    async disconnect() {
      await created.client.disconnect();
    },
  };
}

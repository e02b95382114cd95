/**
 * The real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport` in plain Node 20, as a
 * browser would use them against a bot server. client-js needs three things a browser has:
 *
 * 1. `globalThis.window` (client-js reads `window?.navigator`);
 * 2. a global `WebSocket` whose `binaryType` is `"blob"` (the protobuf serializer only accepts
 *    Blobs), built on the `ws` package (an existing global WebSocket, as on Node 22, is kept);
 * 3. a media manager without devices (the default one needs `navigator`), with
 *    `enableMic: false, enableCam: false` so devices are never initialised.
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import type { RTVIMessage } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { WebSocket as WsWebSocket } from 'ws';

/** `ws`'s WebSocket with `binaryType = "blob"`, as browsers default to. */
class BlobWebSocket extends WsWebSocket {
  constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
    super(...args);
    (this as { binaryType: string }).binaryType = 'blob';
  }
}

/**
 * Install the `window` and `WebSocket` globals client-js expects of a browser (idempotent) and
 * set client-js's log level (silent unless `PIPECAT_LOG` is set).
 */
export function installPipecatNodeShims(): void {
  const scope = globalThis as Record<string, unknown>;
  if (scope['window'] === undefined) scope['window'] = globalThis;
  if (typeof scope['WebSocket'] !== 'function') scope['WebSocket'] = BlobWebSocket;
  logger.setLevel(process.env['PIPECAT_LOG'] ? LogLevel.DEBUG : LogLevel.NONE);
}

type MediaManager = NonNullable<
  ConstructorParameters<typeof WebSocketTransport>[0]
>['mediaManager'];

/** The media manager surface WebSocketTransport calls, with no devices. */
function createNodeMediaManager(): MediaManager {
  const noopAsync = async (): Promise<void> => {};
  const noop = (): void => {};
  const none = async (): Promise<never[]> => [];
  const manager = {
    setUserAudioCallback: noop,
    setClientOptions: noop,
    initialize: noopAsync,
    connect: noopAsync,
    disconnect: noopAsync,
    userStartedSpeaking: noopAsync,
    bufferBotAudio: (audio: Int16Array) => audio,
    getAllMics: none,
    getAllCams: none,
    getAllSpeakers: none,
    updateMic: noop,
    updateCam: noop,
    updateSpeaker: noop,
    selectedMic: {},
    selectedCam: {},
    selectedSpeaker: {},
    enableMic: noop,
    enableCam: noop,
    enableScreenShare: noop,
    isMicEnabled: false,
    isCamEnabled: false,
    isSharingScreen: false,
    tracks: () => ({ local: {} }),
    supportsScreenShare: false,
  };
  return manager as unknown as MediaManager;
}

/** A connected client plus everything it received. */
export interface ConnectedClient {
  client: PipecatClient;
  /** Every event received, in order, as `[callback name, data]`. */
  events: [string, unknown][];
  serverMessages: unknown[];
  errors: RTVIMessage[];
  botReady: unknown;
  disconnect(): Promise<void>;
}

/** Connect a real PipecatClient to `url` (appending `token` as client-js does). */
export async function connectPipecatClient(url: string, token?: string): Promise<ConnectedClient> {
  installPipecatNodeShims();
  const serverMessages: unknown[] = [];
  const errors: RTVIMessage[] = [];
  const events: [string, unknown][] = [];
  const record = (name: string) => (data?: unknown) => {
    events.push([name, data]);
  };
  const transport = new WebSocketTransport({ mediaManager: createNodeMediaManager() });
  const client = new PipecatClient({
    transport,
    enableMic: false,
    enableCam: false,
    callbacks: {
      onServerMessage: (data: unknown) => {
        serverMessages.push(data);
        events.push(['onServerMessage', data]);
      },
      onError: (message: RTVIMessage) => {
        errors.push(message);
        events.push(['onError', message]);
      },
      onMetrics: record('onMetrics'),
      onUserLlmText: record('onUserLlmText'),
      onBotOutput: record('onBotOutput'),
      onBotLlmText: record('onBotLlmText'),
      onBotLlmStarted: record('onBotLlmStarted'),
      onBotLlmStopped: record('onBotLlmStopped'),
      onLLMFunctionCallStarted: record('onLLMFunctionCallStarted'),
      onLLMFunctionCallInProgress: record('onLLMFunctionCallInProgress'),
      onLLMFunctionCallStopped: record('onLLMFunctionCallStopped'),
    },
  });
  const botReady = await client.connect({ wsUrl: url, ...(token ? { token } : {}) } as never);
  return {
    client,
    events,
    serverMessages,
    errors,
    botReady,
    async disconnect() {
      await client.disconnect();
    },
  };
}

/**
 * Test support: the real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport`
 * running in plain Node 20, with the three shims that needs (a `window` global,
 * a Blob-typed `WebSocket` global, a media manager without devices).
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import type { RTVIMessage } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { WebSocket as WsWebSocket } from 'ws';

class BlobWebSocket extends WsWebSocket {
  constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
    super(...args);
    this.binaryType = 'blob' as never;
  }
}

/** Install the globals client-js expects of a browser. Idempotent. */
export function installPipecatNodeShims(): void {
  const g = globalThis as Record<string, unknown>;
  g['window'] ??= globalThis;
  logger.setLevel(process.env['PIPECAT_LOG'] ? LogLevel.DEBUG : LogLevel.NONE);
  if (!g['WebSocket'] || g['WebSocket'] !== BlobWebSocket) g['WebSocket'] = BlobWebSocket;
}

/** A media manager with no devices, for protocol-only clients. */
export function createNullMediaManager(): unknown {
  let callbacks: unknown;
  return {
    setUserAudioCallback() {},
    setClientOptions(options: { callbacks?: unknown }) {
      callbacks = options.callbacks;
      void callbacks;
    },
    async initialize() {},
    async connect() {},
    async disconnect() {},
    async userStartedSpeaking() {},
    bufferBotAudio(audio: Int16Array) {
      return audio;
    },
    async getAllMics() {
      return [];
    },
    async getAllCams() {
      return [];
    },
    async getAllSpeakers() {
      return [];
    },
    updateMic() {},
    updateCam() {},
    updateSpeaker() {},
    get selectedMic() {
      return {};
    },
    get selectedCam() {
      return {};
    },
    get selectedSpeaker() {
      return {};
    },
    enableMic() {},
    enableCam() {},
    enableScreenShare() {},
    get isMicEnabled() {
      return false;
    },
    get isCamEnabled() {
      return false;
    },
    get isSharingScreen() {
      return false;
    },
    tracks() {
      return { local: {} };
    },
    get supportsScreenShare() {
      return false;
    },
  };
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
  const transport = new WebSocketTransport({ mediaManager: createNullMediaManager() as never });
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

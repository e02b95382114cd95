/**
 * Test support: the real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport`
 * running in plain Node 20, with the three shims that needs (a `window` global,
 * a Blob-typed `WebSocket` global, a media manager without devices).
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import type { RTVIMessage } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import {
  createNodeMediaManager,
  installPipecatNodeShims as installSdkShims,
} from '../../../sdk/src/test-support/pipecat-node.js';

/** Install the globals client-js expects of a browser (once per process) and silence its logs. */
export function installPipecatNodeShims(): void {
  if (!shimsInstalled) {
    installSdkShims();
    shimsInstalled = true;
  }
  logger.setLevel(process.env['PIPECAT_LOG'] ? LogLevel.DEBUG : LogLevel.NONE);
}
let shimsInstalled = false;

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
  const transport = new WebSocketTransport({ mediaManager: createNodeMediaManager() as never });
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

/**
 * The connection to the bot, loaded next to the config (a chunk of its own): a `PipecatClient`
 * over `WebSocketTransport` with a media manager that touches no device until the microphone
 * is turned on, its `@scenaro/sdk/rtvi` transport for the frontend tools and store calls, and
 * the conversation controller.
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import type { RpcTransport } from '@scenaro/sdk';
import { createRtviTransport } from '@scenaro/sdk/rtvi';
import { ConversationController } from './conversation';
import { LazyMicMediaManager } from './media';
import type { DemoConfig } from './types';

/** What the storefront talks through. */
export interface Connection {
  transport: RpcTransport;
  conversation: ConversationController;
}

/** Build the client, its RPC transport and the conversation (nothing connects yet). */
export function createConnection(config: DemoConfig): Connection {
  logger.setLevel(LogLevel.WARN);
  // Microphone off until the shopper turns it on (and the browser allows it); no camera.
  const media = new LazyMicMediaManager();
  const client = new PipecatClient({
    transport: new WebSocketTransport({ mediaManager: media as never }),
    enableMic: false,
    enableCam: false,
  });
  const transport = createRtviTransport(client, { remoteIdentity: 'agent' });
  const conversation = new ConversationController(
    client,
    { wsUrl: config.wsUrl, ...(config.token ? { token: config.token } : {}) },
    media,
  );
  return { transport, conversation };
}

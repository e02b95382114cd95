/**
 * The connection to the bot, loaded next to the config (a chunk of its own): a `PipecatClient`
 * over `WebSocketTransport` with the page's media manager (microphone only when the shopper
 * turns it on, the bot's voice played through Web Audio), its `@scenaro/sdk/rtvi` transport for
 * the frontend tools and store calls, the voice surface (`createRtviVoice`, with a tap on the
 * transport for `bot-interrupted`), and the conversation controller.
 */
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import type { RpcTransport, Voice } from '@scenaro/sdk';
import { createRtviTransport, createRtviVoice, tapRtviMessages } from '@scenaro/sdk/rtvi';
import { ConversationController } from './conversation';
import { VoiceMediaManager } from './media';
import type { DemoConfig } from './types';

/** What the storefront talks through. */
export interface Connection {
  transport: RpcTransport;
  voice: Voice;
  conversation: ConversationController;
}

/** Build the client, its RPC transport, the voice and the conversation (nothing connects yet). */
export function createConnection(config: DemoConfig): Connection {
  logger.setLevel(LogLevel.WARN);
  const media = new VoiceMediaManager();
  const wsTransport = new WebSocketTransport({ mediaManager: media as never });
  const messages = tapRtviMessages(wsTransport);
  // Microphone off until the shopper turns it on (and the browser allows it); no camera.
  const client = new PipecatClient({ transport: wsTransport, enableMic: false, enableCam: false });
  const transport = createRtviTransport(client, { remoteIdentity: 'agent' });
  const voice = createRtviVoice(client, {
    connectParams: () => ({
      wsUrl: config.wsUrl,
      ...(config.token ? { token: config.token } : {}),
    }),
    mic: media,
    messages,
  });
  // Barge-in: what was already sent of the bot's voice stops at once.
  voice.on('bot-interrupted', () => media.player.flush());
  const conversation = new ConversationController(client, voice, {
    voice: config.voice,
    unlockAudio: () => media.player.unlock(),
  });
  return { transport, voice, conversation };
}

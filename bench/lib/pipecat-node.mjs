// The real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport` in plain Node, for
// benchmarks: the three shims of packages/sdk/src/test-support/pipecat-node.ts (a `window`
// global, a global WebSocket whose binaryType is "blob" as in browsers, a media manager without
// devices), replicated here because test-support is not part of the build.
import { LogLevel, PipecatClient, logger } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { WebSocket as WsWebSocket } from 'ws';

/** `ws`'s WebSocket with `binaryType = "blob"`, as browsers default to. */
class BlobWebSocket extends WsWebSocket {
  constructor(...args) {
    super(...args);
    this.binaryType = 'blob';
  }
}

/**
 * Install the `window` and `WebSocket` globals client-js needs. Idempotent. Also mutes
 * `console.debug`, which websocket-transport's reconnecting socket logs every event to.
 */
export function installPipecatNodeShims() {
  globalThis.window ??= globalThis;
  logger.setLevel(LogLevel.NONE);
  console.debug = () => {};
  if (typeof globalThis.WebSocket !== 'function') globalThis.WebSocket = BlobWebSocket;
}

/** The media manager surface WebSocketTransport calls, with no devices. */
function createNodeMediaManager() {
  const noopAsync = async () => {};
  return {
    setUserAudioCallback() {},
    setClientOptions() {},
    initialize: noopAsync,
    connect: noopAsync,
    disconnect: noopAsync,
    userStartedSpeaking: noopAsync,
    bufferBotAudio: (audio) => audio,
    getAllMics: async () => [],
    getAllCams: async () => [],
    getAllSpeakers: async () => [],
    updateMic() {},
    updateCam() {},
    updateSpeaker() {},
    selectedMic: {},
    selectedCam: {},
    selectedSpeaker: {},
    enableMic() {},
    enableCam() {},
    enableScreenShare() {},
    isMicEnabled: false,
    isCamEnabled: false,
    isSharingScreen: false,
    tracks: () => ({ local: {} }),
    supportsScreenShare: false,
  };
}

/** A connected PipecatClient (handshake done) on `url`. */
export async function connectPipecatClient(url, callbacks = {}) {
  installPipecatNodeShims();
  const transport = new WebSocketTransport({ mediaManager: createNodeMediaManager() });
  const client = new PipecatClient({ transport, enableMic: false, enableCam: false, callbacks });
  await client.connect({ wsUrl: url });
  return client;
}

/**
 * Running the real `@pipecat-ai/client-js` + `@pipecat-ai/websocket-transport`
 * in plain Node 20 (pipecat-wire.md §11), for tests:
 *
 * 1. `globalThis.window` (client-js reads `window?.navigator`);
 * 2. a global `WebSocket` whose `binaryType` is `"blob"` (the protobuf serializer
 *    only accepts Blobs), built on the `ws` package;
 * 3. a duck-typed media manager (the default one needs `navigator`);
 * 4. `enableMic: false, enableCam: false` so devices are never initialised.
 *
 * Test-only (excluded from the build).
 */
import { LogLevel, PipecatClient, logger as pipecatLogger } from '@pipecat-ai/client-js';
import type { PipecatClientOptions } from '@pipecat-ai/client-js';
import { WebSocketTransport } from '@pipecat-ai/websocket-transport';
import { afterAll, beforeAll, vi } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';

/** `ws`'s WebSocket with `binaryType = "blob"`, as browsers default to. */
export class BlobWebSocket extends WsWebSocket {
  constructor(...args: ConstructorParameters<typeof WsWebSocket>) {
    super(...args);
    (this as { binaryType: string }).binaryType = 'blob';
  }
}

/**
 * Install the `window` and `WebSocket` globals client-js needs (an existing
 * global WebSocket, as on Node 22, is kept). Returns a function restoring them.
 */
export function installPipecatNodeShims(): () => void {
  const scope = globalThis as Record<string, unknown>;
  const hadWindow = Object.prototype.hasOwnProperty.call(scope, 'window');
  const previousWindow = scope['window'];
  const previousWebSocket = scope['WebSocket'];
  if (scope['window'] === undefined) scope['window'] = globalThis;
  if (typeof scope['WebSocket'] !== 'function') scope['WebSocket'] = BlobWebSocket;
  return () => {
    if (hadWindow) scope['window'] = previousWindow;
    else delete scope['window'];
    if (previousWebSocket === undefined) delete scope['WebSocket'];
    else scope['WebSocket'] = previousWebSocket;
  };
}

/**
 * Silence the WebSocket transport's own console lines (`websocket: …`, `signaling socket …`),
 * which it writes directly; other console output passes. Returns a function restoring console.
 */
export function quietPipecatConsole(): () => void {
  const restores: (() => void)[] = [];
  for (const level of ['debug', 'log', 'warn', 'error'] as const) {
    const original = console[level];
    const spy = vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      const text = String(args[0]);
      if (!text.startsWith('websocket:') && !text.startsWith('signaling socket')) original(...args);
    });
    restores.push(() => spy.mockRestore());
  }
  return () => {
    for (const restore of restores) restore();
  };
}

/**
 * For the enclosing suite: the Node shims and the transport's console lines quieted before its
 * tests (restored after), and client-js's logger silenced.
 */
export function usePipecatNodeInEachSuite(): void {
  let restore: (() => void)[] = [];
  beforeAll(() => {
    pipecatLogger.setLevel(LogLevel.NONE);
    restore = [installPipecatNodeShims(), quietPipecatConsole()];
  });
  afterAll(() => {
    for (const undo of restore.reverse()) undo();
  });
}

/** The media manager surface WebSocketTransport calls, with no devices. */
export function createNodeMediaManager() {
  let userAudioCallback: ((data: ArrayBuffer) => void) | undefined;
  const noopAsync = async (): Promise<void> => {};
  return {
    setUserAudioCallback(callback: (data: ArrayBuffer) => void) {
      userAudioCallback = callback;
    },
    setClientOptions(options: { callbacks?: unknown }) {
      void options;
    },
    initialize: noopAsync,
    connect: noopAsync,
    disconnect: noopAsync,
    userStartedSpeaking: noopAsync,
    bufferBotAudio: (audio: Int16Array) => audio,
    getAllMics: async () => [],
    getAllCams: async () => [],
    getAllSpeakers: async () => [],
    updateMic: () => {},
    updateCam: () => {},
    updateSpeaker: () => {},
    get selectedMic() {
      return {};
    },
    get selectedCam() {
      return {};
    },
    get selectedSpeaker() {
      return {};
    },
    enableMic: () => {},
    enableCam: () => {},
    enableScreenShare: () => {},
    get isMicEnabled() {
      return false;
    },
    get isCamEnabled() {
      return false;
    },
    get isSharingScreen() {
      return false;
    },
    tracks: () => ({ local: {} }),
    get supportsScreenShare() {
      return false;
    },
    /** Inject mic audio (s16le PCM) as if it came from the microphone. */
    injectUserAudio(data: ArrayBuffer) {
      userAudioCallback?.(data);
    },
  };
}

/**
 * A `PipecatClient` over a `WebSocketTransport`, ready for Node (call the shims first).
 * `beforeClient` sees the transport before the client initializes it (e.g. to tap its messages).
 */
export function createNodePipecatClient(
  options: {
    callbacks?: PipecatClientOptions['callbacks'];
    beforeClient?: (transport: WebSocketTransport) => void;
  } = {},
) {
  const mediaManager = createNodeMediaManager();
  const transport = new WebSocketTransport({
    mediaManager: mediaManager as unknown as NonNullable<
      ConstructorParameters<typeof WebSocketTransport>[0]
    >['mediaManager'],
  });
  options.beforeClient?.(transport);
  const client = new PipecatClient({
    transport,
    enableMic: false,
    enableCam: false,
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
  });
  return { client, transport, mediaManager };
}

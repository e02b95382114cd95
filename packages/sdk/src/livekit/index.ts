/**
 * `@scenaro/sdk/livekit`: an `RpcTransport` and the voice surface over a livekit-client `Room`
 * (livekit-client is an optional peer dependency; nothing here imports it at run time).
 */
export * from './livekit-transport.js';
export * from './livekit-voice.js';

/**
 * `@scenaro/sdk/livekit`: an `RpcTransport` over a livekit-client `Room`
 * (livekit-client is an optional peer dependency; nothing here imports it at run time).
 */
export * from './livekit-transport.js';

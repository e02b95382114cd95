/**
 * `@scenaro/sdk/rtvi`: an `RpcTransport` and the voice surface over an RTVI connection made with
 * `@pipecat-ai/client-js` (an optional peer dependency; nothing here imports it at run time).
 * Wire messages: `RTVI_RPC_MESSAGES` in `@scenaro/sdk/protocol`.
 */
export * from './rtvi-transport.js';
export * from './rtvi-message-tap.js';
export * from './rtvi-voice.js';

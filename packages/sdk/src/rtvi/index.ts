/**
 * `@scenaro/sdk/rtvi`: an `RpcTransport` over an RTVI connection made with
 * `@pipecat-ai/client-js` (an optional peer dependency; nothing here imports it
 * at run time). Wire messages: `RTVI_RPC_MESSAGES` in `@scenaro/sdk/protocol`.
 */
export * from './rtvi-transport.js';

/**
 * `@scenaro/sdk/pipecat-node`: the real `@pipecat-ai/client-js` in Node, for tests and
 * benchmarks that drive a bot server as a browser would (Node only; needs the optional peers
 * `@pipecat-ai/client-js`, `@pipecat-ai/websocket-transport` and `ws`).
 *
 * - {@link connectPipecatClient} / {@link createPipecatNodeClient}: a client with the shims it
 *   needs, a microphone fed from PCM, a speaker recording the bot audio, and every RTVI message
 *   and callback with its arrival time;
 * - {@link installPipecatNodeShims}: the browser globals client-js reads.
 */
export * from './client.js';
export * from './events.js';
export * from './media.js';
export * from './mic.js';
export * from './speaker.js';

/**
 * `@scenaro/agent/testing`: what tests and benchmarks drive a bot server with.
 *
 * - {@link RtviClient}: the RTVI WebSocket client (the same one the evaluation bridge uses),
 *   with recording, `waitFor` and raw senders for protocol tests;
 * - {@link connectPipecatClient}: the real `@pipecat-ai/client-js` in Node, with the shims it
 *   needs (optional peer dependencies `@pipecat-ai/client-js` and
 *   `@pipecat-ai/websocket-transport`), a microphone fed from PCM, a speaker recording the bot
 *   audio and every RTVI message and callback with its arrival time (re-exported from
 *   `@scenaro/sdk/pipecat-node`);
 * - {@link startOpenAITestServer}: a scripted local OpenAI-compatible chat-completions server;
 * - {@link startOpenAIAudioTestServer}: a local OpenAI-compatible speech and transcription server;
 * - {@link echoModel} / {@link echoConversation}: a scripted policy that repeats what it heard;
 * - {@link SPOKEN_USER_TURNS}: tau2-style user turns to speak to a voice bot;
 * - {@link pocketsphinxMissing}, {@link speak}: whether a voice test can hear, and what it says;
 * - {@link upgradeStatus}, {@link httpJson}, {@link pollUntil}, {@link tcpSocketOf}: small probes;
 * - {@link scrapeMetrics}, {@link metricValue}: a server's Prometheus metrics.
 *
 * Node only.
 */
export * from '../client/rtvi-client.js';
export * from './echo-policy.js';
export * from './http-probes.js';
export * from './openai-audio-test-server.js';
export * from './openai-test-server/types.js';
export { OpenAITestServer, startOpenAITestServer } from './openai-test-server/server.js';
export * from '@scenaro/sdk/pipecat-node';
export * from './poll.js';
export * from './spoken-user-turns.js';
export * from './voice-checks.js';
export * from './prometheus.js';

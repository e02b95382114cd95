/**
 * `@scenaro/agent`: the Node bot server, its control plane, conversations (the model seam, the
 * scripted and OpenAI-compatible policies), frontend tool RPC and the RTVI client.
 *
 * The rest is in subpaths: `@scenaro/agent/scenario` (registries, state, tool execution, db
 * hashing), `@scenaro/agent/voice` (audio, speech engines, turn-taking),
 * `@scenaro/agent/voice-engines` (the engine registry alone), `@scenaro/agent/python`,
 * `@scenaro/agent/db` and `@scenaro/agent/testing`.
 */
export * from './conversation/context.js';
export * from './conversation/hook.js';
export * from './conversation/sanitize.js';
export * from './control/handlers.js';
export * from './control/router.js';
export * from './control/session-control.js';
export * from './server/auth.js';
export * from './server/bot-server.js';
export * from './server/logger.js';
export * from './server/session.js';
export * from './server/transport.js';
export * from './server/transports/websocket.js';
export * from './conversation/model.js';
export * from './conversation/engine.js';
export * from './conversation/scripted-plan.js';
export * from './conversation/scripted-policies.js';
export { createListeningAgentModel } from './conversation/listening-agent.js';
export { createListeningUserModel } from './conversation/listening-user.js';
export * from './conversation/stop-tokens.js';
export * from './conversation/openai-model.js';
export * from './rpc/index.js';
export * from './server/rtvi-rpc-transport.js';
export * from './client/rtvi-client.js';

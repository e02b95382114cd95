/**
 * `@scenaro/agent`: the Node bot server, its control plane, and the scenario
 * machinery (registries, state, tool execution, db loading and hashing).
 */
export * from './scenario/types.js';
export * from './scenario/registry.js';
export * from './scenario/delta-path.js';
export * from './scenario/tool-executor.js';
export * from './scenario/initialize.js';
export * from './scenario/db-hash.js';
export * from './scenario/db-revision.js';
export * from './scenario/db-loader.js';
export * from './conversation/context.js';
export * from './conversation/hook.js';
export * from './conversation/python-repr.js';
export * from './conversation/sanitize.js';
export * from './control/handlers.js';
export * from './control/router.js';
export * from './control/session-control.js';
export * from './server/auth.js';
export * from './server/bot-server.js';
export * from './server/logger.js';
export * from './server/session.js';
export * from './scenario/control-tools.js';
export * from './conversation/model.js';
export * from './conversation/engine.js';
export * from './conversation/scripted-plan.js';
export * from './conversation/scripted-policies.js';
export * from './conversation/stop-tokens.js';
export * from './conversation/openai-model.js';
export * from './rpc/index.js';
export * from './server/rtvi-rpc-transport.js';
export * from './client/rtvi-client.js';

/**
 * `@scenaro/agent`: the Node bot server, its control plane, and the scenario
 * machinery (registries, state, tool execution, db loading and hashing).
 */
export * from './scenario/types.js';
export * from './scenario/registry.js';
export * from './scenario/delta-path.js';
export * from './scenario/tool-executor.js';
export { applyBindHooks } from './scenario/bind-hooks.js';
export * from './scenario/initialize.js';
export {
  canonicalJson,
  HASH_EXCLUDED_KEYS,
  normalizeForComparison,
  ORDER_INDEPENDENT_FIELDS,
  writeCanonicalJson,
} from './scenario/canonical-json.js';
export * from './scenario/db-hash.js';
export * from './scenario/db-diff.js';
export * from './scenario/db-revision.js';
export * from './scenario/db-loader.js';
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
export * from './scenario/control-tools.js';
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

// The Python semantics the hashes and the control plane depend on (all of them: `@scenaro/agent/python`).
export {
  compareCodePoints,
  DbHashDepthError,
  DEFAULT_MAX_DEPTH,
  PyFloat,
  pyFloat,
  pythonFloatRepr,
  pythonJsonDumps,
  pythonRepr,
  pythonTypeName,
} from './python/index.js';
export type { DbHashOptions, PythonJsonDumpsOptions } from './python/index.js';

// voice: audio utilities, sample clock, VAD, TTS and STT engines
export * from './voice/audio/pcm.js';
export * from './voice/audio/wav.js';
export * from './voice/audio/chunker.js';
export * from './voice/audio/resampler.js';
export * from './voice/audio/clock.js';
export * from './voice/audio/audio-history.js';
export * from './voice/metrics/wer.js';
export * from './voice/spoken/index.js';
export * from './voice/audio/vad.js';
export * from './voice/audio/fvad-vad.js';
export * from './voice/engine-errors.js';
export * from './voice/tts.js';
export * from './voice/engines/flite/flite-tts.js';
export * from './voice/engines/openai/openai-audio.js';
export * from './voice/engines/openai/openai-tts.js';
export * from './voice/stt.js';
export * from './voice/engines/none/none-stt.js';
export * from './voice/engines/oracle/oracle-stt.js';
export * from './voice/engines/oracle/hearing.js';
export * from './voice/engines/pocketsphinx/pocketsphinx-stt.js';
export * from './voice/engines/openai/openai-stt.js';
export * from './voice/engines/espeak-ng/espeak-ng-tts.js';
export * from './voice/voice-options.js';
export * from './voice/turn-taking.js';
// the speech-engine registry (also `@scenaro/agent/voice-engines`)
export * from './voice/engines/index.js';

/**
 * `@scenaro/sdk`: frontend tool execution over transport RPC.
 *
 * - `ScenaroSession`: registers the config's tools on a transport and always
 *   answers the agent with an `RpcToolResponse`;
 * - `RpcTransport`, `RpcError` and the in-memory `LoopbackNetwork`;
 * - collections, the UI activity tracker, composer dictation, feature state;
 * - the voice surface: `Voice` (state, typed events, transcript log), the microphone helpers
 *   and `DictationController`.
 *
 * Transports for LiveKit and RTVI live at `@scenaro/sdk/livekit` and
 * `@scenaro/sdk/rtvi`, React bindings at `@scenaro/sdk/react`, the wire contract
 * at `@scenaro/sdk/protocol`.
 */
export * from './rpc/index.js';
export * from './session/index.js';
export * from './voice/index.js';

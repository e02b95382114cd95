/**
 * Agent-side frontend tool RPC, transport-agnostic.
 */
export * from './frontend-tool-caller.js';

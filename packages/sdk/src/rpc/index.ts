/**
 * The transport layer: the `RpcTransport` interface, `RpcError`, the loopback
 * network, and the helpers transports share.
 */
export * from './transport.js';
export * from './errors.js';
export * from './loopback.js';
export * from './logger.js';
export * from './timers.js';
export { byteLength, truncateBytes } from './utf8.js';
export { abortError, isAbortError } from './abort.js';

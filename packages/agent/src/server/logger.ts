/**
 * Structured logging (pino). Every session logs through a child carrying its
 * session id; requests add their request id. The `Logger` shape and
 * `silentLogger` are the SDK's, re-exported here because the server's options
 * take them.
 */
import type { Logger } from '@scenaro/sdk';
import { pino } from 'pino';
import { LogDestination } from './log-destination.js';

export type { Logger } from '@scenaro/sdk';
export { silentLogger } from '@scenaro/sdk';

/**
 * A pino logger writing JSON lines to stderr at `level` (`silent` turns it off), through a
 * {@link LogDestination}: asynchronous and bounded, so logging never blocks serving or shutdown.
 */
export function createLogger(level: string = process.env['SCENARO_LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ level, base: { service: 'scenaro-agent' } }, new LogDestination());
}

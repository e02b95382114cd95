/**
 * Structured logging (pino). Every session logs through a child carrying its
 * session id; requests add their request id.
 */
import { pino } from 'pino';
import { LogDestination } from './log-destination.js';

/** The logging surface the server uses. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}

/**
 * A pino logger writing JSON lines to stderr at `level` (`silent` turns it off), through a
 * {@link LogDestination}: asynchronous and bounded, so logging never blocks serving or shutdown.
 */
export function createLogger(level: string = process.env['SCENARO_LOG_LEVEL'] ?? 'info'): Logger {
  return pino({ level, base: { service: 'scenaro-agent' } }, new LogDestination());
}

/** A logger that discards everything. */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * The injectable logger every SDK component writes to. Messages are short and
 * constant; the details (`requestId`, method, tool, ...) travel in `fields`.
 */

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/** A minimal structured logger (pino, console and most loggers fit with a thin wrapper). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

function noop(): void {}

/** Discards everything. */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/** Writes warnings and errors to `console`; drops debug and info. */
export const consoleLogger: Logger = {
  debug: noop,
  info: noop,
  warn: (message, fields) => console.warn(`[scenaro] ${message}`, fields ?? {}),
  error: (message, fields) => console.error(`[scenaro] ${message}`, fields ?? {}),
};

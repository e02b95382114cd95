/**
 * The injectable logger every Scenaro component writes to, in pino's shape:
 * structured fields first, then a short constant message. A pino logger fits
 * as it is; the details (`requestId`, method, tool, ...) travel in the fields.
 */

/** Structured fields attached to a log line. */
export type LogFields = Record<string, unknown>;

/** A minimal structured logger: the subset of pino's API Scenaro calls. */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  /** A logger that adds `bindings` to every line. */
  child(bindings: LogFields): Logger;
}

function noop(): void {}

/** Discards everything. */
export const silentLogger: Logger = {
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};

function consoleWith(bindings: LogFields): Logger {
  return {
    debug: noop,
    info: noop,
    warn: (fields, message) =>
      console.warn(`[scenaro] ${message ?? ''}`, { ...bindings, ...fields }),
    error: (fields, message) =>
      console.error(`[scenaro] ${message ?? ''}`, { ...bindings, ...fields }),
    child: (more) => consoleWith({ ...bindings, ...more }),
  };
}

/** Writes warnings and errors to `console`; drops debug and info. */
export const consoleLogger: Logger = consoleWith({});

/** What identifies one tool call in its log lines. */
export interface ToolCallLogFields {
  requestId: string;
  tool: string;
  method: string;
}

/** Logs, at debug level, the answer one tool call got and how long it took. */
export function logToolAnswer(
  logger: Logger,
  message: string,
  call: ToolCallLogFields,
  code: string,
  durationMs: number,
): void {
  logger.debug({ ...call, code, durationMs }, message);
}

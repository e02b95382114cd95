/**
 * A logger that records every line, for assertions in tests.
 */
import type { LogFields, Logger } from '../rpc/logger.js';

/** One recorded log line. */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: LogFields | undefined;
}

/** A {@link Logger} plus the lines it received. */
export interface RecordingLogger extends Logger {
  readonly lines: LogLine[];
  messages(level?: LogLine['level']): string[];
}

/** Create a logger that keeps every line in memory. */
export function createRecordingLogger(): RecordingLogger {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (fields: object, message?: string): void => {
      lines.push({ level, message: message ?? '', fields: fields as LogFields });
    };
  const logger: RecordingLogger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
    messages: (level) => lines.filter((l) => !level || l.level === level).map((l) => l.message),
  };
  return logger;
}

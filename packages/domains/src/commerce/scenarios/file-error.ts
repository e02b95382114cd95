/**
 * The errors of scenario files: each mistake with its JSON path and, where it can be found, its
 * line and column.
 *
 * @module
 */
import { formatJsonPath, locateJsonPath } from './json-position.js';
import type { JsonPathSegment } from './json-position.js';

/** One mistake in a scenario file. */
export interface ScenarioFileIssue {
  /** JSON path of the offending value, e.g. `$.gold_actions[2].name` (`$` for the whole file). */
  path: string;
  message: string;
  /** 1-based position of the offending value (or key), when it could be located. */
  line?: number;
  column?: number;
}

/** A scenario file that cannot be loaded. The message lists every issue with its position. */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';

  constructor(
    /** The file, as given to the loader. */
    readonly file: string,
    readonly issues: readonly ScenarioFileIssue[],
  ) {
    super(
      issues
        .map(
          (i) =>
            `${file}${i.line === undefined ? '' : `:${i.line}:${i.column ?? 1}`}: ${i.path}: ${i.message}`,
        )
        .join('\n'),
    );
  }
}

/** Several files of a directory failed to load; `errors` has one entry per file. */
export class ScenarioDirError extends Error {
  override readonly name = 'ScenarioDirError';

  constructor(
    readonly dir: string,
    readonly errors: readonly ScenarioFileError[],
  ) {
    super(
      `${errors.length} scenario file${errors.length === 1 ? '' : 's'} in ${dir} failed to load:\n` +
        errors.map((e) => e.message).join('\n'),
    );
  }
}

/** A mistake found in a parsed scenario file, before it is placed in the text. */
export interface RawIssue {
  path: JsonPathSegment[];
  message: string;
  /** Point at the key rather than the value. */
  atKey?: boolean;
}

/** The issues with their JSON paths formatted and their positions in `text`. */
export function locateIssues(text: string, issues: readonly RawIssue[]): ScenarioFileIssue[] {
  return issues.map((issue) => {
    const where = locateJsonPath(text, issue.path, issue.atKey ?? false);
    return {
      path: formatJsonPath(issue.path),
      message: issue.message,
      ...(where ? { line: where.line, column: where.column } : {}),
    };
  });
}

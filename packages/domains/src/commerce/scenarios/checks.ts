/**
 * The checks of a scenario file against its format (the zod schema) and against the commerce
 * domain: tool names and arguments, initialization functions, expected-state paths, signals.
 *
 * @module
 */
import { parseDeltaPath, validateToolArgs } from '@scenaro/agent/scenario';
import { errorMessage } from '@scenaro/sdk/util';
import type { z } from 'zod';
import { COMMERCE_TOOLS, commerceTool } from '../domain.js';
import { COMMERCE_INIT_ARGUMENT_SCHEMAS } from '../init-functions.js';
import { suggestion } from '../model/did-you-mean.js';
import type { RawIssue } from './file-error.js';
import type { JsonPathSegment } from './json-position.js';
import { SCENARIO_FILE_KEYS } from './schema.js';
import type { CommerceScenarioFile } from './schema.js';

/** `gold_actions[]`-style key of an object path, for {@link SCENARIO_FILE_KEYS}. */
function shapeKey(at: readonly PropertyKey[]): string {
  return at
    .map((s) => (typeof s === 'number' ? '[]' : `.${String(s)}`))
    .join('')
    .replace(/^\./, '');
}

/** The field names allowed at an object path of the file format. */
export function fileKeys(at: readonly PropertyKey[]): readonly string[] {
  const key = shapeKey(at);
  return Object.prototype.hasOwnProperty.call(SCENARIO_FILE_KEYS, key)
    ? (SCENARIO_FILE_KEYS[key] ?? [])
    : [];
}

/** Zod's issues as file issues; unknown keys get a "did you mean" and the list of fields. */
export function zodIssues(
  error: z.ZodError,
  keysOf: (at: readonly PropertyKey[]) => readonly string[],
): RawIssue[] {
  const issues: RawIssue[] = [];
  for (const issue of error.issues) {
    const at = issue.path.map((s) => (typeof s === 'number' ? s : String(s)));
    if (issue.code === 'unrecognized_keys') {
      const known = keysOf(issue.path);
      for (const key of issue.keys) {
        issues.push({
          path: [...at, key],
          message: `unknown field '${key}'${suggestion(key, known)}${known.length > 0 ? ` (fields: ${known.join(', ')})` : ''}`,
          atKey: true,
        });
      }
    } else {
      issues.push({ path: at, message: issue.message });
    }
  }
  return issues;
}

const TOOL_NAMES = COMMERCE_TOOLS.map((t) => t.name);
const INIT_NAMES = Object.keys(COMMERCE_INIT_ARGUMENT_SCHEMAS);

function isInitName(name: string): name is keyof typeof COMMERCE_INIT_ARGUMENT_SCHEMAS {
  return Object.prototype.hasOwnProperty.call(COMMERCE_INIT_ARGUMENT_SCHEMAS, name);
}

/** Checks that need the domain: names, arguments, paths. */
export function domainIssues(file: CommerceScenarioFile): RawIssue[] {
  const issues: RawIssue[] = [];
  file.initialization.user.forEach((_, i) => {
    issues.push({
      path: ['initialization', 'user', i],
      message:
        'the commerce shopper has no database; initialization actions belong on the agent side',
    });
  });
  file.initialization.agent.forEach((action, i) => {
    const at: JsonPathSegment[] = ['initialization', 'agent', i];
    if (!isInitName(action.func_name)) {
      issues.push({
        path: [...at, 'func_name'],
        message: `unknown initialization function '${action.func_name}'${suggestion(action.func_name, INIT_NAMES)} (available: ${INIT_NAMES.join(', ')})`,
      });
      return;
    }
    const schema = COMMERCE_INIT_ARGUMENT_SCHEMAS[action.func_name];
    const parsed = schema.safeParse(action.arguments);
    if (!parsed.success) {
      const keysOf = (p: readonly PropertyKey[]): readonly string[] =>
        p.length === 0 ? Object.keys(schema.shape) : [];
      for (const issue of zodIssues(parsed.error, keysOf)) {
        issues.push({ ...issue, path: [...at, 'arguments', ...issue.path] });
      }
    }
  });
  file.gold_actions.forEach((action, i) => {
    const at: JsonPathSegment[] = ['gold_actions', i];
    if (action.side !== 'agent') {
      issues.push({
        path: [...at, 'side'],
        message: 'the commerce shopper has no tools; gold actions run on the agent side',
      });
    }
    const tool = commerceTool(action.name);
    if (!tool) {
      issues.push({
        path: [...at, 'name'],
        message: `unknown tool '${action.name}'${suggestion(action.name, TOOL_NAMES)} (tools: ${TOOL_NAMES.join(', ')})`,
      });
      return;
    }
    const checked = validateToolArgs(tool, action.arguments);
    if (!checked.ok) {
      const argument = /^(?:missing required argument|unexpected argument|argument) '([^'.]+)/.exec(
        checked.error,
      )?.[1];
      const located =
        argument !== undefined && Object.prototype.hasOwnProperty.call(action.arguments, argument);
      issues.push({
        path: located ? [...at, 'arguments', argument] : [...at, 'arguments'],
        message: `invalid arguments for ${tool.name}: ${checked.error}`,
      });
    }
  });
  for (const key of Object.keys(file.expected_state ?? {})) {
    try {
      parseDeltaPath(key);
    } catch (err) {
      issues.push({
        path: ['expected_state', key],
        message: `bad path: ${errorMessage(err)}`,
        atKey: true,
      });
    }
  }
  if (file.success_signals.includes('nl_assertion') && file.nl_assertions.length === 0) {
    issues.push({
      path: ['success_signals'],
      message: "'nl_assertion' is listed but nl_assertions is empty",
    });
  }
  if (file.success_signals.includes('db_state_assertion')) {
    issues.push({
      path: ['success_signals'],
      message:
        "'db_state_assertion' is not supported by commerce scenario files; use expected_state and 'db_state_match'",
    });
  }
  return issues;
}

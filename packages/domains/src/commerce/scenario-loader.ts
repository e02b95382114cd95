/**
 * Loads commerce scenario files (`SCENARIOS.md`) into {@link Scenario}s.
 *
 * Every mistake is reported with the file, the JSON path of the offending value
 * (`$.gold_actions[2].arguments`) and its line and column; JSON syntax errors with the line and
 * column of the error. All mistakes of a file are reported at once.
 *
 * @module
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { FORBIDDEN_KEYS, parseDeltaPath, validateToolArgs } from '@scenaro/agent';
import type { JsonObject } from '@scenaro/agent';
import type { z } from 'zod';
import type { Scenario, SidedActionRecord, SidedInitializationAction } from '../scenario.js';
import { COMMERCE_DATA_ROOT, COMMERCE_DB_PATH } from './data-root.js';
import { COMMERCE_DOMAIN } from './define-tool.js';
import { COMMERCE_TOOLS, commerceTool } from './domain.js';
import { COMMERCE_INIT_ARGUMENT_SCHEMAS } from './init-functions.js';
import { formatJsonPath, locateJsonPath } from './json-position.js';
import type { JsonPathSegment } from './json-position.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { buildAgentPrompt, buildUserInstructions, buildUserPrompt } from './prompts.js';
import { SCENARIO_FILE_KEYS, scenarioFileSchema } from './scenario-schema.js';
import type { CommerceScenarioFile } from './scenario-schema.js';

/** Largest scenario file accepted, in bytes. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

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

/** Options of the loaders. */
export interface ScenarioLoadOptions {
  /** The agent policy text (the shipped `policy.md` when omitted: {@link loadCommercePolicy}). */
  policy?: string;
}

/** The shipped shop-assistant policy, read once. */
let shippedPolicy: Promise<string> | undefined;

/** Read `commerce/policy.md` under `dataRoot` (the shipped {@link COMMERCE_DATA_ROOT} by default). */
export async function loadCommercePolicy(dataRoot?: string): Promise<string> {
  if (dataRoot !== undefined && path.resolve(dataRoot) !== COMMERCE_DATA_ROOT) {
    return readFile(path.join(dataRoot, 'commerce', 'policy.md'), 'utf8');
  }
  shippedPolicy ??= readFile(path.join(COMMERCE_DATA_ROOT, 'commerce', 'policy.md'), 'utf8');
  return shippedPolicy;
}

// ---------------------------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------------------------

interface RawIssue {
  path: JsonPathSegment[];
  message: string;
  /** Point at the key rather than the value. */
  atKey?: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Deepest nesting a scenario file may use (objects and arrays); real files need about 6. */
export const MAX_SCENARIO_NESTING = 64;

interface WalkNode {
  value: unknown;
  depth: number;
  parent: WalkNode | undefined;
  key: JsonPathSegment | undefined;
}

function pathOf(node: WalkNode | undefined): JsonPathSegment[] {
  const out: JsonPathSegment[] = [];
  for (let n = node; n && n.key !== undefined; n = n.parent) out.push(n.key);
  return out.reverse();
}

/**
 * Every `__proto__` / `constructor` / `prototype` key in the parsed value, by path, and the first
 * place the nesting exceeds {@link MAX_SCENARIO_NESTING} (checked before anything recurses).
 */
function structureIssues(root: unknown): RawIssue[] {
  const issues: RawIssue[] = [];
  const stack: WalkNode[] = [{ value: root, depth: 0, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const node = stack.pop() as WalkNode;
    const { value, depth } = node;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_SCENARIO_NESTING) {
      issues.push({
        path: pathOf(node),
        message: `nested more than ${MAX_SCENARIO_NESTING} levels deep`,
      });
      break;
    }
    if (Array.isArray(value)) {
      value.forEach((v, i) => stack.push({ value: v, depth: depth + 1, parent: node, key: i }));
      continue;
    }
    for (const key of Object.keys(value)) {
      const child: WalkNode = {
        value: (value as Record<string, unknown>)[key],
        depth: depth + 1,
        parent: node,
        key,
      };
      if (FORBIDDEN_KEYS.has(key)) {
        issues.push({
          path: pathOf(child),
          message: `the key '${key}' is not allowed`,
          atKey: true,
        });
      } else {
        stack.push(child);
      }
    }
  }
  return issues.sort((a, b) => formatJsonPath(a.path).localeCompare(formatJsonPath(b.path)));
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(
        above + 1,
        (row[j - 1] as number) + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** `; did you mean 'x'?` when a known name is close to `name`. */
function suggestion(name: string, known: readonly string[]): string {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (
      distance <= Math.max(2, Math.floor(candidate.length / 4)) &&
      (!best || distance < best.distance)
    ) {
      best = { name: candidate, distance };
    }
  }
  return best ? `; did you mean '${best.name}'?` : '';
}

/** `gold_actions[]`-style key of an object path, for {@link SCENARIO_FILE_KEYS}. */
function shapeKey(at: readonly PropertyKey[]): string {
  return at
    .map((s) => (typeof s === 'number' ? '[]' : `.${String(s)}`))
    .join('')
    .replace(/^\./, '');
}

function fileKeys(at: readonly PropertyKey[]): readonly string[] {
  const key = shapeKey(at);
  return Object.prototype.hasOwnProperty.call(SCENARIO_FILE_KEYS, key)
    ? (SCENARIO_FILE_KEYS[key] ?? [])
    : [];
}

function zodIssues(
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
function domainIssues(file: CommerceScenarioFile): RawIssue[] {
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
        message: `bad path: ${err instanceof Error ? err.message : String(err)}`,
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

function located(text: string, issues: readonly RawIssue[]): ScenarioFileIssue[] {
  return issues.map((issue) => {
    const where = locateJsonPath(text, issue.path, issue.atKey ?? false);
    return {
      path: formatJsonPath(issue.path),
      message: issue.message,
      ...(where ? { line: where.line, column: where.column } : {}),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Building the Scenario
// ---------------------------------------------------------------------------------------------

/** The scenario name a file gets: `commerce__<name>`. */
export function commerceScenarioName(fileName: string): string {
  return `${COMMERCE_DOMAIN}__${fileName}`;
}

/** Build the {@link Scenario} of a checked file. */
export function scenarioFromFile(
  file: CommerceScenarioFile,
  source: string,
  policy: string,
): Scenario {
  const toolKwargs: Record<string, JsonObject> = {};
  for (const tool of COMMERCE_TOOLS) toolKwargs[tool.name] = {};
  const initializationActions: SidedInitializationAction[] = file.initialization.agent.map((a) => ({
    func_name: a.func_name,
    arguments: structuredClone(a.arguments),
    side: 'agent',
  }));
  const referenceActions: SidedActionRecord[] = file.gold_actions.map((a) => ({
    action_type: a.name,
    name: a.name,
    arguments: structuredClone(a.arguments),
    side: a.side,
  }));
  const scenario: Scenario = {
    name: commerceScenarioName(file.name),
    domain: COMMERCE_DOMAIN,
    source,
    description: file.description,
    maxDurationSeconds: file.max_duration,
    successSignals: [...file.success_signals],
    agent: {
      prompt: buildAgentPrompt(policy, file.agent.notes),
      tools: toolKwargs,
      toolDomain: COMMERCE_DOMAIN,
      sharedStateInit: { db_path: COMMERCE_DB_PATH },
    },
    user: {
      prompt: buildUserPrompt(file.user),
      tools: {},
      toolDomain: COMMERCE_DOMAIN,
      sharedStateInit: {},
    },
    userInstructions: buildUserInstructions(file.user),
    initializationActions,
    referenceActions,
    dbStateAssertions: [],
    nlAssertions: [...file.nl_assertions],
  };
  if (file.expected_db_hash !== undefined) scenario.expectedDbHash = file.expected_db_hash;
  if (file.expected_state !== undefined)
    scenario.expectedState = { agent: structuredClone(file.expected_state) };
  return scenario;
}

// ---------------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------------

/**
 * Check scenario file text and return the parsed file.
 * @throws ScenarioFileError naming `file`, the JSON path and the line/column of each mistake.
 */
export function parseScenarioText(text: string, file: string): CommerceScenarioFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch (err) {
    const found = findJsonSyntaxError(body);
    // Text nested too deeply for the position-finding parser keeps V8's message, unplaced.
    const problem = found?.tooDeep ? undefined : found;
    throw new ScenarioFileError(file, [
      {
        path: '$',
        message: `invalid JSON: ${problem?.message ?? (err instanceof Error ? err.message : String(err))}`,
        ...(problem ? { line: problem.line, column: problem.column } : {}),
      },
    ]);
  }
  const structure = structureIssues(raw);
  if (structure.length > 0) throw new ScenarioFileError(file, located(body, structure));
  if (!isObject(raw)) {
    throw new ScenarioFileError(file, [
      { path: '$', message: 'a scenario file must hold a JSON object', line: 1, column: 1 },
    ]);
  }
  const parsed = scenarioFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new ScenarioFileError(file, located(body, zodIssues(parsed.error, fileKeys)));
  const issues = domainIssues(parsed.data);
  if (issues.length > 0) throw new ScenarioFileError(file, located(body, issues));
  return parsed.data;
}

/**
 * Load one scenario file.
 * @throws ScenarioFileError for unreadable, oversized or invalid files.
 */
export async function loadScenarioFile(
  file: string,
  options: ScenarioLoadOptions = {},
): Promise<Scenario> {
  let text: string;
  try {
    const info = await stat(file);
    if (info.size > MAX_SCENARIO_FILE_BYTES) {
      throw new ScenarioFileError(file, [
        {
          path: '$',
          message: `file is ${info.size} bytes; scenario files are limited to ${MAX_SCENARIO_FILE_BYTES}`,
        },
      ]);
    }
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof ScenarioFileError) throw err;
    throw new ScenarioFileError(file, [
      {
        path: '$',
        message: `cannot read file: ${err instanceof Error ? err.message : String(err)}`,
      },
    ]);
  }
  const parsed = parseScenarioText(text, file);
  const policy = options.policy ?? (await loadCommercePolicy());
  return scenarioFromFile(parsed, path.resolve(file), policy);
}

/**
 * Load every `*.json` file of `dir` (not recursive), sorted by file name.
 * @throws ScenarioDirError listing every file that failed, including duplicate scenario names.
 */
export async function loadScenarioDir(
  dir: string,
  options: ScenarioLoadOptions = {},
): Promise<Scenario[]> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  const policy = options.policy ?? (await loadCommercePolicy());
  const scenarios: Scenario[] = [];
  const errors: ScenarioFileError[] = [];
  const seen = new Map<string, string>();
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const scenario = await loadScenarioFile(file, { policy });
      const first = seen.get(scenario.name);
      if (first !== undefined) {
        const where = locateJsonPath(await readFile(file, 'utf8'), ['name']);
        throw new ScenarioFileError(file, [
          {
            path: '$.name',
            message: `scenario name '${scenario.name}' is already used by ${first}`,
            ...(where ? { line: where.line, column: where.column } : {}),
          },
        ]);
      }
      seen.set(scenario.name, file);
      scenarios.push(scenario);
    } catch (err) {
      if (err instanceof ScenarioFileError) errors.push(err);
      else throw err;
    }
  }
  if (errors.length > 0) throw new ScenarioDirError(dir, errors);
  return scenarios;
}

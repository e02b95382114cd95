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
import { errorMessage, isJsonObject } from '@scenaro/sdk/util';
import type { Scenario } from '../../scenario.js';
import { COMMERCE_DATA_ROOT } from '../data-root.js';
import { domainIssues, fileKeys, zodIssues } from './checks.js';
import { locateIssues, ScenarioDirError, ScenarioFileError } from './file-error.js';
import { scenarioFromFile } from './from-file.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { scenarioFileSchema } from './schema.js';
import type { CommerceScenarioFile } from './schema.js';
import { structureIssues } from './structure.js';

/** Largest scenario file accepted, in bytes. */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

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
        message: `invalid JSON: ${problem?.message ?? errorMessage(err)}`,
        ...(problem ? { line: problem.line, column: problem.column } : {}),
      },
    ]);
  }
  const structure = structureIssues(raw);
  if (structure.length > 0) throw new ScenarioFileError(file, locateIssues(body, structure));
  if (!isJsonObject(raw)) {
    throw new ScenarioFileError(file, [
      { path: '$', message: 'a scenario file must hold a JSON object', line: 1, column: 1 },
    ]);
  }
  const parsed = scenarioFileSchema.safeParse(raw);
  if (!parsed.success)
    throw new ScenarioFileError(file, locateIssues(body, zodIssues(parsed.error, fileKeys)));
  const issues = domainIssues(parsed.data);
  if (issues.length > 0) throw new ScenarioFileError(file, locateIssues(body, issues));
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
        message: `cannot read file: ${errorMessage(err)}`,
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
        const message = `scenario name '${scenario.name}' is already used by ${first}`;
        const text = await readFile(file, 'utf8');
        throw new ScenarioFileError(file, locateIssues(text, [{ path: ['name'], message }]));
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

/**
 * The NeMo suites as they sit in a data root: `<suite>/scenarios.json`, keyed by scenario name,
 * with the prompts and tools JSON NeMo sends, the scoring options, and the derived gold calls
 * (`replay.actions`) the scripted agent carries out.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { JsonObject } from '@scenaro/agent/scenario';

/** One derived gold call, with what NeMo's tool delivered, recorded and pushed. */
export interface NemoReplayAction {
  action_type: string;
  name: string;
  arguments: JsonObject;
  result: unknown;
  side: 'agent' | 'user';
  action_record: JsonObject | null;
  server_messages: JsonObject[];
}

/** A structured persona, task, actions and resources (what the prompts are rendered from). */
export interface NemoSideDescription {
  persona?: { role?: string | null; name?: string | null; background?: string | null } | null;
  task?: { goal?: string | null; background?: string | null } | null;
  actions?: { instructions?: string[] | null; guidelines?: string[] | null } | null;
  resources?: { information?: string[] | null } | null;
}

/** One scenario of a suite's `scenarios.json` (the fields the port uses). */
export interface NemoScenarioEntry {
  suite: string;
  domain: string;
  description?: string | null;
  max_duration: number;
  success_signals: string[];
  shared_state_init_agent: string | null;
  shared_state_init_user: string | null;
  reference_answer: unknown;
  expected_db_hash: string | null;
  expected_user_db_hash: string | null;
  nl_assertions: string[] | null;
  tool_domain: string;
  agent_tools: Record<string, JsonObject>;
  user_tools: Record<string, JsonObject>;
  agent_prompt: string;
  user_prompt: string;
  agent: NemoSideDescription;
  user: NemoSideDescription;
  scoring: {
    ignore_capitalization: boolean;
    ignore_punctuation: boolean;
    clean_text: boolean;
    disallow_extra_items: boolean;
  };
  /** eva only: the db sent inline (`shared_state_init = {"db": <this file>}`), from the data root. */
  agent_inline_db_file?: string;
  eva_id?: string;
  current_date?: string;
  replay: { actions: NemoReplayAction[]; final_responses?: unknown[] };
  /** `get_dict_hash` of the tools' shared state after the replay (customer_service, waitlist). */
  expected_state_hash?: string | null;
}

/** A suite's scenarios, by name, in file order. */
export async function readSuiteScenarios(
  dataRoot: string,
  suite: string,
): Promise<Record<string, NemoScenarioEntry>> {
  const file = path.join(dataRoot, suite, 'scenarios.json');
  return JSON.parse(await readFile(file, 'utf8')) as Record<string, NemoScenarioEntry>;
}

/** A JSON file of the data root (an eva db), parsed. */
export async function readDataJson(dataRoot: string, relative: string): Promise<JsonObject> {
  return JSON.parse(await readFile(path.join(dataRoot, relative), 'utf8')) as JsonObject;
}

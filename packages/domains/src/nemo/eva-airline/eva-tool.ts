/**
 * How every eva airline tool runs: validate the arguments with its parameter model (an invalid
 * call gets NeMo's error result), check that a db is loaded, then do its work on the db. Write
 * tools record their own action on success.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition, ToolKind } from '@scenaro/agent';
import { nemoTool } from '../common/nemo-tool.js';
import { validateParams } from './params.js';
import type { ParamField, ParamValues } from './params.js';
import { DB_NOT_INITIALIZED, evaDb } from './store.js';
import type { EvaDb, Rec } from './store.js';

/** A string property of a tool's schema. */
export const text = (description: string): JsonObject => ({ type: 'string', description });

/** What an eva tool is. */
export interface EvaToolSpec {
  /** The class name, which is also the name the model sees. */
  name: string;
  description: string;
  /** The schema the model sees: `properties` and `required`. */
  properties: Record<string, JsonObject>;
  required: string[];
  kind: Extract<ToolKind, 'read' | 'write'>;
  /** The parameter model the arguments are validated with. */
  fields: readonly ParamField[];
  /** The work, on validated values and a loaded db. */
  run(values: ParamValues, db: EvaDb, context: ToolContext): Rec;
}

/** An eva airline tool (registry domain `eva_airline`). */
export function evaTool(spec: EvaToolSpec): ToolDefinition {
  return nemoTool({
    name: spec.name,
    description: spec.description,
    parameters: { type: 'object', properties: spec.properties, required: spec.required },
    kind: spec.kind,
    ...(spec.kind === 'write' ? { recordsOwnActions: true } : {}),
    execute: (args: JsonObject, context: ToolContext) => {
      const checked = validateParams(spec.fields, args);
      if (!checked.ok) return checked.response;
      const db = evaDb(context);
      if (db === undefined) return DB_NOT_INITIALIZED;
      return spec.run(checked.values, db, context);
    },
  });
}

/** `values[name]` as a string (validated). */
export const str = (values: ParamValues, name: string): string => values[name] as string;
/** `values[name]` as a string or null (an optional field). */
export const optStr = (values: ParamValues, name: string): string | null =>
  (values[name] as string | null) ?? null;
/** `values[name]` as a number (validated). */
export const num = (values: ParamValues, name: string): number => values[name] as number;

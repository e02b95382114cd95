/**
 * The commerce scenario file format (JSON), as a zod schema. `SCENARIOS.md` in this folder
 * documents it for authors; the loader adds the checks that need the domain (tool names and
 * arguments, initialization functions, expected-state paths).
 *
 * @module
 */
import { z } from 'zod';
import { SUCCESS_SIGNALS } from '../../scenario.js';
import type { SuccessSignal } from '../../scenario.js';

/** Signals used when a file names none: the end-state hash and a clean exit. */
export const DEFAULT_SUCCESS_SIGNALS: readonly SuccessSignal[] = ['db_state_match', 'clean_exit'];

/** Default conversation limit, in seconds. */
export const DEFAULT_MAX_DURATION_SECONDS = 600;

const text = z.string().trim().min(1, 'must be a non-empty string');
const argumentsObject = z.record(z.string(), z.unknown());

/** One initialization action of a side. */
export const initializationActionSchema = z.strictObject({
  func_name: text,
  arguments: argumentsObject.default({}),
});

/** One gold action. */
export const goldActionSchema = z.strictObject({
  name: text,
  arguments: argumentsObject.default({}),
  side: z.enum(['agent', 'user']).default('agent'),
});

/** A whole scenario file. */
export const scenarioFileSchema = z.strictObject({
  /** Optional link to a JSON Schema, for editors; ignored. */
  $schema: z.string().optional(),
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,79}$/, 'must be 1-80 characters of a-z, 0-9, "_" and "-"'),
  description: text,
  user: z.strictObject({
    who: text,
    wants: text,
    knows: z.array(text).default([]),
  }),
  agent: z.strictObject({ notes: text.optional() }).default({}),
  initialization: z
    .strictObject({
      agent: z.array(initializationActionSchema).default([]),
      user: z.array(initializationActionSchema).default([]),
    })
    .default({ agent: [], user: [] }),
  gold_actions: z.array(goldActionSchema),
  expected_state: z.record(z.string(), z.unknown()).optional(),
  expected_db_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex digits (a sha256)')
    .optional(),
  success_signals: z
    .array(z.enum(SUCCESS_SIGNALS))
    .min(1)
    .default([...DEFAULT_SUCCESS_SIGNALS]),
  nl_assertions: z.array(text).default([]),
  max_duration: z.int().min(10).max(3600).default(DEFAULT_MAX_DURATION_SECONDS),
});

/** A parsed scenario file, defaults applied. */
export type CommerceScenarioFile = z.output<typeof scenarioFileSchema>;

/** Field names allowed in each object of the format, for "did you mean" hints. */
export const SCENARIO_FILE_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(scenarioFileSchema.shape),
  user: ['who', 'wants', 'knows'],
  agent: ['notes'],
  initialization: ['agent', 'user'],
  'initialization.agent[]': ['func_name', 'arguments'],
  'initialization.user[]': ['func_name', 'arguments'],
  'gold_actions[]': ['name', 'arguments', 'side'],
};

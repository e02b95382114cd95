/**
 * The eva airline tools' parameters and how every eva tool runs. Arguments are validated as
 * NeMo's pydantic models (lax mode) do it; an invalid call gets the error result NeMo builds from
 * the first relevant validation error, a call without a db gets {@link DB_NOT_INITIALIZED}, and
 * only then does the tool do its work on the db. Write tools record their own action on success.
 *
 * Coercions: strings only from strings; integers from integers, whole floats, booleans and
 * integer strings (`'2'`, `' 2 '`, `'1_0'`, `'2.00'`); numbers from numbers, booleans and float
 * strings (stored as floats); booleans from `true`/`false`, `0`/`1` and the strings
 * `true/false/yes/no/on/off/t/f/y/n/1/0` in any case; enums need the exact value; patterns must
 * match the whole string (`\d` is any Unicode digit); optional fields take `null` or absence;
 * unknown arguments are ignored.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition, ToolKind } from '@scenaro/agent/scenario';
import { pythonFloat, pythonStr, pythonStrip } from '@scenaro/agent/python';
import { nemoParameters, nemoTool } from '../../common/tool-kit.js';
import {
  DB_NOT_INITIALIZED,
  evaDb,
  findBookingJourney,
  journeyNotFound,
  lookupReservation,
  reservationNotFound,
} from './store.js';
import type { EvaDb, Rec } from './store.js';

/** How one field is checked. */
export type FieldKind =
  | { type: 'str'; pattern?: string; description?: string; examples?: readonly string[] }
  | { type: 'int'; ge?: number; le?: number }
  | { type: 'float'; gt?: number }
  | { type: 'bool' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'str-list'; itemPattern: string };

/** A field of a parameter model, in declaration order. */
export interface ParamField {
  name: string;
  kind: FieldKind;
  /** `Optional[...] = None`: absent or null gives null (the field then shows no description). */
  optional?: boolean;
}

/** The validated values, by field name (enum values as plain strings, numbers as numbers). */
export type ParamValues = Record<string, unknown>;

interface FieldError {
  field: string;
  msg: string;
  input: unknown;
}

/** The error type NeMo reports for an invalid field, where it names one. */
const FIELD_ERROR_TYPES: Readonly<Record<string, string>> = {
  rebooking_type: 'invalid_rebooking_type',
  new_fare_class: 'invalid_fare_class',
  fare_class: 'invalid_fare_class',
  meal_type: 'invalid_meal_type',
  credit_reason: 'invalid_credit_reason',
  voucher_reason: 'invalid_voucher_reason',
  refund_type: 'invalid_refund_type',
  seat_preference: 'invalid_seat_preference',
  cancellation_reason: 'invalid_cancellation_reason',
  confirmation_number: 'invalid_confirmation_number_format',
  flight_number: 'invalid_flight_number_format',
  flight_date: 'invalid_date_format',
  date: 'invalid_date_format',
  journey_id: 'invalid_journey_id_format',
  new_journey_id: 'invalid_journey_id_format',
  passenger_id: 'invalid_passenger_id_format',
  passenger_ids: 'invalid_passenger_id_format',
  origin: 'invalid_airport_code_format',
  destination: 'invalid_airport_code_format',
  num_bags: 'invalid_bag_count',
};

const TRUE_WORDS = new Set(['true', 'yes', 'on', 't', 'y', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', 'f', 'n', '0']);
const INT_STRING = /^[+-]?\d(?:_?\d)*(?:\.0+)?$/;

const compiled = new Map<string, RegExp>();
/** A pydantic (Rust regex) pattern as a JS regex: `\d` stands for any Unicode decimal digit. */
function regexOf(pattern: string): RegExp {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = new RegExp(pattern.replace(/\\d/g, '\\p{Nd}'), 'u');
    compiled.set(pattern, regex);
  }
  return regex;
}

/** Pydantic's enum message: `Input should be 'a', 'b' or 'c'`. */
function enumMessage(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  const last = quoted.pop();
  return `Input should be ${quoted.length > 0 ? `${quoted.join(', ')} or ${last}` : last}`;
}

type Checked = { ok: true; value: unknown } | { ok: false; msg: string; input: unknown };

const fail = (msg: string, input: unknown): Checked => ({ ok: false, msg, input });

function checkString(value: unknown, pattern: string | undefined): Checked {
  if (typeof value !== 'string') return fail('Input should be a valid string', value);
  if (pattern !== undefined && !regexOf(pattern).test(value)) {
    return fail(`String should match pattern '${pattern}'`, value);
  }
  return { ok: true, value };
}

function checkInt(value: unknown, kind: { ge?: number; le?: number }): Checked {
  let n: number;
  if (typeof value === 'boolean') n = value ? 1 : 0;
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail('Input should be a finite number', value);
    if (!Number.isInteger(value)) {
      return fail('Input should be a valid integer, got a number with a fractional part', value);
    }
    n = value;
  } else if (typeof value === 'string') {
    const text = pythonStrip(value);
    if (!INT_STRING.test(text)) {
      return fail('Input should be a valid integer, unable to parse string as an integer', value);
    }
    n = Math.trunc(Number(text.replace(/_/g, '')));
  } else return fail('Input should be a valid integer', value);
  if (kind.ge !== undefined && !(n >= kind.ge)) {
    return fail(`Input should be greater than or equal to ${kind.ge}`, value);
  }
  if (kind.le !== undefined && !(n <= kind.le)) {
    return fail(`Input should be less than or equal to ${kind.le}`, value);
  }
  return { ok: true, value: n };
}

function checkFloat(value: unknown, kind: { gt?: number }): Checked {
  let x: number | undefined;
  if (typeof value === 'number' || typeof value === 'boolean') x = pythonFloat(value);
  else if (typeof value === 'string') {
    x = pythonFloat(value);
    if (x === undefined) {
      return fail('Input should be a valid number, unable to parse string as a number', value);
    }
  }
  if (x === undefined) return fail('Input should be a valid number', value);
  if (kind.gt !== undefined && !(x > kind.gt)) {
    return fail(`Input should be greater than ${kind.gt}`, value);
  }
  return { ok: true, value: x };
}

function checkBool(value: unknown): Checked {
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    if (value === 0 || value === 1) return { ok: true, value: value === 1 };
    return Number.isInteger(value)
      ? fail('Input should be a valid boolean, unable to interpret input', value)
      : fail('Input should be a valid boolean', value);
  }
  if (typeof value === 'string') {
    const word = value.toLowerCase();
    if (TRUE_WORDS.has(word)) return { ok: true, value: true };
    if (FALSE_WORDS.has(word)) return { ok: true, value: false };
    return fail('Input should be a valid boolean, unable to interpret input', value);
  }
  return fail('Input should be a valid boolean', value);
}

/** The field's errors (a list reports each bad item) or its value. */
function checkField(field: ParamField, value: unknown): { value?: unknown; errors: FieldError[] } {
  const error = (msg: string, input: unknown): FieldError => ({ field: field.name, msg, input });
  const { kind } = field;
  let checked: Checked;
  switch (kind.type) {
    case 'str':
      checked = checkString(value, kind.pattern);
      break;
    case 'int':
      checked = checkInt(value, kind);
      break;
    case 'float':
      checked = checkFloat(value, kind);
      break;
    case 'bool':
      checked = checkBool(value);
      break;
    case 'enum':
      checked =
        typeof value === 'string' && kind.values.includes(value)
          ? { ok: true, value }
          : fail(enumMessage(kind.values), value);
      break;
    case 'str-list': {
      if (!Array.isArray(value)) return { errors: [error('Input should be a valid list', value)] };
      const errors: FieldError[] = [];
      for (const item of value) {
        const one = checkString(item, kind.itemPattern);
        if (!one.ok) errors.push(error(one.msg, one.input));
      }
      return errors.length > 0 ? { errors } : { value: [...(value as string[])], errors };
    }
  }
  return checked.ok
    ? { value: checked.value, errors: [] }
    : { errors: [error(checked.msg, checked.input)] };
}

/** NeMo's error result for the validation errors of `fields` (see the module notes). */
function errorResponse(fields: readonly ParamField[], errors: readonly FieldError[]): JsonObject {
  for (const error of errors) {
    const errorType = FIELD_ERROR_TYPES[error.field];
    if (errorType === undefined) continue;
    const field = fields.find((f) => f.name === error.field);
    const described =
      field && !field.optional && field.kind.type === 'str' ? field.kind : undefined;
    let message = `Invalid ${error.field} '${pythonStr(error.input)}'`;
    if (described?.description !== undefined) {
      message += `: must be ${described.description}`;
      if (described.examples?.length) message += ` (e.g. ${described.examples.join(', ')})`;
    } else {
      message += `: ${error.msg}`;
    }
    return { status: 'error', error_type: errorType, message };
  }
  const first = errors[0] as FieldError;
  return {
    status: 'error',
    error_type: 'invalid_parameter',
    message: `Invalid or missing parameter '${first.field}': ${first.msg}`,
  };
}

/**
 * Validate `args` against a parameter model: the values, or NeMo's error result for the call.
 * A missing required field reports the whole argument dict as its input (as pydantic does).
 */
export function validateParams(
  fields: readonly ParamField[],
  args: JsonObject,
): { ok: true; values: ParamValues } | { ok: false; response: JsonObject } {
  const values: ParamValues = {};
  const errors: FieldError[] = [];
  for (const field of fields) {
    const present = Object.prototype.hasOwnProperty.call(args, field.name);
    const value = present ? args[field.name] : undefined;
    if (field.optional && (value === undefined || value === null)) {
      values[field.name] = null;
      continue;
    }
    if (!present) {
      errors.push({ field: field.name, msg: 'Field required', input: args });
      continue;
    }
    const checked = checkField(field, value);
    if (checked.errors.length > 0) errors.push(...checked.errors);
    else values[field.name] = checked.value;
  }
  return errors.length === 0
    ? { ok: true, values }
    : { ok: false, response: errorResponse(fields, errors) };
}

/**
 * A parameter of an eva tool, in declaration order: its name, how it is checked, the description
 * the model sees, and `'optional'` for `Optional[...] = None` (not required; absent or null gives
 * null).
 */
export type ParamRow =
  | readonly [name: string, kind: FieldKind, description: string]
  | readonly [name: string, kind: FieldKind, description: string, optional: 'optional'];

const SCHEMA_TYPES = {
  str: 'string',
  enum: 'string',
  int: 'integer',
  float: 'number',
  bool: 'boolean',
  'str-list': 'array',
} as const satisfies Record<FieldKind['type'], string>;

/** The JSON Schema the model sees for a parameter. */
function propertySchema(kind: FieldKind, description: string): JsonObject {
  return kind.type === 'str-list'
    ? { type: 'array', items: { type: 'string' }, description }
    : { type: SCHEMA_TYPES[kind.type], description };
}

/** What an eva tool is. */
export interface EvaToolSpec {
  /** The class name, which is also the name the model sees. */
  name: string;
  description: string;
  kind: Extract<ToolKind, 'read' | 'write'>;
  /** Its parameter model; the schema the model sees is built from it. */
  params: readonly ParamRow[];
  /** The work, on validated values and a loaded db. */
  run(values: ParamValues, db: EvaDb, context: ToolContext): Rec;
}

/** An eva airline tool (registry domain `eva_airline`). */
export function evaTool(spec: EvaToolSpec): ToolDefinition {
  const fields: ParamField[] = spec.params.map(([name, kind, , optional]) =>
    optional ? { name, kind, optional: true } : { name, kind },
  );
  const properties = Object.fromEntries(
    spec.params.map(([name, kind, description]) => [name, propertySchema(kind, description)]),
  );
  const required = fields.filter((field) => !field.optional).map((field) => field.name);
  return nemoTool({
    name: spec.name,
    description: spec.description,
    parameters: nemoParameters(properties, required),
    kind: spec.kind,
    ...(spec.kind === 'write' ? { recordsOwnActions: true } : {}),
    execute: (args: JsonObject, context: ToolContext) => {
      const checked = validateParams(fields, args);
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
/** The call's confirmation number, upper-cased as reservations are keyed. */
export const confirmationNumber = (values: ParamValues): string =>
  str(values, 'confirmation_number').toUpperCase();

/** A call of a tool on one reservation: its confirmation number and the reservation, found. */
export interface ReservationCall {
  cn: string;
  reservation: Rec;
  values: ParamValues;
  db: EvaDb;
  context: ToolContext;
}

/**
 * The `run` of a tool on the reservation the call names: NeMo's not-found result when the db has
 * none under its confirmation number, else `run` with it.
 */
export function onReservation(run: (call: ReservationCall) => Rec): EvaToolSpec['run'] {
  return (values, db, context) => {
    const cn = confirmationNumber(values);
    const reservation = lookupReservation(db, cn);
    if (!reservation) return reservationNotFound(cn);
    return run({ cn, reservation, values, db, context });
  };
}

/** A call of a tool on one journey of a reservation: its `journey_id` and its booking, found. */
export interface BookingCall extends ReservationCall {
  journeyId: string;
  booking: Rec;
}

/**
 * The `run` of a tool on the booking of the journey the call names (`journey_id`) in its
 * reservation: NeMo's not-found result for a missing reservation or journey, else `run` with it.
 */
export function onBooking(run: (call: BookingCall) => Rec): EvaToolSpec['run'] {
  return onReservation((call) => {
    const journeyId = str(call.values, 'journey_id');
    const booking = findBookingJourney(call.reservation, journeyId);
    if (!booking) return journeyNotFound(journeyId);
    return run({ ...call, journeyId, booking });
  });
}

/**
 * What every port of a NeMo evaluation tool shares: NeMo's call wrapper (arguments passed as they
 * come, an exception delivered as `{"error": str(e)}`, a falsy result wrapped in an envelope), its
 * `TypeError` for an unexpected argument name, and the `<final_response>` push.
 *
 * @module
 */
import type { JsonObject, ToolContext, ToolDefinition } from '@scenaro/agent';
import { PythonError, pythonJsonDumps } from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';

/** Python truthiness of a JSON-like value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * What NeMo's call wrapper delivers for a result: truthy results as they are; `[]`, `{}` and
 * `None`/`""`/`0`/`False` in a success envelope (an empty answer must not read as nothing).
 */
export function nemoDeliveredResult(result: unknown): unknown {
  if (pyTruthy(result)) return result;
  if (Array.isArray(result)) {
    return { status: 'success', results: [], count: 0, message: 'No matching records found.' };
  }
  if (isJsonObject(result)) {
    return { status: 'success', results: {}, message: 'No matching records found.' };
  }
  return {
    status: 'success',
    result: result === undefined ? null : result,
    message: 'Completed with no data returned.',
  };
}

/**
 * A NeMo tool: it takes the model's arguments as they come and delivers results NeMo's way. A
 * non-empty `description` constructor kwarg replaces the description the model sees, as NeMo's
 * tools allow.
 */
export function nemoTool<Args extends JsonObject = JsonObject>(
  tool: Omit<ToolDefinition<Args>, 'ownsArguments' | 'modelResult'>,
): ToolDefinition {
  const describe =
    tool.describe ??
    ((options: JsonObject) => ({
      description:
        typeof options['description'] === 'string' && options['description'] !== ''
          ? options['description']
          : tool.description,
      parameters: tool.parameters,
    }));
  return {
    ...tool,
    describe,
    ownsArguments: true,
    modelResult: nemoDeliveredResult,
  } as unknown as ToolDefinition;
}

/**
 * Python's `TypeError` for a keyword argument a fixed signature does not take:
 * `<Class>._execute() got an unexpected keyword argument '<name>'` (the first one, in order).
 */
export function rejectUnexpectedArguments(
  className: string,
  args: JsonObject,
  accepted: readonly string[],
): void {
  const unexpected = Object.keys(args).find((key) => !accepted.includes(key));
  if (unexpected !== undefined) {
    throw new PythonError(
      'TypeError',
      `${className}._execute() got an unexpected keyword argument '${unexpected}'`,
    );
  }
}

/** `json.dumps(payload)`: Python's separators and escaping, keys in the payload's own order. */
export function pyJsonDumps(payload: unknown): string {
  return pythonJsonDumps(payload, { sortKeys: false });
}

/** Push `<final_response>json.dumps(payload)</final_response>`; returns the JSON text. */
export function pushFinalResponse(context: ToolContext, payload: JsonObject): string {
  const text = pyJsonDumps(payload);
  context.pushServerMessage?.({ text: `<final_response>${text}</final_response>` });
  return text;
}

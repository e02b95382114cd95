/**
 * The outcomes of tool calls the engine shapes itself, without running a domain tool: a call
 * whose arguments are not JSON, a frontend tool's answer from the browser, and a call the
 * interruption of its turn kept from running.
 */
import { RPC_RESPONSE_CODES } from '@scenaro/sdk/protocol';
import { isJsonObject } from '@scenaro/sdk/util';
import type { ToolCallOutcome } from '../scenario/tool-executor.js';
import type { JsonObject } from '../scenario/types.js';
import type { ContextToolCall } from './context.js';

/** A call's arguments parsed from the model's JSON (an empty string is `{}`). */
export type ParsedToolArguments =
  { ok: true; args: unknown } | { ok: false; outcome: ToolCallOutcome };

/** Parse a call's arguments; invalid JSON becomes the error outcome the model is given. */
export function parseToolArguments(call: ContextToolCall): ParsedToolArguments {
  const text = call.function.arguments;
  try {
    return { ok: true, args: text.trim() === '' ? {} : (JSON.parse(text) as unknown) };
  } catch (err) {
    const error = `Invalid arguments for ${call.function.name}: not valid JSON (${(err as Error).message})`;
    return {
      ok: false,
      outcome: { ok: false, result: undefined, modelResult: { error }, error, args: {} },
    };
  }
}

/** The arguments as an object, when they are one. */
export function argumentsObject(args: unknown): JsonObject | undefined {
  return isJsonObject(args) ? args : undefined;
}

/** A frontend tool's answer as an outcome: the model gets `result` either way. */
export function frontendOutcome(
  answer: { ok: boolean; result: unknown },
  args: JsonObject,
): ToolCallOutcome {
  return answer.ok
    ? { ok: true, result: answer.result, modelResult: answer.result, args }
    : {
        ok: false,
        result: undefined,
        modelResult: answer.result,
        error: JSON.stringify(answer.result),
        args,
      };
}

/**
 * The outcome of a call that did not run because its turn was interrupted: the model is told
 * `CANCELLED`, with the interruption's reason, as the browser's caller tells it of a cancelled
 * frontend tool.
 */
export function notRunOutcome(signal: AbortSignal, args: JsonObject): ToolCallOutcome {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'aborted';
  const modelResult = { code: RPC_RESPONSE_CODES.CANCELLED, data: { message: reason } };
  return { ok: false, result: undefined, modelResult, error: JSON.stringify(modelResult), args };
}

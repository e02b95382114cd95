/**
 * Tools every tau2 domain shares: `calculate` and `transfer_to_human_agents`.
 * Ending the call is the agent's own control tool `end_conversation`
 * (`default` domain), which every bot registers.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { JsonObject, ToolDefinition } from '@scenaro/agent/scenario';
import { evaluatePythonArithmetic, pyFloatStr, pyRound, PythonError } from '@scenaro/agent/python';
import { stringParam, toolParameters } from '../../common/tool-kit.js';

/** The `<exit>` reason pushed after a transfer to a human agent. */
export const TRANSFER_EXIT_REASON = 'Transfer complete.';
/** Name of the control tool that ends the call (registered by every bot in the `default` domain). */
export const END_CONVERSATION_TOOL = 'end_conversation';

const CALCULATE_ALLOWED = /^[0-9+\-*/(). ]*$/;

/**
 * tau2's `calculate`: `str(round(float(eval(expression)), 2))` over a
 * restricted character set. Python's exception text becomes the error.
 */
export function calculateExpression(expression: string): string {
  if (!CALCULATE_ALLOWED.test(expression)) throw new ToolError('Invalid characters in expression');
  try {
    return pyFloatStr(pyRound(evaluatePythonArithmetic(expression), 2));
  } catch (err) {
    if (err instanceof PythonError) throw new ToolError(err.message);
    throw err;
  }
}

/** The `calculate` tool (generic, records nothing). */
export function createCalculateTool(): ToolDefinition<{ expression: string }> {
  return {
    name: 'calculate',
    aliases: ['CalculateTool'],
    kind: 'read',
    description:
      'Evaluate an arithmetic expression and return the result rounded to two decimals. ' +
      'Only digits, + - * /, parentheses, dots and spaces are allowed.',
    parameters: toolParameters({
      expression: stringParam(
        "The expression to evaluate, for example '2 + 2' or '(120 - 35.5) * 2'.",
      ),
    }),
    execute: ({ expression }) => calculateExpression(expression),
  };
}

/**
 * `transfer_to_human_agents`: recorded as an action (with the result the
 * reference harness records for the domain) and it ends the conversation.
 */
export function createTransferTool(
  recordedResult: JsonObject,
): ToolDefinition<{ summary: string }> {
  return {
    name: 'transfer_to_human_agents',
    aliases: ['TransferToHumanAgentsTool'],
    kind: 'write',
    exitReason: TRANSFER_EXIT_REASON,
    description:
      "Hand the caller over to a human agent, passing a short summary of the caller's issue. " +
      'Use it only when the caller explicitly asks for a human, or when the policy and your tools ' +
      'cannot resolve the issue. The call ends after the transfer.',
    parameters: toolParameters({ summary: stringParam("A short summary of the caller's issue.") }),
    execute: () => structuredClone(recordedResult),
  };
}

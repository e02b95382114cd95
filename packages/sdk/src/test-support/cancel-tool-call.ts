/**
 * The agent's side of `scenaro__cancel_tool_call`, for tests of the browser's answer.
 */
import { SCENARO_RPC_METHODS } from '../protocol/index.js';
import type { CancelToolCallRequest, CancelToolCallResponse } from '../protocol/index.js';
import type { RpcTransport } from '../rpc/transport.js';

/** `agent` asks `destinationIdentity` to cancel a tool call; resolves with the decoded answer. */
export async function cancelToolCall(
  agent: RpcTransport,
  destinationIdentity: string,
  request: CancelToolCallRequest,
): Promise<CancelToolCallResponse> {
  const answer = await agent.performRpc({
    destinationIdentity,
    method: SCENARO_RPC_METHODS.CANCEL_TOOL_CALL.method,
    payload: JSON.stringify(request),
    responseTimeoutMs: 3000,
  });
  return JSON.parse(answer) as CancelToolCallResponse;
}

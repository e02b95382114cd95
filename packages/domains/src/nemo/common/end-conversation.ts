/**
 * NeMo's `EndConversationTool` (registry `default`): answers `{"success": true, "message": "Exit
 * message sent."}` and, once that is delivered, ends the conversation with
 * `<exit>The task is finished.</exit>`.
 *
 * @module
 */
import { nemoTool } from '../../common/tool-kit.js';

/** The tool every NeMo suite's agent ends a conversation with. */
export const nemoEndConversationTool = nemoTool({
  name: 'EndConversationTool',
  description: 'End the conversation with the user.',
  parameters: { type: 'object', properties: {}, required: [] },
  kind: 'control',
  exitReason: 'The task is finished.',
  execute: () => ({ success: true, message: 'Exit message sent.' }),
});

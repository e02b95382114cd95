/**
 * Control tools every bot offers in the `default` domain (so any tool domain
 * falls back to them): ending the conversation, and delivering a final
 * structured answer (the `<final_response>` push).
 */
import { DEFAULT_DOMAIN } from '@scenaro/sdk/protocol';
import type { DomainRegistry } from './registry.js';
import type { DomainModule, ToolDefinition } from './types.js';

/** Ends the conversation: the bot pushes `<exit>The task is finished.</exit>` once the result is delivered. */
export const endConversationTool: ToolDefinition = {
  name: 'end_conversation',
  aliases: ['EndConversationTool'],
  description:
    'End the conversation. Call this once the customer has nothing more to ask, after saying goodbye.',
  kind: 'control',
  exitReason: 'The task is finished.',
  parameters: { type: 'object', properties: {}, additionalProperties: true },
  execute: () => ({ status: 'ending conversation' }),
};

/** Delivers a final structured answer: pushed as `<final_response>{json}</final_response>`. */
export const submitFinalResponseTool: ToolDefinition = {
  name: 'submit_final_response',
  aliases: ['FinalResponseTool'],
  description:
    'Submit the final structured answer of the task (for example a completed order form).',
  kind: 'control',
  finalResponse: true,
  parameters: {
    type: 'object',
    properties: { response: { type: 'object', description: 'The final answer as a JSON object.' } },
    required: ['response'],
  },
  execute: (args) => args['response'],
};

/** The control tools as a domain module of the `default` domain. */
export const controlToolsModule: DomainModule = {
  name: DEFAULT_DOMAIN,
  tools: [endConversationTool, submitFinalResponseTool],
};

/** Register the control tools unless the registry already has them. */
export function registerControlTools(registry: DomainRegistry): DomainRegistry {
  for (const tool of controlToolsModule.tools ?? []) {
    if (!registry.findTool(DEFAULT_DOMAIN, tool.name)) registry.registerTool(DEFAULT_DOMAIN, tool);
  }
  return registry;
}

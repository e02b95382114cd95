/**
 * The brain of a bot started by the CLI: an LLM behind an OpenAI-compatible endpoint
 * (`--llm-*` flags, shared by `serve` and `demo`), or a scripted policy.
 */
import {
  createOpenAIChatModel,
  createReferenceAgentModel,
  createScriptedUserModel,
} from '@scenaro/agent';
import type { ChatModel, ConversationHost } from '@scenaro/agent';
import type { LlmFlags, Policy } from './llm-flags.js';

/** A brain: how to name it, and a chat model for each session. */
export interface Brain {
  label: string;
  factory: (host: ConversationHost) => ChatModel;
}

/** The brain for `policy` (default: llm when `--llm-base-url` is set, else the reference agent). */
export function chooseModel(flags: LlmFlags & { policy?: Policy | undefined }): Brain {
  const policy = flags.policy ?? (flags.llmBaseUrl ? 'llm' : 'reference-agent');
  if (policy === 'reference-agent')
    return { label: 'scripted reference agent', factory: createReferenceAgentModel };
  if (policy === 'scripted-user')
    return { label: 'scripted user', factory: createScriptedUserModel };
  if (!flags.llmBaseUrl || !flags.llmModel) {
    throw new Error('--policy llm needs --llm-base-url and --llm-model');
  }
  const model = createOpenAIChatModel({
    baseURL: flags.llmBaseUrl,
    model: flags.llmModel,
    ...(flags.llmApiKeyEnv ? { apiKeyEnv: flags.llmApiKeyEnv } : {}),
    ...(flags.llmTimeoutMs ? { timeoutMs: Number(flags.llmTimeoutMs) } : {}),
  });
  return { label: `LLM ${flags.llmModel} at ${flags.llmBaseUrl}`, factory: () => model };
}

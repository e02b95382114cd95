/**
 * The brain of a bot started by the CLI: an LLM behind an OpenAI-compatible endpoint
 * (`--llm-*` flags, shared by `serve` and `demo`), or a scripted policy.
 */
import type { Command } from 'commander';
import {
  createOpenAIChatModel,
  createReferenceAgentModel,
  createScriptedUserModel,
} from '@scenaro/agent';
import type { ChatModel, ConversationHost } from '@scenaro/agent';

/** The `--llm-*` flags. */
export interface LlmFlags {
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  llmTimeoutMs?: string;
}

/** Which conversation policy a bot runs. */
export type Policy = 'reference-agent' | 'scripted-user' | 'llm';

/** A brain: how to name it, and a chat model for each session. */
export interface Brain {
  label: string;
  factory: (host: ConversationHost) => ChatModel;
}

/** Add the `--llm-*` options; `baseUrlHelp` says what the endpoint is for. */
export function addLlmOptions(command: Command, baseUrlHelp: string): Command {
  return command
    .option('--llm-base-url <url>', baseUrlHelp)
    .option('--llm-model <name>', 'model name for --llm-base-url')
    .option(
      '--llm-api-key-env <name>',
      'environment variable holding the API key (default OPENAI_API_KEY)',
    )
    .option('--llm-timeout-ms <ms>', 'per-request timeout of the LLM', '60000');
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

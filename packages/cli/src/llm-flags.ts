/**
 * The `--llm-*` flags shared by `serve` and `demo`. Defining them loads no bot code, so
 * `scenaro --help` stays fast; the brain they choose is built in `brain.ts`.
 */
import type { Command } from 'commander';

/** The `--llm-*` flags. */
export interface LlmFlags {
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  llmTimeoutMs?: string;
}

/** Which conversation policy a bot runs. */
export type Policy = 'reference-agent' | 'scripted-user' | 'llm';

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

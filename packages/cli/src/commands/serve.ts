/**
 * `scenaro serve`: start a bot server with the built-in domains registered.
 */
import { Command, Option } from 'commander';
import {
  DomainRegistry,
  createConversationEngine,
  createOpenAIChatModel,
  createReferenceAgentModel,
  createScriptedUserModel,
  startBotServer,
} from '@scenaro/agent';
import type { BotServer, ChatModel, ConversationHost, ServerProfile } from '@scenaro/agent';
import { builtInDomains, domainDataRoots, registerEvalDomains } from '@scenaro/domains';

export interface ServeOptions {
  profile: ServerProfile;
  host: string;
  port: string;
  dataRoot?: string;
  token?: string;
  maxSessions?: string;
  singleClient?: boolean;
  policy?: 'reference-agent' | 'scripted-user' | 'llm';
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  llmTimeoutMs?: string;
}

/** Which brain a served bot uses: an LLM when one is configured, else a scripted policy. */
export function chooseModel(options: ServeOptions): {
  label: string;
  factory: (host: ConversationHost) => ChatModel;
} {
  const policy = options.policy ?? (options.llmBaseUrl ? 'llm' : 'reference-agent');
  if (policy === 'reference-agent')
    return { label: 'scripted reference agent', factory: createReferenceAgentModel };
  if (policy === 'scripted-user')
    return { label: 'scripted user', factory: createScriptedUserModel };
  if (!options.llmBaseUrl || !options.llmModel) {
    throw new Error('--policy llm needs --llm-base-url and --llm-model');
  }
  const model = createOpenAIChatModel({
    baseURL: options.llmBaseUrl,
    model: options.llmModel,
    ...(options.llmApiKeyEnv ? { apiKeyEnv: options.llmApiKeyEnv } : {}),
    ...(options.llmTimeoutMs ? { timeoutMs: Number(options.llmTimeoutMs) } : {}),
  });
  return { label: `LLM ${options.llmModel} at ${options.llmBaseUrl}`, factory: () => model };
}

/** Start a server from parsed `serve` options and print the `listening on` line. */
export async function serve(
  options: ServeOptions,
  out: (line: string) => void = console.log,
): Promise<BotServer> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got '${options.port}'`);
  }
  const domains = [...builtInDomains().values()];
  const registry = registerEvalDomains(new DomainRegistry(), domains);
  const brain = chooseModel(options);
  const token = options.token ?? process.env['SCENARO_TOKEN'];
  const server = await startBotServer({
    profile: options.profile,
    host: options.host,
    port,
    registry,
    conversation: createConversationEngine({ model: brain.factory }),
    extraDataRoots: domainDataRoots(domains),
    ...(options.dataRoot !== undefined ? { dataRoot: options.dataRoot } : {}),
    ...(token ? { token } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: Number(options.maxSessions) } : {}),
    ...(options.singleClient ? { singleClient: true } : {}),
  });
  server.log.info({ policy: brain.label }, 'conversation policy');
  out(`listening on ${server.url}`);
  return server;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'Run a bot server speaking RTVI over protobuf WebSocket frames, with the control plane.',
    )
    .addOption(
      new Option('--profile <profile>', 'control messages answered')
        .choices(['eval', 'production'])
        .default('eval'),
    )
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--port <port>', 'port to bind (0 picks a free one)', '8765')
    .option(
      '--data-root <dir>',
      'folder every db_path resolves inside (default: $EVAL_DATA_ROOT or ./data)',
    )
    .option(
      '--token <token>',
      'require this token (?token= or Authorization: Bearer); default $SCENARO_TOKEN',
    )
    .option('--max-sessions <n>', 'most sessions at once')
    .option('--single-client', 'accept one client at a time (Pipecat parity)')
    .addOption(
      new Option(
        '--policy <policy>',
        "the bot's brain (default: llm when --llm-base-url is set, else reference-agent)",
      ).choices(['reference-agent', 'scripted-user', 'llm']),
    )
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (vLLM, NIM, Ollama, llama.cpp)',
    )
    .option('--llm-model <name>', 'model name for --llm-base-url')
    .option(
      '--llm-api-key-env <name>',
      'environment variable holding the API key (default OPENAI_API_KEY)',
    )
    .option('--llm-timeout-ms <ms>', 'per-request timeout of the LLM', '60000')
    .action(async (options: ServeOptions) => {
      const server = await serve(options);
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

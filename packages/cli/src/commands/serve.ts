/**
 * `scenaro serve`: start a bot server with the built-in domains registered.
 */
import { Command, Option } from 'commander';
import { DomainRegistry, startBotServer } from '@scenaro/agent';
import type { BotServer, ServerProfile } from '@scenaro/agent';
import { registerBuiltInDomains } from '../domains.js';

export interface ServeOptions {
  profile: ServerProfile;
  host: string;
  port: string;
  dataRoot?: string;
  token?: string;
  maxSessions?: string;
  singleClient?: boolean;
  logLevel?: string;
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
  const registry = registerBuiltInDomains(new DomainRegistry());
  const token = options.token ?? process.env['SCENARO_TOKEN'];
  const server = await startBotServer({
    profile: options.profile,
    host: options.host,
    port,
    registry,
    ...(options.dataRoot !== undefined ? { dataRoot: options.dataRoot } : {}),
    ...(token ? { token } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: Number(options.maxSessions) } : {}),
    ...(options.singleClient ? { singleClient: true } : {}),
  });
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
    .action(async (options: ServeOptions) => {
      const server = await serve(options);
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

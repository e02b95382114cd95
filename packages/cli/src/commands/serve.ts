/**
 * `scenaro serve`: start a bot server with the built-in domains registered.
 */
import { Command, Option } from 'commander';
import { TAU2_TELECOM_TODAY } from '@scenaro/domains/clock';
import { addLlmOptions } from '../llm-flags.js';
import { addVoiceOptions } from '../voice-flags.js';
import { closeOnSignal } from '../close-on-signal.js';
import type { ServeOptions } from '../start-server.js';

export function serveCommand(): Command {
  const command = new Command('serve')
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
      'require this token (?token= or Authorization: Bearer); default $SCENARO_TOKEN. ' +
        'Needed to bind a non-loopback --host',
    )
    .option(
      '--allowed-origin <origin>',
      'browser origin allowed to connect, e.g. https://shop.example (repeatable; default any)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--insecure-no-auth',
      'serve a non-loopback --host without a token (only behind something that authenticates)',
    )
    .option('--max-sessions <n>', 'most sessions at once')
    .option(
      '--max-voice-sessions <n>',
      'most sessions listening at once, each with its own recognizer; the next is told its audio ' +
        'is not heard (default: 4 per core, within half the memory)',
    )
    .option(
      '--metrics-port <port>',
      'serve GET /metrics (and /healthz, /readyz) on this port instead of --port',
    )
    .option(
      '--shutdown-grace-ms <ms>',
      'on SIGTERM/SIGINT: how long in-flight turns may take to finish before connections close',
      '5000',
    )
    .option(
      '--single-client',
      'one session for whoever connects, kept between connections; a new connection takes it ' +
        "over (Pipecat parity, what NeMo's evaluation bridge expects)",
    )
    .option(
      '--resume-grace-ms <ms>',
      'without --single-client: how long a session waits for its client to reconnect with the ' +
        'resume token of its bot-ready (?resume=TOKEN); 0 ends it with the connection',
      '30000',
    )
    .option(
      '--today [date]',
      `telecom clock: today's local date, as NeMo's bot (default tau2's fixed ${TAU2_TELECOM_TODAY}), ` +
        'or the given YYYY-MM-DD',
    )
    .addOption(
      new Option(
        '--policy <policy>',
        "the bot's brain (default: llm when --llm-base-url is set, else reference-agent)",
      ).choices(['reference-agent', 'scripted-user', 'llm']),
    );
  addVoiceOptions(command);
  return addLlmOptions(
    command,
    'OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (vLLM, NIM, Ollama, llama.cpp)',
  ).action(async (options: ServeOptions) => {
    const [{ serve }, { startTracing }] = await Promise.all([
      import('../start-server.js'),
      import('../tracing.js'),
    ]);
    const stopTracing = await startTracing();
    const server = await serve(options);
    closeOnSignal({
      close: async () => {
        await server.close();
        await stopTracing?.();
      },
    });
  });
}

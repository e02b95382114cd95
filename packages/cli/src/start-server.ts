/**
 * A bot server with the built-in domains registered, as `scenaro serve` starts it.
 */
import { createConversationEngine, startBotServer } from '@scenaro/agent';
import { DomainRegistry } from '@scenaro/agent/scenario';
import type { BotServer, ServerProfile } from '@scenaro/agent';
import { chooseModel } from './brain.js';
import type { LlmFlags, Policy } from './llm-flags.js';
import type { VoiceFlags } from './voice-flags.js';
import { builtInDomains, domainDataRoots, registerEvalDomains } from '@scenaro/domains';
import { parseInteger, parsePort } from './flags.js';
import { parityDomainOptions, parityServerOptions } from './serve-parity.js';
import type { ParityFlags } from './serve-parity.js';

/** Parsed `serve` options. */
export interface ServeOptions extends LlmFlags, VoiceFlags, ParityFlags {
  profile: ServerProfile;
  host: string;
  port: string;
  dataRoot?: string;
  token?: string;
  maxSessions?: string;
  /** `--max-voice-sessions`. */
  maxVoiceSessions?: string;
  /** `--metrics-port`: serve `/metrics` on this port instead. */
  metricsPort?: string;
  /** `--shutdown-grace-ms`. */
  shutdownGraceMs?: string;
  singleClient?: boolean;
  policy?: Policy;
  /** Browser origins allowed to connect (`--allowed-origin`, repeatable). */
  allowedOrigin?: string[];
  /** Serve a non-loopback address without a token (`--insecure-no-auth`). */
  insecureNoAuth?: boolean;
}

/** Start a server from parsed `serve` options and print the `listening on` line. */
export async function serve(
  options: ServeOptions,
  out: (line: string) => void = console.log,
): Promise<BotServer> {
  const port = parsePort(options.port, '--port');
  const domains = [...builtInDomains(parityDomainOptions(options)).values()];
  const registry = registerEvalDomains(new DomainRegistry(), domains);
  const brain = chooseModel(options);
  // `--token ""` is an error (it must not turn auth off silently); an empty $SCENARO_TOKEN is
  // unset, as shells and env files write it, and a non-loopback host then still needs a token.
  const token = options.token ?? (process.env['SCENARO_TOKEN'] || undefined);
  // The voice is checked before the server binds; its engines close with the server.
  const { buildVoiceOptions, closeVoiceWithServer } = await import('./voice.js');
  const voice = await buildVoiceOptions(options);
  for (const warning of voice.warnings) console.warn(`scenaro: warning: ${warning}`);
  const server = await startBotServer({
    voice: voice.voice,
    profile: options.profile,
    host: options.host,
    port,
    registry,
    conversation: createConversationEngine({ model: brain.factory }),
    extraDataRoots: domainDataRoots(domains),
    ...(options.dataRoot !== undefined ? { dataRoot: options.dataRoot } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(options.allowedOrigin ? { allowedOrigins: options.allowedOrigin } : {}),
    ...(options.insecureNoAuth ? { allowUnauthenticated: true } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: Number(options.maxSessions) } : {}),
    ...(options.maxVoiceSessions !== undefined
      ? { maxVoiceSessions: parseInteger(options.maxVoiceSessions, '--max-voice-sessions', 1) }
      : {}),
    ...(options.singleClient ? { singleClient: true } : {}),
    ...(options.metricsPort !== undefined
      ? { metricsPort: parsePort(options.metricsPort, '--metrics-port') }
      : {}),
    ...(options.shutdownGraceMs !== undefined
      ? { shutdownGraceMs: parseInteger(options.shutdownGraceMs, '--shutdown-grace-ms', 0) }
      : {}),
    ...parityServerOptions(options),
  });
  server.log.info({ policy: brain.label }, 'conversation policy');
  closeVoiceWithServer(server, voice.voice);
  server.log.info({}, voice.summary);
  out(`listening on ${server.url}`);
  if (options.metricsPort !== undefined) out(`metrics on ${server.metricsUrl}`);
  return server;
}

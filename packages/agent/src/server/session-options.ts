/**
 * What a {@link BotSession} is built from: its settings and its first connection.
 *
 * @module
 */
import type { ClientMessageRouter } from '../control/router.js';
import type { SessionControlOptions } from '../control/session-control.js';
import type { ConversationFactory } from '../conversation/hook.js';
import type { DbSource } from '../scenario/initialize.js';
import type { DomainRegistry } from '../scenario/registry.js';
import type { VoiceOptions } from '../voice/voice-options.js';
import type { Logger } from './logger.js';
import type { SessionConnection } from './session-connection.js';
import type { SessionLimits } from './session-limits.js';
import type { VoiceSessionHost } from './voice-session.js';

/** What a session is built from: its settings and its first connection. */
export interface BotSessionOptions extends SessionControlOptions, SessionConnection {
  id: string;
  registry: DomainRegistry;
  router: ClientMessageRouter;
  dbSource: DbSource;
  conversation?: ConversationFactory;
  log: Logger;
  /** Library identity sent in `bot-ready.about`. */
  about: { library: string; library_version: string };
  /** What the session may hold. @default {@link DEFAULT_SESSION_LIMITS} */
  limits?: SessionLimits;
  /** The bot's voice (engines shared by the server's sessions). @default none: audio is ignored */
  voice?: VoiceOptions;
  /** How the voice is bounded: the server's listening slots, the audio queue, its metrics. */
  voiceBounds?: Pick<VoiceSessionHost, 'slots' | 'backlog' | 'count'>;
}

/**
 * Routes `client-message` requests to handlers by `t`. Profiles decide which
 * control messages are answered; applications register more handlers.
 */
import { PRODUCTION_CONTROL_MESSAGES, CONTROL_MESSAGE_NAMES } from '@scenaro/sdk/protocol';
import type { ControlMessageName } from '@scenaro/sdk/protocol';
import { CONTROL_HANDLERS, RPC_HANDLERS, VOICE_HANDLERS } from './handlers.js';
import type { ClientMessageHandler } from './handlers.js';

/** `production` answers `reset` only; `eval` answers all six control messages. */
export type ServerProfile = 'production' | 'eval';

/** A table of `client-message` handlers. */
export class ClientMessageRouter {
  readonly #handlers = new Map<string, ClientMessageHandler>();

  /** A router with the control messages of a profile. */
  static forProfile(profile: ServerProfile): ClientMessageRouter {
    const router = new ClientMessageRouter();
    const names: readonly ControlMessageName[] =
      profile === 'eval' ? CONTROL_MESSAGE_NAMES : PRODUCTION_CONTROL_MESSAGES;
    for (const name of names) router.register(name, CONTROL_HANDLERS[name]);
    for (const [name, handler] of Object.entries(RPC_HANDLERS)) router.register(name, handler);
    for (const [name, handler] of Object.entries(VOICE_HANDLERS)) router.register(name, handler);
    return router;
  }

  /** Add a handler. Registering a taken name throws. */
  register(t: string, handler: ClientMessageHandler): this {
    if (this.#handlers.has(t))
      throw new Error(`a handler for client-message '${t}' is already registered`);
    this.#handlers.set(t, handler);
    return this;
  }

  get(t: string): ClientMessageHandler | undefined {
    return this.#handlers.get(t);
  }

  names(): string[] {
    return [...this.#handlers.keys()].sort();
  }
}

/**
 * How the conversation loop hands one bot's turn to the other and gets the answer back.
 *
 * {@link TurnRelay} is what the loop talks to. {@link TextRelay}, the text mode, relays each
 * turn as `send-text` and assembles the answer from the bot's LLM events (`turn-complete`
 * pushes, or an inferred end). `AudioRelay` (`audio-relay.ts`), the audio mode, relays audio
 * between the bots and segments turns from their speaking events.
 */
import type { BotEventHandlers } from './bot-events.js';
import type { BotConnection } from './bot-connection.js';
import { TurnAssembler } from './turn-assembly.js';
import type { BotRole, BotTurn } from './types.js';

/** The loop's view of the medium between the two bots. */
export interface TurnRelay {
  /** The relay's share of the bots' events. */
  readonly handlers: BotEventHandlers;
  /**
   * Hand `text` to `speaker` as the other side's turn, then resolve with `speaker`'s finished
   * turn, or `'timeout'` at `deadline` (a `performance.now()` time).
   */
  exchange(speaker: BotRole, text: string, deadline: number): Promise<BotTurn | 'timeout'>;
  /** When the agent's first output since the last exchange arrived (`performance.now()`). */
  readonly firstOutputAt: number | undefined;
  /** A bot went away: stop waiting for its turn. */
  botClosed(role: BotRole): void;
  /** Release timers. */
  dispose(): void;
}

export interface TextRelayOptions {
  /** The connected bot of a role. */
  bot: (role: BotRole) => BotConnection;
  /** Why the bridge lost a bot, once it has. */
  disconnected: () => string | undefined;
  /** The `<exit>` the agent pushed so far (an inferred agent turn carries it). */
  exitOf: () => string | undefined;
  /** Quiet period that ends a turn of a bot without `turn-complete` pushes, ms. */
  turnQuietMs: number;
  /** Receives bridge-log lines. */
  log: (line: string) => void;
}

/** Text mode: `send-text` out, turns assembled from LLM events. */
export class TextRelay implements TurnRelay {
  readonly #options: TextRelayOptions;
  readonly #turns: Record<BotRole, TurnAssembler>;
  #firstOutputAt: number | undefined;
  readonly handlers: BotEventHandlers;

  constructor(options: TextRelayOptions) {
    this.#options = options;
    const assembler = (role: BotRole) =>
      new TurnAssembler({
        role,
        quietMs: options.turnQuietMs,
        log: options.log,
        ...(role === 'agent' ? { exitOf: options.exitOf } : {}),
      });
    this.#turns = { agent: assembler('agent'), user: assembler('user') };
    const turns = this.#turns;
    this.handlers = {
      'llm-text': (role, event) => {
        if (role === 'agent') this.#firstOutputAt ??= performance.now();
        turns[role].onText(event.text);
      },
      'llm-started': (role) => turns[role].onLlmStarted(),
      'function-call-started': (role) => turns[role].onFunctionCallStarted(),
      'function-call-stopped': (role) => turns[role].onFunctionCallStopped(),
      'llm-stopped': (role) => turns[role].onLlmStopped(),
      'turn-complete': (role, event) => turns[role].onTurnComplete(event.turn),
    };
  }

  get firstOutputAt(): number | undefined {
    return this.#firstOutputAt;
  }

  exchange(speaker: BotRole, text: string, deadline: number): Promise<BotTurn | 'timeout'> {
    const listener = this.#options.bot(speaker);
    this.#firstOutputAt = undefined;
    listener.sendText(text, { run_immediately: true, audio_response: false });
    return this.#turns[speaker].next(deadline, this.#options.disconnected());
  }

  botClosed(role: BotRole): void {
    this.#turns[role].abort();
  }

  dispose(): void {
    this.#turns.agent.dispose();
    this.#turns.user.dispose();
  }
}

/**
 * Turn assembly for one bot in text mode. A bot that pushes `turn-complete` says when its turn
 * ends; for one that does not (e.g. a Pipecat bot in text mode) the turn ends a quiet period
 * after the last `bot-llm-stopped` with no function call running, its text gathered from
 * `bot-llm-text`. Finished turns queue until the conversation loop asks for the next one.
 */
import type { BotRole, BotTurn } from './types.js';

/** The turn being inferred from LLM events. */
interface InferredTurn {
  text: string;
  /** Function calls running. */
  calls: number;
  timer?: ReturnType<typeof setTimeout>;
}

export interface TurnAssemblerOptions {
  role: BotRole;
  /** Quiet period after `bot-llm-stopped` that ends an inferred turn, ms. */
  quietMs: number;
  /** The `<exit>` the agent pushed so far, given to an inferred turn. */
  exitOf?: () => string | undefined;
  /** Receives a bridge-log line when a turn end is inferred. */
  log?: (line: string) => void;
}

/** One bot's finished turns, from `turn-complete` pushes or inferred from its LLM events. */
export class TurnAssembler {
  readonly #options: TurnAssemblerOptions;
  /** Does the bot push `turn-complete`? Until it does, turns are inferred from LLM events. */
  #pushesTurns = false;
  #inferred: InferredTurn | undefined;
  readonly #finished: BotTurn[] = [];
  readonly #waiters = new Set<(turn: BotTurn) => void>();

  constructor(options: TurnAssemblerOptions) {
    this.#options = options;
  }

  #current(): InferredTurn {
    this.#inferred ??= { text: '', calls: 0 };
    return this.#inferred;
  }

  #cancelInference(): void {
    const turn = this.#inferred;
    if (turn?.timer) clearTimeout(turn.timer);
    if (turn) delete turn.timer;
  }

  #deliver(turn: BotTurn): void {
    const [waiter] = this.#waiters;
    if (waiter) {
      this.#waiters.delete(waiter);
      waiter(turn);
    } else {
      this.#finished.push(turn);
    }
  }

  /** `bot-llm-text`. */
  onText(text: string): void {
    this.#current().text += text;
  }

  /** `bot-llm-started`. */
  onLlmStarted(): void {
    this.#cancelInference();
  }

  /** `llm-function-call-in-progress`. */
  onFunctionCallStarted(): void {
    this.#current().calls++;
    this.#cancelInference();
  }

  /** `llm-function-call-stopped`. */
  onFunctionCallStopped(): void {
    const turn = this.#current();
    turn.calls = Math.max(0, turn.calls - 1);
  }

  /** `bot-llm-stopped`: without `turn-complete` pushes, the turn ends after a quiet period with no call running. */
  onLlmStopped(): void {
    if (this.#pushesTurns) return;
    const turn = this.#current();
    this.#cancelInference();
    if (turn.calls > 0) return;
    turn.timer = setTimeout(() => {
      if (this.#pushesTurns) return;
      this.#inferred = undefined;
      const { role } = this.#options;
      this.#options.log?.(
        `${new Date().toISOString()} | ${role.padEnd(5)} | -- | turn end inferred (no turn-complete push)`,
      );
      const inferred: BotTurn = { text: turn.text.trim(), interrupted: false };
      const exit = this.#options.exitOf?.();
      if (exit !== undefined) inferred.exit = exit;
      this.#deliver(inferred);
    }, this.#options.quietMs);
  }

  /** `turn-complete`: the bot says its turn is over. */
  onTurnComplete(turn: BotTurn): void {
    this.#pushesTurns = true;
    this.#cancelInference();
    this.#inferred = undefined;
    this.#deliver(turn);
  }

  /** The bot went away: whoever waits for its turn gets an empty, interrupted one. */
  abort(): void {
    for (const waiter of this.#waiters) waiter({ text: '', interrupted: true });
    this.#waiters.clear();
  }

  /**
   * The next finished turn: a queued one at once; otherwise (unless `disconnected` says why the
   * bridge lost a bot, which rejects) the next one to finish, or `'timeout'` at `deadline`
   * (a `performance.now()` time).
   */
  next(deadline: number, disconnected?: string): Promise<BotTurn | 'timeout'> {
    const queued = this.#finished.shift();
    if (queued) return Promise.resolve(queued);
    if (disconnected) return Promise.reject(new Error(disconnected));
    return new Promise((resolve) => {
      const waiter = (turn: BotTurn) => {
        clearTimeout(timer);
        resolve(turn);
      };
      const timer = setTimeout(
        () => {
          this.#waiters.delete(waiter);
          resolve('timeout');
        },
        Math.max(0, deadline - performance.now()),
      );
      this.#waiters.add(waiter);
    });
  }

  /** Stop a pending inference timer. */
  dispose(): void {
    this.#cancelInference();
  }
}

/**
 * When a bridged conversation stops: the agent's `<exit>` (pushed, or carried by its turn), a
 * user stop token (one definition, in `@scenaro/agent`), both sides reaching the turn limit, or
 * the duration running out.
 */
import { findUserStopToken } from '@scenaro/agent';
import { isExitText } from '@scenaro/sdk/protocol';
import type { BotRole, BotTurn, StopReason } from './types.js';

/** Why to stop, and the user's stop token for `[USER_STOP]`. */
export interface StopDecision {
  reason: StopReason;
  token?: string;
}

export class StopRules {
  readonly #maxTurns: number;
  #exit: string | undefined;

  /** `maxTurns`: the most turns of each side. */
  constructor(maxTurns: number) {
    this.#maxTurns = maxTurns;
  }

  /** The `<exit>` text the agent pushed, once it has. */
  get exit(): string | undefined {
    return this.#exit;
  }

  /** Text the agent pushed: an `<exit>` ends the conversation after its turn. */
  noteAgentText(text: string): void {
    if (isExitText(text)) this.#exit = text;
  }

  /**
   * After `speaker`'s `turn`, with `counts` turns of each side so far and the conversation's
   * `deadline` (a time of the conversation's clock, `now`): why to stop, or undefined to go on.
   */
  afterTurn(
    speaker: BotRole,
    turn: BotTurn,
    counts: Readonly<Record<BotRole, number>>,
    deadline: number,
    now: number = performance.now(),
  ): StopDecision | undefined {
    if (speaker === 'agent' && (turn.exit !== undefined || this.#exit !== undefined))
      return { reason: '[EXIT]' };
    if (speaker === 'user') {
      const token = findUserStopToken(turn.text);
      if (token) return { reason: '[USER_STOP]', token };
    }
    if (counts.agent >= this.#maxTurns && counts.user >= this.#maxTurns)
      return { reason: '[MAX_TURNS]' };
    if (now >= deadline) return { reason: '[TIMEOUT]' };
    return undefined;
  }
}

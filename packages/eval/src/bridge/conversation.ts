/**
 * The conversation loop: the kickoff goes to the agent, then each finished turn goes to the
 * other side, until a stop rule fires. Each turn is recorded with its times (seconds since the
 * start) and, for the agent, its response latency.
 */
import type { TurnRelay } from './relay.js';
import type { StopRules } from './stop-rules.js';
import type { BotRole, ScenarioRun, StopReason, Turn } from './types.js';

export interface ConversationOptions {
  relay: TurnRelay;
  rules: StopRules;
  /** Where turns, latencies, the stop reason and the stop token go. */
  run: ScenarioRun;
  /** Time limit, seconds. */
  durationSeconds: number;
  /** Text that starts the conversation. */
  kickoff: string;
  /** Resolves once the cross-side sync has caught up with the actions so far. */
  settled: () => Promise<void>;
  /** Why the bridge lost a bot, once it has. */
  disconnected: () => string | undefined;
  /** The conversation's clock, ms (audio mode: audio time). @default performance.now */
  now?: () => number;
}

/** Run the conversation; throws when a bot goes away. */
export async function converse(options: ConversationOptions): Promise<void> {
  const { relay, rules, run } = options;
  const now = options.now ?? (() => performance.now());
  const t0 = now();
  const deadline = t0 + options.durationSeconds * 1000;
  let speaker: BotRole = 'agent';
  let text = options.kickoff;
  const counts: Record<BotRole, number> = { agent: 0, user: 0 };
  let stop: StopReason | undefined;
  while (!stop) {
    const sentAt = now();
    const turn = await relay.exchange(speaker, text, deadline);
    if (turn === 'timeout') {
      stop = '[TIMEOUT]';
      break;
    }
    if (turn.stopReason && !turn.timing) {
      stop = turn.stopReason;
      break;
    }
    const disconnected = options.disconnected();
    if (disconnected) throw new Error(disconnected);
    await options.settled();
    counts[speaker] += 1;
    const record: Turn = {
      start: turn.timing ? turn.timing.start : (sentAt - t0) / 1000,
      end: turn.timing ? turn.timing.end : (now() - t0) / 1000,
      role: speaker,
      text: turn.text,
    };
    if (turn.interrupted) record.interrupted = true;
    if (speaker === 'agent') {
      const latency = turn.timing
        ? turn.timing.latencyMs
        : (relay.firstOutputAt ?? performance.now()) - sentAt;
      if (latency !== undefined) {
        record.latencyMs = latency;
        run.latencies.push(latency);
      }
    }
    run.turns.push(record);
    if (turn.stopReason) {
      stop = turn.stopReason;
      break;
    }
    const decision = rules.afterTurn(speaker, turn, counts, deadline, now());
    if (decision) {
      stop = decision.reason;
      if (decision.token !== undefined) run.stopToken = decision.token;
      break;
    }
    text = turn.text.trim() === '' ? '...' : turn.text;
    speaker = speaker === 'agent' ? 'user' : 'agent';
  }
  run.stopReason = stop;
}

/**
 * The evaluation bridge for one scenario: connect to the agent and user bots, load the
 * scenario into both, run the conversation through a relay (text mode: finished turns relayed
 * as `send-text`; audio mode: each bot's speech relayed to the other as its microphone), keep
 * dual-control shadow states in sync, stop on a stop rule, then pull
 * context histories and summaries. The parts live beside this file: the bot connection and its
 * events, scenario setup, turn assembly and the relay, stop rules, cross-side sync, and the
 * conversation loop.
 */
import type { ScriptedFault } from '@scenaro/agent';
import type { DbCache } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario } from '@scenaro/domains';
import { parseFinalResponseText } from '@scenaro/sdk/protocol';
import type { GetContextHistoryResult, GetScenarioSummaryResult } from '@scenaro/sdk/protocol';
import { AudioRelay } from './audio-relay.js';
import type { RelayClock } from './audio-timeline.js';
import type { DuplexOptions } from './duplex.js';
import { dispatchBotEvent } from './bot-events.js';
import type { BotEventHandlers } from './bot-events.js';
import { BotConnection, BotConnectError } from './bot-connection.js';
import { converse } from './conversation.js';
import { TextRelay } from './relay.js';
import type { TurnRelay } from './relay.js';
import { setUpScenario } from './scenario-setup.js';
import { StopRules } from './stop-rules.js';
import { ShadowSync } from './sync.js';
import { addTokenUsage, emptyTokenUsage } from './token-usage.js';
import { byStart } from './types.js';
import type { BotRole, BridgeFailure, ScenarioRun } from './types.js';
import { errorMessage } from '@scenaro/sdk/util';

/** Options of one bridged scenario. */
export interface BridgeOptions {
  agentUrl: string;
  userUrl: string;
  token?: string;
  /** The scenario's domain: sync producer and tools for the shadow states. */
  domain: EvalDomain;
  /** Data root for shadow dbs (must match the bots'). */
  dataRoot: string;
  /** Shared db cache for shadow states. */
  dbCache?: DbCache;
  /** Conversation time limit in seconds (default: the scenario's). */
  durationSeconds?: number;
  /** Most turns (agent and user counted separately). @default 30 */
  maxTurns?: number;
  /** Give the bots the gold plan under `scripted_plan` (for scripted policies). @default true */
  includePlan?: boolean;
  /** Faults to inject into the scripted reference agent. */
  faults?: ScriptedFault[];
  /** Deadline of each control request, ms. @default 15000 */
  requestTimeoutMs?: number;
  /** Text that starts the conversation. @default 'Hello' */
  kickoff?: string;
  /** Expected agent db hash: on a mismatch the bridge also pulls the db, for a diff. */
  expectedDbHash?: string;
  /**
   * For bots that do not push `turn-complete` (e.g. a Pipecat bot in text mode): a turn ends
   * this long after the last `bot-llm-stopped` with no function call running. @default 1500
   */
  turnQuietMs?: number;
  /** Extra data roots for shadow dbs (domains' shipped data). */
  extraDataRoots?: readonly string[];
  /** Audio mode: relay the bots' speech instead of their text. */
  audio?: AudioModeOptions;
}

/** How audio mode relays and times the bots' speech. */
export interface AudioModeOptions {
  /** `realtime` (any bot) or `fast` (bots that send audio as soon as it is made). */
  clock: RelayClock;
  /** Fast clock: silence relayed after each bot's speech, ms. @default 1600 */
  tailMs?: number;
  /**
   * Wall time a bot may take to start speaking when it is its turn, s, restarted whenever it
   * reports hearing something. @default 30; on the fast clock 120 (or as long as the other bot's
   * last speech lasted) until the bot has the final transcript of everything it heard
   */
  responseTimeoutSeconds?: number;
  /** Longest turn, audio time, s. @default 600 */
  maxTurnSeconds?: number;
  /**
   * Fast clock, bots that report what they hear (`VoiceOptions.reportHeard`): full duplex, the
   * bots may talk over each other; with `caller`, the user's audio goes through the caller's line.
   */
  duplex?: DuplexOptions;
  /**
   * The bots whose recognizer is told what the other one said (the oracle, `oracle-said`)
   * rather than hearing it. @default none
   */
  tell?: readonly BotRole[];
}

/** Run one scenario through two bots. Never throws: failures are reported in `run.failure`. */
export async function runBridgedScenario(
  scenario: Scenario,
  options: BridgeOptions,
): Promise<ScenarioRun> {
  const bridge = new Bridge(scenario, options);
  return bridge.run();
}

class Bridge {
  readonly #scenario: Scenario;
  readonly #options: BridgeOptions;
  readonly #log: string[] = [];
  readonly #run: ScenarioRun;
  readonly #bots = new Map<BotRole, BotConnection>();
  readonly #rules: StopRules;
  readonly #relay: TurnRelay;
  readonly #audio: AudioRelay | undefined;
  readonly #sync: ShadowSync;
  readonly #handlers: BotEventHandlers;
  #disconnected: string | undefined;
  #phase: BridgeFailure['phase'] = 'connect';

  constructor(scenario: Scenario, options: BridgeOptions) {
    this.#scenario = scenario;
    this.#options = options;
    this.#run = {
      scenario: scenario.name,
      domain: scenario.domain,
      startedAt: new Date().toISOString(),
      durationSeconds: 0,
      stopReason: '[ERROR]',
      turns: [],
      finalResponses: [],
      tokenUsage: { agent: emptyTokenUsage(), user: emptyTokenUsage() },
      latencies: [],
      syncErrors: [],
      bridgeLog: this.#log,
    };
    const bot = (role: BotRole) => this.#bot(role);
    this.#rules = new StopRules(options.maxTurns ?? 30);
    const log = (line: string) => this.#log.push(line);
    const disconnected = () => this.#disconnected;
    const audio = options.audio;
    this.#audio = audio
      ? new AudioRelay({
          clock: audio.clock,
          bot,
          disconnected,
          log,
          ...(audio.tailMs !== undefined ? { tailMs: audio.tailMs } : {}),
          ...(audio.responseTimeoutSeconds !== undefined
            ? { responseTimeoutMs: audio.responseTimeoutSeconds * 1000 }
            : {}),
          ...(audio.maxTurnSeconds !== undefined ? { maxTurnMs: audio.maxTurnSeconds * 1000 } : {}),
          ...(audio.duplex ? { duplex: audio.duplex } : {}),
          ...(audio.tell ? { tell: audio.tell } : {}),
        })
      : undefined;
    this.#relay =
      this.#audio ??
      new TextRelay({
        bot,
        disconnected,
        exitOf: () => this.#rules.exit,
        turnQuietMs: options.turnQuietMs ?? 1500,
        log,
      });
    this.#sync = new ShadowSync(scenario, {
      domain: options.domain,
      dataRoot: options.dataRoot,
      ...(options.dbCache ? { dbCache: options.dbCache } : {}),
      ...(options.extraDataRoots ? { extraDataRoots: options.extraDataRoots } : {}),
      bot,
      errors: this.#run.syncErrors,
    });
    const relayMetrics = this.#relay.handlers.metrics;
    this.#handlers = {
      ...this.#relay.handlers,
      metrics: (role, event) => {
        addTokenUsage(this.#run.tokenUsage[role], event.tokens);
        relayMetrics?.(role, event);
      },
      'action-applied': (role, event) => this.#sync.onAction(role, event.action),
      'text-push': (role, event) => {
        if (role === 'agent') this.#onAgentText(event.text);
      },
    };
  }

  async run(): Promise<ScenarioRun> {
    const started = performance.now();
    try {
      await this.#connect();
      this.#phase = 'setup';
      await setUpScenario((role) => this.#bot(role), this.#scenario, {
        maxTurns: this.#options.maxTurns ?? 30,
        includePlan: this.#options.includePlan ?? true,
        ...(this.#options.faults ? { faults: this.#options.faults } : {}),
      });
      await this.#sync.start();
      this.#phase = 'conversation';
      await converse({
        relay: this.#relay,
        rules: this.#rules,
        run: this.#run,
        durationSeconds: this.#options.durationSeconds ?? this.#scenario.maxDurationSeconds,
        kickoff: this.#options.kickoff ?? 'Hello',
        settled: () => this.#sync.settled(),
        disconnected: () => this.#disconnected,
        ...(this.#audio ? { now: () => (this.#audio as AudioRelay).now() } : {}),
      });
      await this.#audio?.settle(undefined, Math.max(0, ...this.#run.turns.map((t) => t.end)));
      this.#audio?.dispose();
      // Full duplex: turns that overlapped were recorded as they ended; list them as they began.
      if (this.#options.audio?.duplex) this.#run.turns.sort(byStart);
      await this.#pull();
    } catch (err) {
      this.#fail(err);
    } finally {
      this.#relay.dispose();
      if (this.#audio) this.#run.audio = this.#audio.record();
      await Promise.allSettled([...this.#bots.values()].map((b) => b.close()));
      this.#run.durationSeconds = (performance.now() - started) / 1000;
    }
    return this.#run;
  }

  #fail(err: unknown): void {
    if (this.#run.failure) return;
    const message = errorMessage(err);
    const phase = this.#phase;
    const infrastructure =
      err instanceof BotConnectError ||
      this.#disconnected !== undefined ||
      /disconnected|not connected|timed out/.test(message);
    this.#run.failure = { phase, message, infrastructure };
    this.#run.stopReason = '[ERROR]';
    this.#log.push(`${new Date().toISOString()} | bridge | !! | ${phase} failed: ${message}`);
  }

  async #connect(): Promise<void> {
    this.#phase = 'connect';
    for (const role of ['user', 'agent'] as const) {
      const url = role === 'agent' ? this.#options.agentUrl : this.#options.userUrl;
      const bot = await BotConnection.open({
        role,
        url,
        ...(this.#options.token ? { token: this.#options.token } : {}),
        requestTimeoutMs: this.#options.requestTimeoutMs ?? 15000,
        log: (line) => this.#log.push(line),
        onEvent: (event) => dispatchBotEvent(this.#handlers, role, event),
        ...(this.#audio
          ? { onAudio: (frame) => (this.#audio as AudioRelay).audio(role, frame) }
          : {}),
        onClose: (code, reason) => {
          this.#disconnected = `${role} bot disconnected (${code} ${reason})`;
          this.#relay.botClosed(role);
        },
      });
      this.#bots.set(role, bot);
    }
  }

  #bot(role: BotRole): BotConnection {
    const bot = this.#bots.get(role);
    if (!bot) throw new Error(`${role} bot is not connected`);
    return bot;
  }

  /** The agent pushed text: `<exit>` (a stop rule) or a `<final_response>`. */
  #onAgentText(text: string): void {
    this.#rules.noteAgentText(text);
    const final = parseFinalResponseText(text);
    if (final !== undefined) this.#run.finalResponses.push(final);
  }

  async #pull(): Promise<void> {
    this.#phase = 'pull';
    await this.#sync.settled();
    const includeDb = this.#scenario.dbStateAssertions.length > 0;
    const [agentContext, userContext, agentSummary, userSummary] = await Promise.all([
      this.#bot('agent').request<GetContextHistoryResult>('get_context_history', {
        format: 'json',
      }),
      this.#bot('user').request<GetContextHistoryResult>('get_context_history', { format: 'json' }),
      this.#bot('agent').request<GetScenarioSummaryResult>('get_scenario_summary', {
        include_db: includeDb,
      }),
      this.#bot('user').request<GetScenarioSummaryResult>('get_scenario_summary', {
        include_db: includeDb,
      }),
    ]);
    this.#run.agentContext = parseContext(agentContext?.context);
    this.#run.userContext = parseContext(userContext?.context);
    this.#run.agentSummary = agentSummary;
    this.#run.userSummary = userSummary;
    const expected = this.#options.expectedDbHash;
    if (expected && agentSummary.db_hash !== expected && agentSummary.db === undefined) {
      try {
        const withDb = await this.#bot('agent').request<GetScenarioSummaryResult>(
          'get_scenario_summary',
          { include_db: true },
        );
        this.#run.agentSummary = { ...agentSummary, db: withDb.db };
      } catch (err) {
        this.#log.push(
          `${new Date().toISOString()} | bridge | !! | could not pull the db for a diff: ${(err as Error).message}`,
        );
      }
    }
  }
}

function parseContext(context: unknown): unknown {
  if (typeof context !== 'string') return context;
  try {
    return JSON.parse(context);
  } catch {
    return context;
  }
}

/**
 * The evaluation bridge for one scenario, in text mode: connect to the agent and
 * user bots, load the scenario into both (every request awaited and id-matched),
 * relay finished turns between them as `send-text`, keep telecom-style shadow
 * states in sync, stop on `<exit>`, a user stop token, a turn limit or the
 * duration, then pull context histories and summaries.
 */
import {
  applyInitialization,
  DbCache,
  DomainRegistry,
  executeToolByName,
  registerControlTools,
  SCRIPTED_PLAN_KEY,
  createScenarioState,
  findUserStopToken,
} from '@scenaro/agent';
import type { Db, JsonObject, ScenarioState, ScriptedFault } from '@scenaro/agent';
import type { EvalDomain, Scenario, Side } from '@scenaro/domains';
import { isExitText, parseFinalResponseText } from '@scenaro/sdk/protocol';
import type {
  ActionRecord,
  ApplyInitializationResult,
  ApplySyncDeltaResult,
  GetContextHistoryResult,
  GetScenarioSummaryResult,
  RTVIMessage,
} from '@scenaro/sdk/protocol';
import { BotConnection, BotConnectError } from './bot-connection.js';
import type { BotRole } from './bot-connection.js';
import type { ScenarioRun, SideTokenUsage, StopReason, Turn } from './types.js';

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
}

function emptyUsage(): SideTokenUsage {
  return { n_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, models: [] };
}

interface TurnWaiter {
  resolve: (turn: { text: string; exit?: string; interrupted: boolean }) => void;
}

/** Shadow states for dual-control sync, as the bridge keeps them. */
interface Shadow {
  registry: DomainRegistry;
  agent: ScenarioState;
  user: ScenarioState;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
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
  readonly #waiters = new Map<BotRole, TurnWaiter[]>();
  readonly #pendingTurns = new Map<
    BotRole,
    { text: string; exit?: string; interrupted: boolean }[]
  >();
  #syncQueue: Promise<void> = Promise.resolve();
  /** Per bot: does it push `turn-complete`? Until it does, turns are inferred from LLM events. */
  readonly #pushesTurns = new Set<BotRole>();
  readonly #inferred = new Map<
    BotRole,
    { text: string; calls: number; timer?: ReturnType<typeof setTimeout> }
  >();
  #shadow: Shadow | undefined;
  #exit: string | undefined;
  #disconnected: string | undefined;
  #t0 = 0;
  #firstTextAt: number | undefined;

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
      tokenUsage: { agent: emptyUsage(), user: emptyUsage() },
      latencies: [],
      syncErrors: [],
      bridgeLog: this.#log,
    };
  }

  async run(): Promise<ScenarioRun> {
    const started = performance.now();
    try {
      await this.#connect();
      await this.#setup();
      await this.#converse();
      await this.#pull();
    } catch (err) {
      this.#fail(err);
    } finally {
      for (const role of ['agent', 'user'] as const) this.#cancelInference(role);
      await Promise.allSettled([...this.#bots.values()].map((b) => b.close()));
      this.#run.durationSeconds = (performance.now() - started) / 1000;
    }
    return this.#run;
  }

  #fail(err: unknown): void {
    if (this.#run.failure) return;
    const message = err instanceof Error ? err.message : String(err);
    const phase = this.#phase;
    const infrastructure =
      err instanceof BotConnectError ||
      this.#disconnected !== undefined ||
      /disconnected|not connected|timed out/.test(message);
    this.#run.failure = { phase, message, infrastructure };
    this.#run.stopReason = '[ERROR]';
    this.#log.push(`${new Date().toISOString()} | bridge | !! | ${phase} failed: ${message}`);
  }

  #phase: 'connect' | 'setup' | 'conversation' | 'pull' = 'connect';

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
        onEvent: (message) => this.#onEvent(role, message),
        onClose: (code, reason) => {
          this.#disconnected = `${role} bot disconnected (${code} ${reason})`;
          for (const waiter of this.#waiters.get(role) ?? [])
            waiter.resolve({ text: '', interrupted: true });
          this.#waiters.set(role, []);
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

  #sharedStateInit(side: Side): JsonObject {
    const setup = side === 'agent' ? this.#scenario.agent : this.#scenario.user;
    const state: JsonObject = { ...setup.sharedStateInit };
    if (this.#options.includePlan ?? true) {
      state[SCRIPTED_PLAN_KEY] = {
        actions: this.#scenario.referenceActions.map((a) => ({
          name: a.name,
          arguments: a.arguments,
          side: a.side,
        })),
        max_turns: this.#options.maxTurns ?? 30,
        ...(side === 'agent' && this.#options.faults?.length
          ? { faults: this.#options.faults }
          : {}),
        ...(side === 'user' ? { opening: openingOf(this.#scenario.userInstructions) } : {}),
      };
    }
    return state;
  }

  async #setup(): Promise<void> {
    this.#phase = 'setup';
    const agent = this.#bot('agent');
    const user = this.#bot('user');
    const [agentReset, userReset] = await Promise.all([
      agent.request('reset', {}),
      user.request('reset', {}),
    ]);
    if (agentReset !== true || userReset !== true) throw new Error('reset returned false');
    for (const [role, setup] of [
      ['user', this.#scenario.user],
      ['agent', this.#scenario.agent],
    ] as const) {
      const ok = await this.#bot(role).request('update_system_prompt', {
        prompt: setup.prompt,
        tools: JSON.stringify(setup.tools),
        add_suffix: false,
        tool_domain: setup.toolDomain,
      });
      if (ok !== true) {
        throw new Error(
          `update_system_prompt returned false on the ${role} bot (unknown tool or empty prompt?)`,
        );
      }
    }
    for (const side of ['agent', 'user'] as const) {
      const result = await this.#bot(side).request<ApplyInitializationResult>(
        'apply_initialization',
        {
          domain: this.#scenario.domain,
          shared_state_init: JSON.stringify(this.#sharedStateInit(side)),
          actions: this.#scenario.initializationActions
            .filter((a) => a.side === side)
            .map((a) => ({ func_name: a.func_name, arguments: a.arguments ?? {}, side })),
        },
      );
      if (!result.success) {
        throw new Error(
          `apply_initialization failed on the ${side} bot: ${result.errors.join('; ')}`,
        );
      }
    }
    if (this.#options.domain.syncState) {
      await this.#buildShadow();
      await this.#sync();
    }
  }

  async #buildShadow(): Promise<void> {
    const registry = registerControlTools(
      new DomainRegistry().register(this.#options.domain.module),
    );
    const source = {
      dataRoot: this.#options.dataRoot,
      cache: this.#options.dbCache ?? new DbCache(),
      ...(this.#options.extraDataRoots ? { extraRoots: this.#options.extraDataRoots } : {}),
    };
    const shadow: Shadow = { registry, agent: createScenarioState(), user: createScenarioState() };
    for (const side of ['agent', 'user'] as const) {
      const setup = side === 'agent' ? this.#scenario.agent : this.#scenario.user;
      const state = shadow[side];
      state.toolDomain = setup.toolDomain;
      for (const name of Object.keys(setup.tools)) {
        const found = registry.findTool(setup.toolDomain, name);
        if (found)
          state.tools.set(found.tool.name, { tool: found.tool, domain: found.domain, options: {} });
      }
      const result = await applyInitialization(
        state,
        {
          domain: this.#scenario.domain,
          shared_state_init: JSON.stringify(setup.sharedStateInit),
          actions: this.#scenario.initializationActions.filter((a) => a.side === side),
        },
        registry,
        source,
      );
      if (!result.success) throw new Error(`shadow ${side} state: ${result.errors.join('; ')}`);
    }
    this.#shadow = shadow;
  }

  /** Compute deltas from the shadow dbs, apply them to the shadows and send them to the bots. */
  async #sync(): Promise<void> {
    const shadow = this.#shadow;
    const syncState = this.#options.domain.syncState;
    if (!shadow || !syncState || !shadow.agent.db || !shadow.user.db) return;
    const deltas = syncState(shadow.agent.db, shadow.user.db);
    for (const side of ['agent', 'user'] as const) {
      const delta = deltas[side];
      if (!isObject(delta) || Object.keys(delta).length === 0) continue;
      const applier = shadow.registry.syncApplier(this.#scenario.domain);
      const local = applier?.(shadow[side].db as Db, delta);
      if (local && local.errors.length > 0)
        this.#run.syncErrors.push(...local.errors.map((e) => `shadow ${side}: ${e}`));
      const reply = await this.#bot(side).request<ApplySyncDeltaResult>('apply_sync_delta', {
        domain: this.#scenario.domain,
        delta,
      });
      if (!reply.success)
        this.#run.syncErrors.push(...reply.errors.map((e) => `${side} bot: ${e}`));
    }
  }

  #onEvent(role: BotRole, message: RTVIMessage): void {
    if (message.type === 'metrics') {
      const tokens = (
        message.data as {
          tokens?: {
            model?: string;
            prompt_tokens?: number;
            completion_tokens?: number;
            total_tokens?: number;
          }[];
        }
      )?.tokens;
      const usage = this.#run.tokenUsage[role];
      for (const t of tokens ?? []) {
        usage.n_calls += 1;
        usage.prompt_tokens += t.prompt_tokens ?? 0;
        usage.completion_tokens += t.completion_tokens ?? 0;
        usage.total_tokens += t.total_tokens ?? 0;
        if (t.model && !usage.models.includes(t.model)) usage.models.push(t.model);
      }
      return;
    }
    if (message.type === 'bot-llm-text') {
      if (role === 'agent') this.#firstTextAt ??= performance.now();
      const text = (message.data as { text?: unknown } | undefined)?.text;
      if (typeof text === 'string') this.#inferredTurn(role).text += text;
      return;
    }
    if (message.type === 'bot-llm-started') {
      this.#cancelInference(role);
      return;
    }
    if (message.type === 'llm-function-call-in-progress') {
      this.#inferredTurn(role).calls++;
      this.#cancelInference(role);
      return;
    }
    if (message.type === 'llm-function-call-stopped') {
      const turn = this.#inferredTurn(role);
      turn.calls = Math.max(0, turn.calls - 1);
      return;
    }
    if (message.type === 'bot-llm-stopped') {
      this.#scheduleInference(role);
      return;
    }
    if (message.type !== 'server-message' || !isObject(message.data)) return;
    const data = message.data;
    if (data['type'] === 'action-applied' && isObject(data['action'])) {
      const action = data['action'] as unknown as ActionRecord;
      this.#syncQueue = this.#syncQueue
        .then(() => this.#onAction(role, action))
        .catch((err: unknown) => {
          this.#run.syncErrors.push(
            `sync after ${action.name} on the ${role} bot: ${(err as Error).message}`,
          );
        });
      return;
    }
    if (data['type'] === 'turn-complete') {
      this.#pushesTurns.add(role);
      this.#cancelInference(role);
      this.#inferred.delete(role);
      const turn: { text: string; exit?: string; interrupted: boolean } = {
        text: typeof data['text'] === 'string' ? data['text'] : '',
        interrupted: data['interrupted'] === true,
      };
      if (typeof data['exit'] === 'string') turn.exit = data['exit'];
      this.#deliverTurn(role, turn);
      return;
    }
    if (typeof data['text'] === 'string' && role === 'agent') {
      if (isExitText(data['text'])) this.#exit = data['text'];
      const final = parseFinalResponseText(data['text']);
      if (final !== undefined) this.#run.finalResponses.push(final);
    }
  }

  #deliverTurn(role: BotRole, turn: { text: string; exit?: string; interrupted: boolean }): void {
    const waiter = this.#waiters.get(role)?.shift();
    if (waiter) waiter.resolve(turn);
    else this.#pendingTurns.set(role, [...(this.#pendingTurns.get(role) ?? []), turn]);
  }

  #inferredTurn(role: BotRole): {
    text: string;
    calls: number;
    timer?: ReturnType<typeof setTimeout>;
  } {
    let turn = this.#inferred.get(role);
    if (!turn) {
      turn = { text: '', calls: 0 };
      this.#inferred.set(role, turn);
    }
    return turn;
  }

  #cancelInference(role: BotRole): void {
    const turn = this.#inferred.get(role);
    if (turn?.timer) clearTimeout(turn.timer);
    if (turn) delete turn.timer;
  }

  /** A bot without `turn-complete` pushes: its turn ends after a quiet period with no call running. */
  #scheduleInference(role: BotRole): void {
    if (this.#pushesTurns.has(role)) return;
    const turn = this.#inferredTurn(role);
    this.#cancelInference(role);
    if (turn.calls > 0) return;
    turn.timer = setTimeout(() => {
      if (this.#pushesTurns.has(role)) return;
      this.#inferred.delete(role);
      this.#log.push(
        `${new Date().toISOString()} | ${role.padEnd(5)} | -- | turn end inferred (no turn-complete push)`,
      );
      const inferred: { text: string; exit?: string; interrupted: boolean } = {
        text: turn.text.trim(),
        interrupted: false,
      };
      if (role === 'agent' && this.#exit !== undefined) inferred.exit = this.#exit;
      this.#deliverTurn(role, inferred);
    }, this.#options.turnQuietMs ?? 1500);
  }

  async #onAction(role: BotRole, action: ActionRecord): Promise<void> {
    const shadow = this.#shadow;
    if (!shadow) return;
    const outcome = await executeToolByName(shadow[role], action.name, action.arguments);
    if (!outcome.ok)
      this.#run.syncErrors.push(
        `shadow ${role}: ${action.name} failed: ${outcome.error ?? 'unknown error'}`,
      );
    await this.#sync();
  }

  #nextTurn(
    role: BotRole,
    deadline: number,
  ): Promise<{ text: string; exit?: string; interrupted: boolean } | 'timeout'> {
    const queued = this.#pendingTurns.get(role)?.shift();
    if (queued) return Promise.resolve(queued);
    if (this.#disconnected) return Promise.reject(new Error(this.#disconnected));
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - performance.now()));
      const waiters = this.#waiters.get(role) ?? [];
      waiters.push({
        resolve: (turn) => {
          clearTimeout(timer);
          resolve(turn);
        },
      });
      this.#waiters.set(role, waiters);
    });
  }

  #elapsed(): number {
    return (performance.now() - this.#t0) / 1000;
  }

  async #converse(): Promise<void> {
    this.#phase = 'conversation';
    const duration = this.#options.durationSeconds ?? this.#scenario.maxDurationSeconds;
    const maxTurns = this.#options.maxTurns ?? 30;
    this.#t0 = performance.now();
    const deadline = this.#t0 + duration * 1000;
    let speaker: BotRole = 'agent';
    let text = this.#options.kickoff ?? 'Hello';
    let counts = { agent: 0, user: 0 };
    let stop: StopReason | undefined;
    while (!stop) {
      const listener = this.#bot(speaker);
      const sentAt = performance.now();
      this.#firstTextAt = undefined;
      listener.sendText(text, { run_immediately: true, audio_response: false });
      const turn = await this.#nextTurn(speaker, deadline);
      if (turn === 'timeout') {
        stop = '[TIMEOUT]';
        break;
      }
      if (this.#disconnected) throw new Error(this.#disconnected);
      await this.#syncQueue;
      counts = { ...counts, [speaker]: counts[speaker] + 1 };
      const record: Turn = {
        start: (sentAt - this.#t0) / 1000,
        end: this.#elapsed(),
        role: speaker,
        text: turn.text,
      };
      if (turn.interrupted) record.interrupted = true;
      if (speaker === 'agent') {
        const latency = (this.#firstTextAt ?? performance.now()) - sentAt;
        record.latencyMs = latency;
        this.#run.latencies.push(latency);
      }
      this.#run.turns.push(record);
      if (speaker === 'agent' && (turn.exit !== undefined || this.#exit !== undefined)) {
        stop = '[EXIT]';
        break;
      }
      if (speaker === 'user') {
        const token = findUserStopToken(turn.text);
        if (token) {
          stop = '[USER_STOP]';
          this.#run.stopToken = token;
          break;
        }
      }
      if (counts.agent >= maxTurns && counts.user >= maxTurns) {
        stop = '[MAX_TURNS]';
        break;
      }
      if (performance.now() >= deadline) {
        stop = '[TIMEOUT]';
        break;
      }
      text = turn.text.trim() === '' ? '...' : turn.text;
      speaker = speaker === 'agent' ? 'user' : 'agent';
    }
    this.#run.stopReason = stop;
  }

  async #pull(): Promise<void> {
    this.#phase = 'pull';
    await this.#syncQueue;
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
          {
            include_db: true,
          },
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

/** The scripted user's first words: the start of its instructions, on one line. */
function openingOf(instructions: string): string {
  const flat = instructions.replace(/\s+/g, ' ').trim();
  if (!flat) return 'Hello, I need some help.';
  return flat.length > 600 ? `${flat.slice(0, 597)}...` : flat;
}

function parseContext(context: unknown): unknown {
  if (typeof context !== 'string') return context;
  try {
    return JSON.parse(context);
  } catch {
    return context;
  }
}

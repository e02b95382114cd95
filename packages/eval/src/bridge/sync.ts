/**
 * Cross-side sync for dual-control domains (telecom): the bridge keeps a shadow state of each
 * bot, replays every `action-applied` on the shadow of its side, asks the domain's `syncState`
 * for the deltas between the two shadow dbs, applies them to the shadows and sends them to the
 * bots as `apply_sync_delta`, awaiting each reply. Actions are handled one at a time, in order.
 */
import {
  DbCache,
  DomainRegistry,
  applyInitialization,
  createScenarioState,
  executeToolByName,
  registerControlTools,
} from '@scenaro/agent/scenario';
import type { Db, ScenarioState } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario } from '@scenaro/domains';
import type { ActionRecord, ApplySyncDeltaResult } from '@scenaro/sdk/protocol';
import type { BotConnection } from './bot-connection.js';
import type { BotRole } from './types.js';
import { isJsonObject } from '@scenaro/sdk/util';

export interface ShadowSyncOptions {
  /** The scenario's domain: its `syncState` and tools. */
  domain: EvalDomain;
  /** Data root for shadow dbs (must match the bots'). */
  dataRoot: string;
  /** Shared db cache for shadow states. */
  dbCache?: DbCache;
  /** Extra data roots for shadow dbs (domains' shipped data). */
  extraDataRoots?: readonly string[];
  /** The connected bot of a role. */
  bot: (role: BotRole) => BotConnection;
  /** Where sync and shadow failures are reported. */
  errors: string[];
}

/** Shadow states for dual-control sync, as the bridge keeps them. */
interface Shadow {
  registry: DomainRegistry;
  agent: ScenarioState;
  user: ScenarioState;
}

/** Keeps the two bots' dbs in sync through shadow states (a no-op without `syncState`). */
export class ShadowSync {
  readonly #scenario: Scenario;
  readonly #options: ShadowSyncOptions;
  #shadow: Shadow | undefined;
  #queue: Promise<void> = Promise.resolve();

  constructor(scenario: Scenario, options: ShadowSyncOptions) {
    this.#scenario = scenario;
    this.#options = options;
  }

  /** Build the shadows from the scenario's initialization and send the first deltas. */
  async start(): Promise<void> {
    if (!this.#options.domain.syncState) return;
    await this.#buildShadow();
    await this.#sync();
  }

  /** A write tool ran on `role`'s bot: replay it on the shadow and sync (queued). */
  onAction(role: BotRole, action: ActionRecord): void {
    this.#queue = this.#queue
      .then(() => this.#onAction(role, action))
      .catch((err: unknown) => {
        this.#options.errors.push(
          `sync after ${action.name} on the ${role} bot: ${(err as Error).message}`,
        );
      });
  }

  /** Resolves once every action so far is synced. */
  settled(): Promise<void> {
    return this.#queue;
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
      if (!isJsonObject(delta) || Object.keys(delta).length === 0) continue;
      const applier = shadow.registry.syncApplier(this.#scenario.domain);
      const local = applier?.(shadow[side].db as Db, delta);
      if (local && local.errors.length > 0)
        this.#options.errors.push(...local.errors.map((e) => `shadow ${side}: ${e}`));
      const reply = await this.#options
        .bot(side)
        .request<ApplySyncDeltaResult>('apply_sync_delta', {
          domain: this.#scenario.domain,
          delta,
        });
      if (!reply.success)
        this.#options.errors.push(...reply.errors.map((e) => `${side} bot: ${e}`));
    }
  }

  async #onAction(role: BotRole, action: ActionRecord): Promise<void> {
    const shadow = this.#shadow;
    if (!shadow) return;
    const outcome = await executeToolByName(shadow[role], action.name, action.arguments);
    if (!outcome.ok)
      this.#options.errors.push(
        `shadow ${role}: ${action.name} failed: ${outcome.error ?? 'unknown error'}`,
      );
    await this.#sync();
  }
}

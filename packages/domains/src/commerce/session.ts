/**
 * A commerce session outside a bot: a fresh state with the shipped db, every commerce tool
 * bound, optionally a signed-in shopper. For tests, demos and notebooks.
 *
 * @module
 */
import {
  applyInitialization,
  createScenarioState,
  DbCache,
  DomainRegistry,
  executeToolByName,
} from '@scenaro/agent/scenario';
import type { ScenarioState, ToolCallOutcome } from '@scenaro/agent/scenario';
import type { InitializationAction } from '@scenaro/sdk/protocol';
import { COMMERCE_DATA_ROOT, COMMERCE_DB_PATH, COMMERCE_DOMAIN } from './data-root.js';
import { commerceDomain } from './domain.js';

/** Options of {@link createCommerceSession}. */
export interface CommerceSessionOptions {
  /** Shopper to sign in (`sign_in`), e.g. `u_001`. */
  userId?: string;
  /** More initialization actions, run after signing in. */
  initialization?: InitializationAction[];
  /** Data root holding `commerce/db.json`; the shipped one by default. */
  dataRoot?: string;
  /** Parse cache to share between sessions. */
  cache?: DbCache;
}

/** A live commerce session. */
export interface CommerceSession {
  state: ScenarioState;
  /** Call a tool by name as the bot would (validation, defaults, action records). */
  call(name: string, args?: unknown): Promise<ToolCallOutcome>;
}

let sharedCache: DbCache | undefined;

/**
 * Start a commerce session.
 * @throws Error listing the initialization errors when it fails.
 */
export async function createCommerceSession(
  options: CommerceSessionOptions = {},
): Promise<CommerceSession> {
  const registry = new DomainRegistry().register(commerceDomain);
  const state = createScenarioState();
  state.toolDomain = COMMERCE_DOMAIN;
  for (const tool of registry.toolsOf(COMMERCE_DOMAIN)) {
    state.tools.set(tool.name, { tool, domain: COMMERCE_DOMAIN, options: {} });
  }
  const actions: InitializationAction[] = [
    ...(options.userId === undefined
      ? []
      : [{ func_name: 'sign_in', arguments: { user_id: options.userId } }]),
    ...(options.initialization ?? []),
  ];
  const result = await applyInitialization(
    state,
    {
      domain: COMMERCE_DOMAIN,
      shared_state_init: JSON.stringify({ db_path: COMMERCE_DB_PATH }),
      actions,
    },
    registry,
    {
      dataRoot: options.dataRoot ?? COMMERCE_DATA_ROOT,
      cache: options.cache ?? (sharedCache ??= new DbCache()),
    },
  );
  if (!result.success)
    throw new Error(`commerce session initialization failed:\n${result.errors.join('\n')}`);
  return { state, call: (name, args = {}) => executeToolByName(state, name, args) };
}

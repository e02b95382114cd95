/**
 * The demo store: the commerce data a demo serves (store name, signed-in shopper, the
 * assistant's prompt, the frontend tools the page registers) and the setup of each bot
 * session's store (commerce tools bound, the shipped db with the shopper signed in).
 */
import { applyInitialization } from '@scenaro/agent/scenario';
import type { BotSession } from '@scenaro/agent';
import {
  COMMERCE_DATA_ROOT,
  COMMERCE_DB_PATH,
  COMMERCE_DOMAIN,
  buildAgentPrompt,
  commerceDomain,
  createCommerceSession,
  loadCommercePolicy,
} from '@scenaro/domains';
import type { DemoConfig } from '../shared/demo-protocol.js';

/** The shopper every demo session signs in. */
export const DEMO_SHOPPER_ID = 'u_001';

/** What every session of one demo shares. */
export interface DemoStore {
  /** The folder holding `commerce/db.json`. */
  dataRoot: string;
  storeName: string;
  shopper: DemoConfig['shopper'];
  /** The assistant's system prompt. */
  prompt: string;
  /** The commerce domain's frontend tools, as the page registers them. */
  tools: DemoConfig['tools'];
}

/**
 * Read the store from `dataRoot` (the shipped data by default): checks the data now, rather
 * than on the first connection, and learns the shopper's name.
 */
export async function loadDemoStore(dataRoot?: string): Promise<DemoStore> {
  const root = dataRoot ?? COMMERCE_DATA_ROOT;
  const probe = await createCommerceSession({ userId: DEMO_SHOPPER_ID, dataRoot: root });
  const db = probe.state.db as {
    meta: { store_name: string };
    users: { id: string; name: string }[];
  };
  const name = db.users.find((u) => u.id === DEMO_SHOPPER_ID)?.name ?? DEMO_SHOPPER_ID;
  const policy = await loadCommercePolicy(dataRoot).catch(() => loadCommercePolicy());
  const prompt = buildAgentPrompt(
    policy,
    `The shopper, ${name}, is signed in and looking at the store page: ` +
      'whenever you present products, show them with show_products, show_product or show_comparison. ' +
      'The shopper can also change the cart and the selection on the page, so read them with get_cart ' +
      'or get_selection before relying on what they hold.',
  );
  const tools = (commerceDomain.tools ?? [])
    .filter((tool) => tool.kind === 'frontend')
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      feature: tool.frontend?.feature ?? tool.name,
      ...(tool.frontend?.timeoutMs ? { timeout_ms: tool.frontend.timeoutMs } : {}),
    }));
  return {
    dataRoot: root,
    storeName: db.meta.store_name,
    shopper: { id: DEMO_SHOPPER_ID, name },
    prompt,
    tools,
  };
}

/**
 * Give a new bot session its store: the commerce tools bound, the system prompt, and the
 * shipped db with the demo shopper signed in (resolves when loaded).
 */
export async function setUpStore(session: BotSession, prompt: string): Promise<void> {
  session.context.setSystemPrompt(prompt);
  session.state.toolDomain = COMMERCE_DOMAIN;
  session.state.tools = new Map(
    session.registry
      .toolsOf(COMMERCE_DOMAIN)
      .map((tool) => [tool.name, { tool, domain: COMMERCE_DOMAIN, options: {} }]),
  );
  const result = await applyInitialization(
    session.state,
    {
      domain: COMMERCE_DOMAIN,
      shared_state_init: JSON.stringify({ db_path: COMMERCE_DB_PATH }),
      actions: [{ func_name: 'sign_in', arguments: { user_id: DEMO_SHOPPER_ID } }],
    },
    session.registry,
    session.dbSource,
  );
  if (!result.success) throw new Error(`store setup failed: ${result.errors.join('; ')}`);
}

/**
 * `scenaro demo`: the demo storefront in one command. It serves the prebuilt page
 * (`apps/demo/dist`, built by the root `npm run build`; nothing is built here) and starts a bot
 * server for it on loopback: every connection gets its own commerce store session (the shipped
 * db, a signed-in shopper, every commerce tool bound), its conversation is the LLM policy when
 * `--llm-base-url` is given and the scripted shop assistant otherwise, and the page's clicks
 * reach that session's db through browser -> agent RPC methods (`demo_*`).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import {
  DomainRegistry,
  applyInitialization,
  createConversationEngine,
  executeToolByName,
  startBotServer,
} from '@scenaro/agent';
import type {
  BotServer,
  BotSession,
  ChatModel,
  ConversationHost,
  JsonObject,
  Logger,
} from '@scenaro/agent';
import {
  COMMERCE_DATA_ROOT,
  COMMERCE_DB_PATH,
  COMMERCE_DOMAIN,
  buildAgentPrompt,
  commerceDomain,
  createCommerceSession,
  createShopAssistantModel,
  loadCommercePolicy,
} from '@scenaro/domains';
import { chooseModel } from './serve.js';

/** Where the root build puts the page (`apps/demo/dist`), from `src/commands/` or `dist/commands/`. */
export const DEMO_STATIC_DIR: string = fileURLToPath(
  new URL('../../../../apps/demo/dist/', import.meta.url),
);

/** The shopper every demo session signs in. */
export const DEMO_SHOPPER_ID = 'u_001';

/** Browser -> agent methods each demo session answers (the page's `DEMO_METHODS`). */
export const DEMO_METHODS = {
  STATE: 'demo_state',
  PRODUCTS: 'demo_products',
  PRODUCT: 'demo_product',
  COMPARE: 'demo_compare',
  CART_ADD: 'demo_cart_add',
  CART_UPDATE: 'demo_cart_update',
  CART_REMOVE: 'demo_cart_remove',
  SELECTION_ADD: 'demo_selection_add',
  SELECTION_REMOVE: 'demo_selection_remove',
} as const;

/** Parsed `demo` options. */
export interface DemoOptions {
  host: string;
  /** Port of the page (0 picks a free one). */
  port: string;
  /** Port of the bot server (0 picks a free one). */
  botPort: string;
  /** Data root holding `commerce/db.json` (the shipped one by default). */
  dataRoot?: string;
  llmBaseUrl?: string;
  llmModel?: string;
  llmApiKeyEnv?: string;
  llmTimeoutMs?: string;
}

/** Programmatic extras of {@link startDemo}. */
export interface DemoRuntimeOptions {
  /** The built page. @default {@link DEMO_STATIC_DIR} */
  staticDir?: string;
  /** The bot server's logger. @default a pino logger on stderr */
  logger?: Logger;
}

/** A running demo. */
export interface DemoServer {
  /** `http://host:port/` of the page. */
  url: string;
  /** `ws://host:port` of the bot server. */
  botUrl: string;
  bot: BotServer;
  /** Which brain answers (for the page and logs). */
  assistant: { label: string; scripted: boolean };
  close(): Promise<void>;
}

function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${flag} must be an integer from 0 to 65535, got '${value}'`);
  }
  return port;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

/** A refused store call: its message goes back to the page as `{ok: false, error}`. */
class StoreRefusal extends Error {}

/** The fields of a product's details that a grid card needs. */
function summaryOf(details: JsonObject): JsonObject {
  const keys = ['product_id', 'name', 'brand', 'category', 'price', 'rating', 'review_count'];
  const summary: JsonObject = Object.fromEntries(keys.map((k) => [k, details[k]]));
  summary['in_stock'] = details['in_stock'];
  const variants = details['variants'];
  if (Array.isArray(variants)) {
    const options: Record<string, string[]> = {};
    for (const variant of variants) {
      if (!isObject(variant)) continue;
      for (const key of ['color', 'size', 'storage', 'switch']) {
        const value = variant[key];
        if (typeof value !== 'string') continue;
        const list = (options[key] ??= []);
        if (!list.includes(value)) list.push(value);
      }
    }
    summary['options'] = options;
  }
  return summary;
}

function productIds(args: JsonObject, max: number): string[] {
  const ids = args['product_ids'];
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > max ||
    !ids.every((id) => typeof id === 'string')
  ) {
    throw new StoreRefusal(`product_ids must be 1 to ${max} product ids`);
  }
  return ids as string[];
}

/**
 * Give a new bot session its store: the commerce tools bound, the system prompt, and the
 * shipped db with the demo shopper signed in (resolves when loaded).
 */
function setUpStore(session: BotSession, prompt: string): Promise<void> {
  session.context.setSystemPrompt(prompt);
  session.state.toolDomain = COMMERCE_DOMAIN;
  session.state.tools = new Map(
    session.registry
      .toolsOf(COMMERCE_DOMAIN)
      .map((tool) => [tool.name, { tool, domain: COMMERCE_DOMAIN, options: {} }]),
  );
  return applyInitialization(
    session.state,
    {
      domain: COMMERCE_DOMAIN,
      shared_state_init: JSON.stringify({ db_path: COMMERCE_DB_PATH }),
      actions: [{ func_name: 'sign_in', arguments: { user_id: DEMO_SHOPPER_ID } }],
    },
    session.registry,
    session.dbSource,
  ).then((result) => {
    if (!result.success) throw new Error(`store setup failed: ${result.errors.join('; ')}`);
  });
}

/**
 * Register the page's store methods on a session: reads and the shopper's own cart and
 * selection edits, run as commerce tool calls on that session's db (write calls are recorded
 * as actions and pushed as `action-applied`, like the agent's).
 */
function registerStoreMethods(session: BotSession, ready: Promise<void>): void {
  const tool = async (name: string, args: JsonObject): Promise<unknown> => {
    const outcome = await executeToolByName(session.state, name, args, {
      signal: session.signal,
      onAction: (action, domain) => session.actionApplied(action, domain),
    });
    if (!outcome.ok) throw new StoreRefusal(outcome.error ?? `${name} failed`);
    return outcome.result;
  };
  const method = (name: string, run: (args: JsonObject) => Promise<JsonObject>) => {
    session.rpc.registerMethod(name, async ({ payload }) => {
      await ready;
      try {
        const args: unknown = payload.trim() === '' ? {} : JSON.parse(payload);
        if (!isObject(args)) throw new StoreRefusal('the payload must be a JSON object');
        return JSON.stringify({ ok: true, ...(await run(args)) });
      } catch (err) {
        if (!(err instanceof StoreRefusal) && !(err instanceof SyntaxError)) throw err;
        return JSON.stringify({ ok: false, error: err.message });
      }
    });
  };
  const pick = (args: JsonObject, keys: string[]): JsonObject =>
    Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));

  method(DEMO_METHODS.STATE, async () => ({
    cart: await tool('get_cart', {}),
    selection: await tool('get_selection', {}),
  }));
  method(DEMO_METHODS.PRODUCTS, async (args) => {
    const products: JsonObject[] = [];
    for (const id of productIds(args, 12)) {
      products.push(
        summaryOf((await tool('get_product_details', { product_id: id })) as JsonObject),
      );
    }
    return { products };
  });
  method(DEMO_METHODS.PRODUCT, async (args) => ({
    product: await tool('get_product_details', pick(args, ['product_id'])),
  }));
  method(DEMO_METHODS.COMPARE, async (args) => ({
    comparison: await tool('compare_products', { product_ids: productIds(args, 4) }),
  }));
  method(DEMO_METHODS.CART_ADD, async (args) => {
    const result = (await tool('add_to_cart', pick(args, ['product_id', 'sku', 'quantity']))) as {
      cart: unknown;
    };
    return { cart: result.cart };
  });
  method(DEMO_METHODS.CART_UPDATE, async (args) => ({
    cart: await tool('update_cart_quantity', pick(args, ['sku', 'quantity'])),
  }));
  method(DEMO_METHODS.CART_REMOVE, async (args) => ({
    cart: await tool('remove_from_cart', pick(args, ['sku'])),
  }));
  method(DEMO_METHODS.SELECTION_ADD, async (args) => ({
    selection: await tool('add_to_selection', pick(args, ['product_id'])),
  }));
  method(DEMO_METHODS.SELECTION_REMOVE, async (args) => ({
    selection: await tool('remove_from_selection', pick(args, ['product_id'])),
  }));
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The file a request path maps to inside `root`, or undefined when it would leave it. */
function fileFor(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const file = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return file;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Start the demo: the bot server and the page server. Prints `demo ready at <url>`. */
export async function startDemo(
  options: DemoOptions,
  out: (line: string) => void = console.log,
  runtime: DemoRuntimeOptions = {},
): Promise<DemoServer> {
  const port = parsePort(options.port, '--port');
  const botPort = parsePort(options.botPort, '--bot-port');
  if ((options.llmBaseUrl === undefined) !== (options.llmModel === undefined)) {
    throw new Error('--llm-base-url and --llm-model go together');
  }
  const staticDir = path.resolve(runtime.staticDir ?? DEMO_STATIC_DIR);
  const indexFile = path.join(staticDir, 'index.html');
  if (!(await isFile(indexFile))) {
    throw new Error(
      `the demo page is not built (${indexFile} is missing): run \`npm run build\` at the repository root first`,
    );
  }
  const dataRoot = options.dataRoot ?? COMMERCE_DATA_ROOT;
  // Check the data now (and learn the shopper's name) rather than on the first connection.
  const probe = await createCommerceSession({ userId: DEMO_SHOPPER_ID, dataRoot });
  const probeDb = probe.state.db as {
    meta: { store_name: string };
    users: { id: string; name: string }[];
  };
  const shopper = probeDb.users.find((u) => u.id === DEMO_SHOPPER_ID);
  const storeName = probeDb.meta.store_name;

  const llm = options.llmBaseUrl !== undefined;
  const brain: { label: string; factory: (host: ConversationHost) => ChatModel } = llm
    ? chooseModel({
        profile: 'production',
        host: options.host,
        port: options.port,
        policy: 'llm',
        ...(options.llmBaseUrl ? { llmBaseUrl: options.llmBaseUrl } : {}),
        ...(options.llmModel ? { llmModel: options.llmModel } : {}),
        ...(options.llmApiKeyEnv ? { llmApiKeyEnv: options.llmApiKeyEnv } : {}),
        ...(options.llmTimeoutMs ? { llmTimeoutMs: options.llmTimeoutMs } : {}),
      })
    : {
        label: 'scripted shop assistant (not a language model)',
        factory: (host) => createShopAssistantModel(host),
      };
  const policy = await loadCommercePolicy(options.dataRoot).catch(() => loadCommercePolicy());
  const prompt = buildAgentPrompt(
    policy,
    `The shopper, ${shopper?.name ?? DEMO_SHOPPER_ID}, is signed in and looking at the store page: ` +
      'whenever you present products, show them with show_products, show_product or show_comparison. ' +
      'The shopper can also change the cart and the selection on the page, so read them with get_cart ' +
      'or get_selection before relying on what they hold.',
  );

  // Each session's store is ready once its db is loaded; the model waits for it.
  const ready = new WeakMap<object, Promise<void>>();
  const gated = (host: ConversationHost): ChatModel => {
    const model = brain.factory(host);
    return {
      processor: model.processor,
      model: model.model,
      scripted: model.scripted,
      async *stream(request) {
        await ready.get(host)?.catch(() => undefined);
        yield* model.stream(request);
      },
    };
  };

  const token = randomBytes(18).toString('base64url');
  const bot = await startBotServer({
    host: options.host,
    port: botPort,
    profile: 'production',
    registry: new DomainRegistry().register(commerceDomain),
    conversation: createConversationEngine({
      model: gated,
      functionCallReportLevel: { '*': 'FULL' },
    }),
    dataRoot,
    extraDataRoots: [COMMERCE_DATA_ROOT],
    token,
    ...(runtime.logger ? { logger: runtime.logger } : {}),
    onSession: (session) => {
      const loaded = setUpStore(session, prompt);
      loaded.catch((err: unknown) => session.log.error({ err }, 'demo store setup failed'));
      ready.set(session, loaded);
      registerStoreMethods(session, loaded);
    },
  });

  const frontendTools = commerceDomain.tools
    ?.filter((tool) => tool.kind === 'frontend')
    .map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      feature: tool.frontend?.feature ?? tool.name,
      ...(tool.frontend?.timeoutMs ? { timeout_ms: tool.frontend.timeoutMs } : {}),
    }));
  const assistant = { label: brain.label, scripted: !llm };
  const loopbackOnly = isLoopback(options.host);

  const wsUrlFor = (req: IncomingMessage): string => {
    const bound = bot.address;
    const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
    let host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
    if (wildcard) {
      const requested = new URL(`http://${req.headers.host ?? 'localhost'}`).hostname;
      host = requested || '127.0.0.1';
    }
    return `ws://${host}:${bound.port}`;
  };

  const send = (
    res: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...headers,
    });
    res.end(body);
  };

  const serveFile = async (req: IncomingMessage, res: ServerResponse, file: string) => {
    const info = await stat(file);
    const ext = path.extname(file);
    const immutable = path.relative(staticDir, file).startsWith(`assets${path.sep}`);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file).pipe(res);
  };

  const onRequest = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (loopbackOnly) {
      // Only loopback names: another site's DNS name pointing here must not read the config.
      const hostname = new URL(`http://${req.headers.host ?? 'localhost'}`).hostname;
      if (!isLoopback(hostname)) {
        send(res, 403, 'forbidden host');
        return;
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'method not allowed', { allow: 'GET, HEAD' });
      return;
    }
    if (url.pathname === '/config.json') {
      send(
        res,
        200,
        JSON.stringify({
          wsUrl: wsUrlFor(req),
          token,
          storeName,
          shopper: { id: DEMO_SHOPPER_ID, name: shopper?.name ?? DEMO_SHOPPER_ID },
          assistant,
          tools: frontendTools,
        }),
        { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      );
      return;
    }
    if (url.pathname === '/healthz') {
      send(res, 200, JSON.stringify({ status: 'ok', sessions: bot.sessionCount }), {
        'content-type': 'application/json; charset=utf-8',
      });
      return;
    }
    const file = fileFor(staticDir, url.pathname);
    if (file === undefined) {
      send(res, 400, 'bad path');
      return;
    }
    if (await isFile(file)) {
      await serveFile(req, res, file);
      return;
    }
    if (path.extname(url.pathname) !== '') {
      send(res, 404, 'not found');
      return;
    }
    await serveFile(req, res, indexFile); // any other page path: the app
  };

  const http: Server = createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      bot.log.error({ err, url: req.url }, 'demo page request failed');
      if (!res.headersSent) send(res, 500, 'internal error');
      else res.destroy();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, options.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await bot.close();
    throw err;
  }
  const address = http.address() as AddressInfo;
  const shown =
    address.address === '0.0.0.0'
      ? '127.0.0.1'
      : address.address === '::'
        ? '[::1]'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
  const pageUrl = `http://${shown}:${address.port}/`;
  out(`demo ready at ${pageUrl}`);
  out(`  assistant: ${assistant.label}; bot server at ${bot.url}`);

  let closed: Promise<void> | undefined;
  return {
    url: pageUrl,
    botUrl: bot.url,
    bot,
    assistant,
    close: () =>
      (closed ??= (async () => {
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await bot.close();
      })()),
  };
}

export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'Serve the demo storefront and a bot server for it on loopback: an agent drives the page through frontend tools.',
    )
    .option('--host <host>', 'address to bind (page and bot)', '127.0.0.1')
    .option('--port <port>', 'port of the page (0 picks a free one)', '4173')
    .option('--bot-port <port>', 'port of the bot server (0 picks a free one)', '0')
    .option('--data-root <dir>', 'folder holding commerce/db.json (default: the shipped data)')
    .option(
      '--llm-base-url <url>',
      'OpenAI-compatible endpoint for the assistant (default: the scripted shop assistant)',
    )
    .option('--llm-model <name>', 'model name for --llm-base-url')
    .option(
      '--llm-api-key-env <name>',
      'environment variable holding the API key (default OPENAI_API_KEY)',
    )
    .option('--llm-timeout-ms <ms>', 'per-request timeout of the LLM', '60000')
    .action(async (options: DemoOptions) => {
      const demo = await startDemo(options);
      console.log('  press Ctrl+C to stop');
      const stop = () => {
        void demo.close().then(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

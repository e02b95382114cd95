/**
 * The demo in one call: a bot server on which every connection gets its own commerce store
 * session (the shipped db, a signed-in shopper, every commerce tool bound, the page's store
 * methods), and the page server that hands the page its config. The conversation is the
 * scripted shop assistant unless another assistant (an LLM) is given; the bot hears and speaks
 * when a voice (speech engines) is given.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createConversationEngine, startBotServer } from '@scenaro/agent';
import { DomainRegistry } from '@scenaro/agent/scenario';
import type { BotServer, ChatModel, ConversationHost, Logger } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent/voice';
import { COMMERCE_DATA_ROOT, commerceDomain, createShopAssistantModel } from '@scenaro/domains';
import { errorMessage } from '@scenaro/sdk/util';
import type { DemoConfig, DemoVoice } from '../shared/demo-protocol.js';
import { demoPageDir } from './page-dir.js';
import { assertPageBuilt, startPageServer } from './page-server.js';
import { registerStoreMethods } from './store-methods.js';
import { loadDemoStore, setUpStore } from './store.js';

/** The brain that answers the shopper. */
export interface DemoAssistant {
  /** How the page and the logs name it. */
  label: string;
  /** True for a scripted policy (not a language model). @default false */
  scripted?: boolean;
  /** A chat model for one session. */
  model: (host: ConversationHost) => ChatModel;
}

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Address of the page and the bot server. @default '127.0.0.1' */
  host?: string;
  /** Port of the page (0 picks a free one). @default 4173 */
  port?: number;
  /** Port of the bot server (0 picks a free one). @default 0 */
  botPort?: number;
  /** Data root holding `commerce/db.json`. @default the shipped data */
  dataRoot?: string;
  /** @default the scripted shop assistant */
  assistant?: DemoAssistant;
  /**
   * The bot's speech engines (`scenaro demo` passes the offline ones, PocketSphinx and Flite,
   * unless its flags choose others). The caller closes them. @default none: text only
   */
  voice?: VoiceOptions;
  /** The built page. @default {@link demoPageDir} */
  pageDir?: string;
  /** The bot server's logger. @default a pino logger on stderr */
  logger?: Logger;
  /** Where the `demo ready at <url>` lines go. @default console.log */
  out?: (line: string) => void;
}

/** A running demo. */
export interface DemoServer {
  /** `http://host:port/` of the page. */
  url: string;
  /** `ws://host:port` of the bot server. */
  botUrl: string;
  bot: BotServer;
  /** Which brain answers (for the page and logs). */
  assistant: DemoConfig['assistant'];
  /** What the bot does with speech (as the page is told). */
  voice: DemoVoice;
  close(): Promise<void>;
}

/** The scripted shop assistant: no language model, no network. */
export const SHOP_ASSISTANT: DemoAssistant = {
  label: 'scripted shop assistant (not a language model)',
  scripted: true,
  model: (host) => createShopAssistantModel(host),
};

/** The bot's WebSocket URL as the page should dial it (a wildcard bind: the page's host). */
function wsUrlFor(bot: BotServer, req: IncomingMessage): string {
  const bound = bot.address;
  const wildcard = bound.address === '0.0.0.0' || bound.address === '::';
  let host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  if (wildcard) {
    const requested = new URL(`http://${req.headers.host ?? 'localhost'}`).hostname;
    host = requested || '127.0.0.1';
  }
  return `ws://${host}:${bound.port}`;
}

/** What the page is told of the bot's speech (the recognizer is checked once, here). */
async function describeVoice(voice: VoiceOptions | undefined): Promise<DemoVoice> {
  const described: DemoVoice = {
    listens: voice?.stt !== undefined,
    speaks: voice?.tts !== undefined,
  };
  const problem = await voice?.stt?.check().then(
    () => undefined,
    (err: unknown) => errorMessage(err),
  );
  if (problem !== undefined) described.problem = problem;
  return described;
}

/** Start the demo: the bot server and the page server. Prints `demo ready at <url>`. */
export async function startDemo(options: DemoOptions = {}): Promise<DemoServer> {
  const host = options.host ?? '127.0.0.1';
  const out = options.out ?? console.log;
  const pageDir = options.pageDir ?? demoPageDir();
  assertPageBuilt(pageDir);
  const store = await loadDemoStore(options.dataRoot);
  const brain = options.assistant ?? SHOP_ASSISTANT;

  // Each session's store is ready once its db is loaded; the model waits for it.
  const ready = new WeakMap<object, Promise<void>>();
  const gated = (conversationHost: ConversationHost): ChatModel => {
    const model = brain.model(conversationHost);
    return {
      processor: model.processor,
      model: model.model,
      scripted: model.scripted,
      async *stream(request) {
        await ready.get(conversationHost)?.catch(() => undefined);
        yield* model.stream(request);
      },
    };
  };

  const voice = await describeVoice(options.voice);
  const token = randomBytes(18).toString('base64url');
  const bot = await startBotServer({
    host,
    port: options.botPort ?? 0,
    profile: 'production',
    registry: new DomainRegistry().register(commerceDomain),
    conversation: createConversationEngine({
      model: gated,
      functionCallReportLevel: { '*': 'FULL' },
    }),
    dataRoot: store.dataRoot,
    extraDataRoots: [COMMERCE_DATA_ROOT],
    token,
    ...(options.voice ? { voice: options.voice } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    onSession: (session) => {
      const loaded = setUpStore(session, store.prompt);
      loaded.catch((err: unknown) => session.log.error({ err }, 'demo store setup failed'));
      ready.set(session, loaded);
      registerStoreMethods(session, loaded);
    },
  });

  const assistant = { label: brain.label, scripted: brain.scripted ?? false };
  let page;
  try {
    page = await startPageServer({
      host,
      port: options.port ?? 4173,
      pageDir,
      config: (req): DemoConfig => ({
        wsUrl: wsUrlFor(bot, req),
        token,
        storeName: store.storeName,
        shopper: store.shopper,
        assistant,
        tools: store.tools,
        voice,
      }),
      health: () => ({ status: 'ok', sessions: bot.sessionCount }),
      onError: (err, req) => bot.log.error({ err, url: req.url }, 'demo page request failed'),
    });
  } catch (err) {
    await bot.close();
    throw err;
  }
  out(`demo ready at ${page.url}`);
  out(`  assistant: ${assistant.label}; bot server at ${bot.url}`);

  let closed: Promise<void> | undefined;
  return {
    url: page.url,
    botUrl: bot.url,
    bot,
    assistant,
    voice,
    close: () =>
      (closed ??= (async () => {
        await page.close();
        await bot.close();
      })()),
  };
}

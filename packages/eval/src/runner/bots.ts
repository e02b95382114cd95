/**
 * Local bots for an evaluation run: an agent bot and a user-simulator bot on
 * free loopback ports, each serving many sessions at once.
 */
import { randomBytes } from 'node:crypto';
import {
  BotServer,
  createConversationEngine,
  createListeningAgentModel,
  createListeningUserModel,
  createOpenAIChatModel,
  createReferenceAgentModel,
  createScriptedUserModel,
  silentLogger,
} from '@scenaro/agent';
import { DbCache, DomainRegistry } from '@scenaro/agent/scenario';
import type { ChatModel, ConversationHost, Logger } from '@scenaro/agent';
import type { VoiceOptions } from '@scenaro/agent/voice';
import { registerEvalDomains } from '@scenaro/domains';
import type { EvalDomain } from '@scenaro/domains';

/** An OpenAI-compatible endpoint for one bot. */
export interface LlmSettings {
  baseURL: string;
  model: string;
  apiKeyEnv?: string;
  timeoutMs?: number;
}

export interface LocalBotsOptions {
  domains: Iterable<EvalDomain>;
  dataRoot: string;
  /** The agent's brain: the scripted reference agent (default; its listening form in audio mode) or an LLM. */
  agentLlm?: LlmSettings;
  /** The user simulator's brain: the scripted user (default; its listening form in audio mode) or an LLM. */
  userLlm?: LlmSettings;
  logger?: Logger;
  dbCache?: DbCache;
  /** Voices of the bots (audio mode); their engines are closed with the bots. */
  voice?: Record<'agent' | 'user', VoiceOptions>;
}

/** Two running bots. */
export interface LocalBots {
  agentUrl: string;
  userUrl: string;
  /** The token both bots require: made for this run, so other local processes cannot connect. */
  token: string;
  agent: BotServer;
  user: BotServer;
  /**
   * Start another user bot, the same but for its voice (a caller persona's); its URL. Its
   * text-to-speech engine is closed with the bots (the rest of the voice is the user bot's).
   */
  addUser(voice: VoiceOptions): Promise<string>;
  close(): Promise<void>;
}

function modelFactory(
  llm: LlmSettings | undefined,
  scripted: (host: ConversationHost) => ChatModel,
): (host: ConversationHost) => ChatModel {
  if (!llm) return scripted;
  const model = createOpenAIChatModel({
    baseURL: llm.baseURL,
    model: llm.model,
    ...(llm.apiKeyEnv ? { apiKeyEnv: llm.apiKeyEnv } : {}),
    ...(llm.timeoutMs ? { timeoutMs: llm.timeoutMs } : {}),
  });
  return () => model;
}

/** Start an agent bot and a user bot on free loopback ports. */
export async function startLocalBots(options: LocalBotsOptions): Promise<LocalBots> {
  const domains = [...options.domains];
  const dbCache = options.dbCache ?? new DbCache();
  const extraDataRoots = domains
    .map((d) => d.dataRoot)
    .filter((r): r is string => typeof r === 'string');
  const token = randomBytes(18).toString('base64url');
  const common = {
    token,
    host: '127.0.0.1',
    port: 0,
    dataRoot: options.dataRoot,
    extraDataRoots,
    // The bridge on loopback accepts large replies (a db for a diff); remote bots keep their 1 MiB cap.
    maxOutgoingBytes: 64 * 1024 * 1024,
    dbCache,
    logger: options.logger ?? silentLogger,
    // The bridge keeps one connection per scenario: a session ends with it (and frees its db).
    resumeGraceMs: 0,
    // The run's --concurrency bounds its sessions; the bots listen to every one of them.
    maxVoiceSessions: Number.POSITIVE_INFINITY,
  };
  /** A bot with its own registry of the run's domains and the given brain. */
  const listen = (model: (host: ConversationHost) => ChatModel, voice?: VoiceOptions) =>
    new BotServer({
      ...common,
      registry: registerEvalDomains(new DomainRegistry(), domains),
      conversation: createConversationEngine({ model }),
      ...(voice ? { voice } : {}),
    }).listen();
  // In audio mode the scripted bots listen: they act on what their recognizer heard.
  const heard = options.voice !== undefined;
  const agent = await listen(
    modelFactory(options.agentLlm, heard ? createListeningAgentModel : createReferenceAgentModel),
    options.voice?.agent,
  );
  const userModel = modelFactory(
    options.userLlm,
    heard ? createListeningUserModel : createScriptedUserModel,
  );
  const user = await listen(userModel, options.voice?.user);
  const others: { server: BotServer; voice: VoiceOptions }[] = [];
  return {
    agentUrl: agent.url,
    userUrl: user.url,
    token,
    agent,
    user,
    async addUser(voice) {
      const server = await listen(userModel, voice);
      others.push({ server, voice });
      return server.url;
    },
    async close() {
      await Promise.allSettled([agent, user, ...others.map((o) => o.server)].map((s) => s.close()));
      const { voice } = options;
      if (voice)
        await Promise.allSettled(
          [voice.agent, voice.user].flatMap((v) => [v.stt?.close(), v.tts?.close()]),
        );
      await Promise.allSettled(others.map((o) => o.voice.tts?.close()));
    },
  };
}

// Frontend tools end to end over a real socket: the bot's conversation calls tools that a
// ScenaroSession registered in a "browser" (@scenaro/sdk on @scenaro/sdk/rtvi over the real
// @pipecat-ai/client-js in Node), and the agent always gets a structured RpcToolResponse.
import type { FeatureEvent, ScenaroSession } from '@scenaro/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BotServer,
  browserToolRunner,
  createConversationEngine,
  silentLogger,
} from '../src/index.js';
import { DomainRegistry } from '../src/scenario/index.js';
import type { ChatModel, ContextMessage } from '../src/index.js';
import type { DomainModule, ToolDefinition } from '../src/scenario/index.js';
import { pollUntil } from '../src/testing/index.js';
import type { ConnectedClient } from '../src/testing/index.js';
import { closeBrowser, openBrowser } from './fixtures.js';

const frontendTool = (name: string, timeoutMs?: number): ToolDefinition => ({
  name,
  description: `${name} in the browser`,
  kind: 'frontend',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  ...(timeoutMs ? { frontend: { timeoutMs } } : {}),
  execute: () => ({ ranInBot: true }),
});

const domain: DomainModule = {
  name: 'fe',
  tools: [
    frontendTool('show_items'),
    frontendTool('hang_tool', 1500),
    frontendTool('throw_tool'),
    frontendTool('slow_tool'),
  ],
};

/** What the model was given back for each tool call, in order. */
const toolResults: unknown[] = [];
/** What the browser runner answered, in order (seen even when the session is gone). */
const runnerResults: { ok: boolean; result: unknown }[] = [];

/** A test model: "call <tool>" -> that tool call; a tool result -> its content as text. */
const model: ChatModel = {
  processor: 'TestModel',
  model: 'test',
  scripted: true,
  async *stream({ messages }) {
    const last = messages.at(-1) as ContextMessage;
    if (last.role === 'tool') {
      toolResults.push(JSON.parse(last.content));
      yield { type: 'text-delta', text: last.content };
      return;
    }
    const match = last.role === 'user' ? /^call (\w+)$/.exec(last.content) : null;
    if (match)
      yield {
        type: 'tool-call',
        id: `c_${Date.now()}`,
        name: match[1] as string,
        arguments: '{"q":"tea"}',
      };
    else yield { type: 'text-delta', text: 'ok' };
  },
};

let server: BotServer;
let bot: ConnectedClient;
let session: ScenaroSession;
const features: FeatureEvent[] = [];
let started: string[] = [];

/** How long a tool call may take. */
const CALL_MS = 8000;
const waitFor = (check: () => boolean) => pollUntil(check, 'the tool call', CALL_MS);

beforeEach(async () => {
  toolResults.length = 0;
  runnerResults.length = 0;
  features.length = 0;
  started = [];
  server = await new BotServer({
    port: 0,
    registry: new DomainRegistry().register(domain),
    logger: silentLogger,
    conversation: createConversationEngine({
      model: () => model,
      // The default browser runner, observed.
      frontendTools: (host) => {
        const run = browserToolRunner(host);
        if (!run) return undefined;
        return async (name, args, signal) => {
          const answer = await run(name, args, signal);
          runnerResults.push(answer);
          return answer;
        };
      },
    }),
  }).listen();
  ({ bot, session } = await openBrowser(
    server.url,
    {
      config: {
        tools: [
          {
            name: 'show_items',
            description: 'show',
            parameters: { type: 'object' },
            feature: 'grid',
          },
          {
            name: 'hang_tool',
            description: 'hang',
            parameters: { type: 'object' },
            timeout_ms: 1500,
          },
          { name: 'throw_tool', description: 'throw', parameters: { type: 'object' } },
          { name: 'slow_tool', description: 'slow', parameters: { type: 'object' } },
        ],
        settings: { shop: 'tea house' },
      },
      handlers: {
        show_items: async (requestId, args, settings) => ({
          requestId,
          response: {
            code: 'SUCCESS',
            data: { items: [`${String(args['q'])} @ ${String(settings['shop'])}`] },
          },
          componentData: { cards: ['green tea', 'black tea'] },
        }),
        hang_tool: () => new Promise(() => {}),
        throw_tool: () => {
          throw new Error('boom');
        },
        slow_tool: (requestId) => {
          started.push(requestId);
          return new Promise(() => {});
        },
      },
    },
    {
      prompt: 'Shop assistant.',
      tools: ['show_items', 'hang_tool', 'throw_tool', 'slow_tool'],
      toolDomain: 'fe',
    },
    (opened) => opened.on('feature', (e) => features.push(e)),
  ));
});

afterEach(async () => {
  await closeBrowser({ session, bot });
  await server?.close();
});

describe('frontend tools over RTVI with the real client', () => {
  it('runs a tool in the browser: the agent gets response.data, the feature gets componentData', async () => {
    await bot.client.sendText('call show_items', { audio_response: false });
    await waitFor(() => toolResults.length === 1);
    expect(toolResults[0]).toEqual({ items: ['tea @ tea house'] });
    await waitFor(() => features.some((f) => f.status === 'success'));
    expect(features.find((f) => f.status === 'success')).toMatchObject({
      feature: 'grid',
      tool: 'show_items',
      componentData: { cards: ['green tea', 'black tea'] },
    });
  });

  it('answers TIMEOUT within the deadline when the handler hangs', async () => {
    const t0 = Date.now();
    await bot.client.sendText('call hang_tool', { audio_response: false });
    await waitFor(() => toolResults.length === 1);
    expect(Date.now() - t0).toBeLessThan(1500 + 1000);
    expect(toolResults[0]).toMatchObject({ code: 'TIMEOUT' });
  });

  it('answers ERROR with the message when the handler throws', async () => {
    await bot.client.sendText('call throw_tool', { audio_response: false });
    await waitFor(() => toolResults.length === 1);
    expect(toolResults[0]).toMatchObject({ code: 'ERROR' });
    expect(JSON.stringify(toolResults[0])).toContain('boom');
  });

  it('answers CANCELLED when the browser disconnects mid-call', async () => {
    await bot.client.sendText('call slow_tool', { audio_response: false });
    await waitFor(() => started.length === 1);
    await bot.client.disconnect();
    await waitFor(() => runnerResults.length === 1);
    expect(runnerResults[0]).toMatchObject({ ok: false, result: { code: 'CANCELLED' } });
  });

  it('falls back to running the tool in the bot when no browser announced it', async () => {
    session.stop();
    await waitFor(() => true);
    await new Promise((r) => setTimeout(r, 50));
    await bot.client.sendText('call show_items', { audio_response: false });
    await waitFor(() => toolResults.length === 1);
    expect(toolResults[0]).toEqual({ ranInBot: true });
    expect(runnerResults).toEqual([]);
  });
});

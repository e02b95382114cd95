// Tools that set up shared state when update_system_prompt binds them, in the tools JSON's order,
// and tools whose schema depends on their constructor kwargs, over a real socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationEngine, streamScriptedReply } from '../src/index.js';
import { DomainRegistry } from '../src/scenario/index.js';
import type { BotServer, ChatToolSpec, ConversationHost } from '../src/index.js';
import type { DomainModule, ToolDefinition } from '../src/scenario/index.js';
import { nextRequestId, pollUntil, RtviClient } from '../src/testing/index.js';
import { listenTestServer } from './fixtures.js';

function seeding(name: string, seed: (kwargs: Record<string, unknown>) => unknown): ToolDefinition {
  return {
    name,
    description: `${name} (default)`,
    parameters: { type: 'object', properties: {} },
    kind: 'read',
    describe: (options) => ({
      description: typeof options['label'] === 'string' ? options['label'] : `${name} (default)`,
      parameters: { type: 'object', properties: {} },
    }),
    onBind: (shared, options) => {
      if (!Object.hasOwn(shared, 'items')) shared['items'] = seed(options);
    },
    execute: (_args, context) => context.state.shared['items'],
  };
}

const setupDomain: DomainModule = {
  name: 'setup',
  tools: [
    seeding('from_kwargs', (kwargs) => JSON.parse(String(kwargs['items'] ?? '[]'))),
    seeding('empty', () => []),
  ],
};

let server: BotServer;
let host: ConversationHost | undefined;
const clients: RtviClient[] = [];

beforeAll(async () => {
  server = await listenTestServer({
    registry: new DomainRegistry().register(setupDomain),
    conversation: (h) => {
      host = h;
      return {};
    },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

async function promptWith(tools: object): Promise<{ ok: unknown; host: ConversationHost }> {
  const c = await RtviClient.ready(server.url);
  clients.push(c);
  const ok = await c.call('update_system_prompt', {
    prompt: 'P',
    tools: JSON.stringify(tools),
    add_suffix: false,
    tool_domain: 'setup',
  });
  if (!host) throw new Error('no session');
  return { ok, host };
}

describe('tool set-up on update_system_prompt', () => {
  it('seeds shared state in the order of the tools JSON', async () => {
    const first = await promptWith({ from_kwargs: { items: '[1, 2]' }, empty: {} });
    expect(first.ok).toBe(true);
    expect(first.host.state.shared['items']).toEqual([1, 2]);
    const second = await promptWith({ empty: {}, from_kwargs: { items: '[1, 2]' } });
    expect(second.host.state.shared['items']).toEqual([]);
  });

  it('changes nothing when a tool cannot be set up', async () => {
    const { host: session } = await promptWith({ from_kwargs: { items: '[3]' } });
    const c = clients[clients.length - 1] as RtviClient;
    const ok = await c.call('update_system_prompt', {
      prompt: 'P2',
      tools: JSON.stringify({ from_kwargs: { items: '{not json' } }),
      add_suffix: false,
      tool_domain: 'setup',
    });
    expect(ok).toBe(false);
    expect(session.state.shared['items']).toEqual([3]);
  });
});

describe('what the model is shown', () => {
  it("a tool's description and schema for its constructor kwargs", async () => {
    const shown: ChatToolSpec[][] = [];
    const engineServer = await listenTestServer({
      registry: new DomainRegistry().register(setupDomain),
      conversation: createConversationEngine({
        model: () => ({
          processor: 'Capture',
          model: 'capture',
          scripted: false,
          stream: (request) => {
            shown.push(request.tools);
            return streamScriptedReply(request, { text: 'ok' });
          },
        }),
      }),
    });
    try {
      const c = await RtviClient.ready(engineServer.url);
      clients.push(c);
      const tools = { from_kwargs: { label: 'Shown for these kwargs' }, empty: {} };
      expect(
        await c.call('update_system_prompt', {
          prompt: 'P',
          tools: JSON.stringify(tools),
          add_suffix: false,
          tool_domain: 'setup',
        }),
      ).toBe(true);
      c.send({
        label: 'rtvi-ai',
        type: 'send-text',
        id: nextRequestId('text'),
        data: { content: 'hello', options: { run_immediately: true } },
      });
      await pollUntil(() => shown.length > 0, 'a model call');
      expect(shown[0]?.map((t) => t.description)).toEqual([
        'Shown for these kwargs',
        'empty (default)',
      ]);
    } finally {
      await engineServer.close();
    }
  });
});

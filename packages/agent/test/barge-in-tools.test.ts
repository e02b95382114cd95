// Barge-in during a model step's tool calls, over a real socket with the real client and a
// ScenaroSession "browser": a call the interruption keeps from running is reported cancelled and
// changes nothing; a call that ran is reported as run.
import type { ScenaroSession } from '@scenaro/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BotServer, createConversationEngine, silentLogger } from '../src/index.js';
import { DomainRegistry } from '../src/scenario/index.js';
import type { ChatModel, ContextMessage } from '../src/index.js';
import type { DomainModule, ToolDefinition } from '../src/scenario/index.js';
import { pollUntil } from '../src/testing/index.js';
import type { ConnectedClient } from '../src/testing/index.js';
import { closeBrowser, openBrowser } from './fixtures.js';

/** Bookings the write tools made, in order. */
const booked: string[] = [];
/** Releases the running `slow_book` call. */
let releaseSlowBook: (() => void) | undefined;
/** Requests of `pick_slot` the browser received. */
let picks: string[] = [];
/** The tool results each model call was given, by call. */
const seenToolResults: ContextMessage[][] = [];

const writeTool = (name: string, run: () => Promise<void> | void): ToolDefinition => ({
  name,
  description: `${name}: books the slot`,
  kind: 'write',
  parameters: { type: 'object', properties: { slot: { type: 'string' } }, required: ['slot'] },
  execute: async (args) => {
    await run();
    booked.push(`${name} ${String(args['slot'])}`);
    return { booked: args['slot'] };
  },
});

const domain: DomainModule = {
  name: 'bk',
  tools: [
    {
      name: 'pick_slot',
      description: 'the user picks a slot in the browser',
      kind: 'frontend',
      parameters: { type: 'object', properties: {} },
      execute: () => ({ ranInBot: true }),
    },
    writeTool('book_slot', () => undefined),
    writeTool('slow_book', () => new Promise<void>((resolve) => (releaseSlowBook = resolve))),
  ],
};

let callIds = 0;
const toolCall = (name: string, args: object) =>
  ({ type: 'tool-call', id: `c_${++callIds}`, name, arguments: JSON.stringify(args) }) as const;

/**
 * A test model: "pick and book" -> `pick_slot` then `book_slot` in one step; "slow book" ->
 * `slow_book`; anything else -> text.
 */
const model: ChatModel = {
  processor: 'TestModel',
  model: 'test',
  scripted: true,
  async *stream({ messages }) {
    seenToolResults.push(messages.filter((m) => m.role === 'tool'));
    const last = messages.at(-1) as ContextMessage;
    if (last.role === 'user' && last.content === 'pick and book') {
      yield toolCall('pick_slot', {});
      yield toolCall('book_slot', { slot: '10:00' });
    } else if (last.role === 'user' && last.content === 'slow book') {
      yield toolCall('slow_book', { slot: '11:00' });
    } else {
      yield { type: 'text-delta', text: 'ok' };
    }
  },
};

let server: BotServer;
let bot: ConnectedClient;
let session: ScenaroSession;

const waitFor = (check: () => boolean, what: string) => pollUntil(check, what, 8000);

/** The `llm-function-call-stopped` events, as `name: cancelled`. */
const stopped = () =>
  bot.events
    .filter(([name]) => name === 'onLLMFunctionCallStopped')
    .map(([, data]) => {
      const { function_name, cancelled } = data as { function_name: string; cancelled: boolean };
      return `${function_name}: ${cancelled ? 'cancelled' : 'ran'}`;
    });

/** The actions pushed as `action-applied`, by tool name. */
const actionsApplied = () =>
  bot.serverMessages
    .filter((m) => (m as { type?: string }).type === 'action-applied')
    .map((m) => (m as { action: { name: string } }).action.name);

const turnsCompleted = () =>
  bot.serverMessages.filter((m) => (m as { type?: string }).type === 'turn-complete') as {
    turn: number;
    interrupted: boolean;
  }[];

beforeEach(async () => {
  booked.length = 0;
  seenToolResults.length = 0;
  picks = [];
  releaseSlowBook = undefined;
  server = await new BotServer({
    port: 0,
    registry: new DomainRegistry().register(domain),
    logger: silentLogger,
    conversation: createConversationEngine({ model: () => model }),
  }).listen();
  ({ bot, session } = await openBrowser(
    server.url,
    {
      config: {
        tools: [{ name: 'pick_slot', description: 'pick', parameters: { type: 'object' } }],
      },
      handlers: {
        pick_slot: (requestId) => {
          picks.push(requestId);
          return new Promise(() => {});
        },
      },
    },
    {
      prompt: 'Booking assistant.',
      tools: ['pick_slot', 'book_slot', 'slow_book'],
      toolDomain: 'bk',
    },
  ));
});

afterEach(async () => {
  await closeBrowser({ session, bot });
  await server?.close();
});

describe('barge-in during tool calls', () => {
  it('does not run a write queued after the interrupted frontend tool, and says so', async () => {
    await bot.client.sendText('pick and book', { run_immediately: true, audio_response: false });
    await waitFor(() => picks.length === 1, 'the browser to get pick_slot');
    await bot.client.sendText('never mind', { run_immediately: true, audio_response: false });
    await waitFor(() => turnsCompleted().length === 2, 'both turns to complete');

    expect(turnsCompleted().map((t) => t.interrupted)).toEqual([true, false]);
    expect(booked).toEqual([]);
    expect(actionsApplied()).toEqual([]);
    expect(stopped()).toEqual(['pick_slot: cancelled', 'book_slot: cancelled']);
    // The next model call is told both calls were cancelled.
    const results = seenToolResults.at(-1)!.map((m) => JSON.parse(m.content as string));
    expect(results).toMatchObject([{ code: 'CANCELLED' }, { code: 'CANCELLED' }]);
  });

  it('reports a write that completed after the barge-in as run, not cancelled', async () => {
    await bot.client.sendText('slow book', { run_immediately: true, audio_response: false });
    await waitFor(() => releaseSlowBook !== undefined, 'slow_book to start');
    await bot.client.sendText('never mind', { run_immediately: true, audio_response: false });
    await waitFor(() => bot.messages.some((m) => m.type === 'bot-interrupted'), 'the interruption');
    releaseSlowBook?.();
    await waitFor(() => turnsCompleted().length === 2, 'both turns to complete');

    expect(booked).toEqual(['slow_book 11:00']);
    expect(actionsApplied()).toEqual(['slow_book']);
    expect(stopped()).toEqual(['slow_book: ran']);
    const results = seenToolResults.at(-1)!.map((m) => JSON.parse(m.content as string));
    expect(results).toEqual([{ booked: '11:00' }]);
  });
});

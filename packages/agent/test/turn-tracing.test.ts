// OpenTelemetry spans of a turn over a real socket: with a tracer provider registered, a text
// turn that calls a tool gives a `scenaro.turn` span with its `scenaro.llm` (one per model
// call) and `scenaro.tool` children; with none registered, nothing is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createConversationEngine } from '../src/index.js';
import type { BotServer, ChatModel } from '../src/index.js';
import { RtviClient } from '../src/testing/index.js';
import { listenTestServer, makeDataRoot, systemPromptArgs } from './fixtures.js';

/** Calls `get_user` in its first model call, then answers. */
const toolModel: ChatModel = {
  processor: 'ToolPolicy',
  model: 'scripted:tool',
  scripted: true,
  async *stream(request) {
    if (request.step === 1)
      yield { type: 'tool-call', id: 'call_1', name: 'get_user', arguments: '{"user_id":"u1"}' };
    else yield { type: 'text-delta', text: 'Ada it is.' };
    yield { type: 'usage', usage: { promptTokens: 12, completionTokens: 3, totalTokens: 15 } };
  },
};

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const data = makeDataRoot();
let server: BotServer;

beforeAll(async () => {
  server = await listenTestServer({
    dataRoot: data.root,
    conversation: createConversationEngine({ model: () => toolModel }),
  });
});
afterAll(async () => {
  await server?.close();
  trace.disable();
  data.cleanup();
});

async function oneTurn(): Promise<void> {
  const client = await RtviClient.ready(server.url);
  await client.call('update_system_prompt', systemPromptArgs('You help.', ['get_user'], 'test'));
  client.sendText('Who is u1?');
  await client.waitFor(
    (m) => m.type === 'server-message' && (m.data as { type?: string }).type === 'turn-complete',
    'the end of the turn',
  );
  await client.close();
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('turn spans', () => {
  it('records nothing while no tracer provider is registered', async () => {
    await oneTurn();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('records the turn, its model calls and its tool call', async () => {
    trace.setGlobalTracerProvider(provider);
    await oneTurn();
    await expect
      .poll(() => exporter.getFinishedSpans().some((s) => s.name === 'scenaro.turn'))
      .toBe(true);
    const spans = exporter.getFinishedSpans();
    const turn = spans.find((s) => s.name === 'scenaro.turn') as ReadableSpan;
    expect(turn.attributes).toMatchObject({
      'scenaro.turn.trigger': 'text',
      'scenaro.turn': 1,
      'scenaro.turn.model_calls': 2,
      'scenaro.interrupted': false,
      'scenaro.scripted': true,
    });
    expect(typeof turn.attributes['scenaro.session.id']).toBe('string');
    const children = spans.filter((s) => parentOf(s) === turn.spanContext().spanId);
    expect(children.map((s) => s.name).sort()).toEqual([
      'scenaro.llm',
      'scenaro.llm',
      'scenaro.tool',
    ]);
    const llm = children.filter((s) => s.name === 'scenaro.llm');
    for (const span of llm) {
      expect(span.attributes['gen_ai.request.model']).toBe('scripted:tool');
      expect(span.attributes['scenaro.processor']).toBe('ToolPolicy');
      expect(span.attributes['gen_ai.usage.input_tokens']).toBe(12);
      expect(span.attributes['gen_ai.usage.output_tokens']).toBe(3);
    }
    const tool = children.find((s) => s.name === 'scenaro.tool') as ReadableSpan;
    expect(tool.attributes).toMatchObject({
      'gen_ai.tool.name': 'get_user',
      'gen_ai.tool.call.id': 'call_1',
    });
    // In order: first model call, the tool, the second model call, all within the turn. Span
    // times are read from OpenTelemetry's anchored clock, which can place two spans' edges up to
    // a millisecond apart from their true order.
    const ms = 1e6;
    const [first, second] = [...llm].sort((a, b) => hr(a.startTime) - hr(b.startTime));
    expect(hr(tool.startTime)).toBeGreaterThanOrEqual(hr(first!.endTime) - ms);
    expect(hr(second!.startTime)).toBeGreaterThanOrEqual(hr(tool.endTime) - ms);
    expect(hr(turn.endTime)).toBeGreaterThanOrEqual(hr(second!.endTime) - ms);
    expect(hr(second!.startTime)).toBeGreaterThan(hr(first!.endTime));
    expect(spans.every((s) => s.spanContext().traceId === turn.spanContext().traceId)).toBe(true);
  });
});

function hr([seconds, nanos]: [number, number]): number {
  return seconds * 1e9 + nanos;
}

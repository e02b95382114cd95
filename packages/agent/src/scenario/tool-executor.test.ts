import { describe, expect, it } from 'vitest';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import { executeBoundTool } from './tool-executor.js';
import { createScenarioState } from './types.js';
import type { JsonObject, ToolDefinition, ToolKind } from './types.js';

function bind(tool: ToolDefinition) {
  return { tool, domain: 'test', options: {} };
}

/** A tool of `kind` described as 'd', without parameters unless `fields` give them. */
function testTool(
  name: string,
  kind: ToolKind,
  fields: Partial<ToolDefinition> & Pick<ToolDefinition, 'execute'>,
): ToolDefinition {
  return {
    name,
    description: 'd',
    kind,
    parameters: { type: 'object', properties: {} },
    ...fields,
  };
}

const strict = { type: 'object' as const, properties: { n: { type: 'integer' } }, required: ['n'] };

describe('tools that follow their own conventions', () => {
  it('ownsArguments: execute gets the raw arguments, the schema is only shown', async () => {
    const seen: JsonObject[] = [];
    const tool = testTool('t', 'read', {
      parameters: strict,
      ownsArguments: true,
      execute: (args) => {
        seen.push(args);
        return { ok: true };
      },
    });
    const outcome = await executeBoundTool(createScenarioState(), bind(tool), { n: 'x', extra: 1 });
    expect(outcome.ok).toBe(true);
    expect(seen).toEqual([{ n: 'x', extra: 1 }]);
    expect((await executeBoundTool(createScenarioState(), bind(tool), null)).args).toEqual({});
    const refused = await executeBoundTool(createScenarioState(), bind(tool), [1]);
    expect(refused.ok).toBe(false);
  });

  it('recordsOwnActions: only what the tool records, pushed at once', async () => {
    const pushed: ActionRecord[] = [];
    const tool = testTool('w', 'write', {
      recordsOwnActions: true,
      execute: (_args, context) => {
        if (context.state.shared['refuse']) return { status: 'error' };
        context.recordAction?.({ action_type: 'did_w', amount: 5 });
        return { status: 'success' };
      },
    });
    const state = createScenarioState();
    const options = { onAction: (a: ActionRecord) => pushed.push(a) };
    const done = await executeBoundTool(state, bind(tool), {}, options);
    expect(done.action).toEqual({ action_type: 'did_w', amount: 5 });
    state.shared['refuse'] = true;
    const refused = await executeBoundTool(state, bind(tool), {}, options);
    expect(refused.ok).toBe(true);
    expect(refused.action).toBeUndefined();
    expect(state.actions).toEqual([{ action_type: 'did_w', amount: 5 }]);
    expect(pushed).toEqual(state.actions);
  });

  it('modelResult, server messages and a conditional exit', async () => {
    const messages: JsonObject[] = [];
    const tool = testTool('f', 'read', {
      modelResult: (result) => ({ wrapped: result }),
      execute: (args, context) => {
        context.pushServerMessage?.({ text: '<final_response>{}</final_response>' });
        if (args['end']) context.endConversation?.('Done.');
        if (args['fail']) throw new Error('boom');
        return 0;
      },
    });
    const state = createScenarioState();
    const plain = await executeBoundTool(
      state,
      bind(tool),
      {},
      {
        onServerMessage: (m) => messages.push(m),
      },
    );
    expect(plain.modelResult).toEqual({ wrapped: 0 });
    expect(plain.exitReason).toBeUndefined();
    expect(plain.serverMessages).toEqual([{ text: '<final_response>{}</final_response>' }]);
    expect(messages).toHaveLength(1);
    expect((await executeBoundTool(state, bind(tool), { end: true })).exitReason).toBe('Done.');
    const failed = await executeBoundTool(state, bind(tool), { fail: true });
    expect(failed).toMatchObject({ ok: false, modelResult: { error: 'boom' } });
    expect(failed.serverMessages).toHaveLength(1);
  });
});

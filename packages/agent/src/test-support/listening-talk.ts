/**
 * Conversations with one listening policy, for tests: a host with a plan and tools, and a
 * {@link Talk} that feeds the policy what it heard and keeps what it said and called.
 */
import { createScenarioState } from '../scenario/types.js';
import type { ToolDefinition } from '../scenario/types.js';
import { ConversationContext } from '../conversation/context.js';
import type { ContextMessage } from '../conversation/context.js';
import type { PolicyHost } from '../conversation/hook.js';
import type { ChatModel } from '../conversation/model.js';
import { SCRIPTED_PLAN_KEY } from '../conversation/scripted-plan.js';

export function tool(name: string, kind: 'read' | 'write', required: string[]): ToolDefinition {
  return {
    name,
    kind,
    description: name,
    parameters: { type: 'object', properties: {}, required },
    execute: () => null,
  };
}

export function host(plan: object, tools: ToolDefinition[], systemPrompt = 'policy'): PolicyHost {
  const state = createScenarioState();
  state.shared[SCRIPTED_PLAN_KEY] = plan;
  for (const t of tools) state.tools.set(t.name, { tool: t, domain: 'test', options: {} });
  return { state, context: new ConversationContext(systemPrompt) };
}

export interface Said {
  text: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
}

/** One model call on `messages`, as the engine would make it. */
export async function say(
  model: ChatModel,
  messages: ContextMessage[],
  turn: number,
): Promise<Said> {
  const out: Said = { text: '', calls: [] };
  for await (const event of model.stream({
    messages,
    tools: [],
    signal: new AbortController().signal,
    turn,
    step: 1,
  })) {
    if (event.type === 'text-delta') out.text += event.text;
    if (event.type === 'tool-call') {
      out.calls.push({
        name: event.name,
        arguments: JSON.parse(event.arguments) as Record<string, unknown>,
      });
    }
  }
  return out;
}

/** A conversation with one side's model: what it heard, and what it said and called. */
export class Talk {
  readonly messages: ContextMessage[] = [];
  turn = 0;
  constructor(readonly model: ChatModel) {}
  async hear(text: string): Promise<Said> {
    this.turn++;
    this.messages.push({ role: 'user', content: text });
    return this.answer();
  }
  private async answer(): Promise<Said> {
    const said = await say(this.model, this.messages, this.turn);
    this.messages.push({
      role: 'assistant',
      content: said.text || null,
      ...(said.calls.length
        ? {
            tool_calls: said.calls.map((c, i) => ({
              id: `c${this.messages.length}_${i}`,
              type: 'function' as const,
              function: { name: c.name, arguments: JSON.stringify(c.arguments) },
            })),
          }
        : {}),
    });
    return said;
  }
  /** Give the results of the last calls and take the next step. */
  async results(...contents: unknown[]): Promise<Said> {
    const last = this.messages[this.messages.length - 1];
    const calls = last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
    calls.forEach((call, i) =>
      this.messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: JSON.stringify(contents[i]),
      }),
    );
    return this.answer();
  }
}

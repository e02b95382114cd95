/**
 * What streamed chat-completions chunks add up to: tool calls assembled from
 * their deltas, and the token usage.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ChatStreamEvent, ChatUsage } from './model.js';

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Assembles streamed tool-call deltas by `index`. */
export class ToolCallAssembler {
  readonly #calls = new Map<number, PendingToolCall>();
  #lastIndex = -1;

  add(delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // Some servers leave `index` out: then a new id starts a new call, anything else continues the last one.
    let index = typeof delta.index === 'number' ? delta.index : undefined;
    if (index === undefined) {
      const last = this.#calls.get(this.#lastIndex);
      index = last && (!delta.id || delta.id === last.id) ? this.#lastIndex : this.#lastIndex + 1;
    }
    let call = this.#calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.#calls.set(index, call);
    }
    this.#lastIndex = index;
    if (delta.id && !call.id) call.id = delta.id;
    // The name comes whole in the first delta; some servers repeat it, which must not double it.
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  /** The complete calls in index order, and forget them. */
  take(): ChatStreamEvent[] {
    const events = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]): ChatStreamEvent => ({
        type: 'tool-call',
        id: call.id || `call_${index}_${Math.random().toString(36).slice(2, 10)}`,
        name: call.name,
        arguments: call.arguments,
      }));
    this.#calls.clear();
    this.#lastIndex = -1;
    return events;
  }
}

/** The usage a chunk reports, in our shape (the total computed when the server leaves it out). */
export function usageOf(usage: ChatCompletionChunk['usage']): ChatUsage | undefined {
  if (!usage) return undefined;
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage.total_tokens ?? promptTokens + completionTokens,
  };
}

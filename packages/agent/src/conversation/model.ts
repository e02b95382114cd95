/**
 * The `ChatModel` interface every "brain" of a bot implements: an
 * OpenAI-compatible LLM, or one of the scripted policies. One call takes the
 * context and the tool specs and streams text deltas, complete tool calls and
 * token usage.
 */
import type { ContextMessage } from './context.js';

/** A tool as the model sees it (OpenAI function-tool shape, flattened). */
export interface ChatToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** One model call. */
export interface ChatRequest {
  messages: ContextMessage[];
  tools: ChatToolSpec[];
  signal: AbortSignal;
  /** 1-based index of the user turn being answered (for scripted policies). */
  turn: number;
  /** 1-based index of the model call within the turn. */
  step: number;
}

/** Token counts of one call. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What a call streams. Tool calls are delivered whole, once their arguments are complete. */
export type ChatStreamEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; arguments: string }
  | { type: 'usage'; usage: ChatUsage };

/** A model (or scripted policy) that answers a context. */
export interface ChatModel {
  /** Processor label for metrics and logs, e.g. `OpenAILLMService` or `ScriptedReferenceAgent`. */
  readonly processor: string;
  /** Model name for metrics and logs. Scripted policies start with `scripted:`. */
  readonly model: string;
  /** True for scripted policies: everything they touch is labelled as scripted. */
  readonly scripted: boolean;
  /** Stream one response. Must stop promptly when `request.signal` aborts. */
  stream(request: ChatRequest): AsyncIterable<ChatStreamEvent>;
  /**
   * Whether speech heard from the user is a turn to answer (absent: always). A scripted policy
   * can leave out speech not meant for it.
   */
  takesTurn?(heard: string): boolean;
  /**
   * What to say when the user spoke and nothing was made out of it (a voice bot's recognizer
   * gave an empty transcript), with no turn running; absent or undefined: say nothing and wait.
   * A language model is not asked: this is the policy's own reprompt, spoken as it is.
   */
  unheard?(): string | undefined;
}

/** A failure of a model call, with whether retrying can help. */
export class ChatModelError extends Error {
  override readonly name = 'ChatModelError';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Rough token count for text a scripted policy reads or writes (about four characters a token). */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** One scripted answer: text (optionally streamed a few words at a time) and whole tool calls. */
export interface ScriptedReply {
  text: string;
  calls?: readonly { name: string; arguments: Record<string, unknown> }[];
}

const scriptedCallCounters = new Map<string, number>();

/** A fresh tool-call id with the given prefix (`call_scripted_1`, ...). */
export function scriptedCallId(prefix: string): string {
  const next = ((scriptedCallCounters.get(prefix) ?? 0) + 1) % 1_000_000_000;
  scriptedCallCounters.set(prefix, next);
  return `${prefix}${next}`;
}

/**
 * Stream a scripted policy's answer the way a model streams one: text deltas (all at once, or
 * `wordsPerDelta` words at a time), the tool calls, then an estimated token usage.
 */
export async function* streamScriptedReply(
  request: ChatRequest,
  reply: ScriptedReply,
  options: { idPrefix?: string; wordsPerDelta?: number } = {},
): AsyncIterable<ChatStreamEvent> {
  if (request.signal.aborted) return;
  const calls = reply.calls ?? [];
  if (options.wordsPerDelta === undefined) {
    if (reply.text) yield { type: 'text-delta', text: reply.text };
  } else {
    const pieces = reply.text.match(/[^\s]+\s*|\s+/g) ?? [];
    for (let i = 0; i < pieces.length; i += options.wordsPerDelta) {
      if (request.signal.aborted) return;
      yield { type: 'text-delta', text: pieces.slice(i, i + options.wordsPerDelta).join('') };
    }
  }
  for (const call of calls) {
    yield {
      type: 'tool-call',
      id: scriptedCallId(options.idPrefix ?? 'call_scripted_'),
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    };
  }
  const prompt = estimateTokens(request.messages.map((m) => JSON.stringify(m)).join(''));
  const completion = estimateTokens(reply.text + JSON.stringify(calls));
  yield {
    type: 'usage',
    usage: { promptTokens: prompt, completionTokens: completion, totalTokens: prompt + completion },
  };
}

/**
 * The bodies the OpenAI-compatible test server answers with: a `chat.completion` object, or the
 * `chat.completion.chunk` events of a stream (role delta, content deltas, tool-call deltas with
 * their arguments split over several chunks, the finish chunk, and the usage chunk on request).
 */
import type { OpenAITestAnswer, OpenAITestAnswerOptions, OpenAITestRequest } from './types.js';

interface NumberedToolCall {
  id: string;
  name: string;
  arguments: string;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A string in word chunks: each word keeps its trailing whitespace. */
function wordChunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** A string in `parts` roughly equal pieces (at least one, no empty piece unless the string is empty). */
function splitInto(text: string, parts: number): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / Math.min(parts, text.length));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function usage(
  body: OpenAITestRequest,
  response: OpenAITestAnswerOptions,
  text: string,
  toolCalls: readonly NumberedToolCall[],
): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  const given = response.usage;
  const prompt = given?.prompt_tokens ?? estimateTokens(JSON.stringify(body.messages));
  const completion =
    given?.completion_tokens ??
    estimateTokens(text + toolCalls.map((c) => c.name + c.arguments).join(''));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

/** Builds answers, numbering completions and tool calls over the life of one server. */
export class AnswerComposer {
  readonly #defaultModel: string;
  #toolCallCount = 0;
  #completionCount = 0;

  constructor(defaultModel: string) {
    this.#defaultModel = defaultModel;
  }

  #toolCalls(response: OpenAITestAnswer): NumberedToolCall[] {
    if (!('toolCalls' in response) || !response.toolCalls) return [];
    return response.toolCalls.map((call) => ({
      id: call.id ?? `call_${++this.#toolCallCount}`,
      name: call.name,
      arguments:
        typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
  }

  /** The `chat.completion` object answering a request without `stream`. */
  completion(body: OpenAITestRequest, response: OpenAITestAnswer) {
    const chunks =
      response.text === undefined
        ? []
        : typeof response.text === 'string'
          ? [response.text]
          : response.text;
    const text = chunks.join('');
    const toolCalls = this.#toolCalls(response);
    return {
      id: `chatcmpl-test${++this.#completionCount}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model ?? this.#defaultModel,
      system_fingerprint: 'fp_openai_test_server',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text.length > 0 || toolCalls.length === 0 ? text : null,
            refusal: null,
            ...(toolCalls.length > 0
              ? {
                  tool_calls: toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: usage(body, response, text, toolCalls),
    };
  }

  /** The `chat.completion.chunk` events of a streamed answer, in order (without `[DONE]`). */
  streamEvents(body: OpenAITestRequest, response: OpenAITestAnswer): unknown[] {
    const includeUsage = body.stream_options?.include_usage === true;
    const id = `chatcmpl-test${++this.#completionCount}`;
    const created = Math.floor(Date.now() / 1000);
    const model = body.model ?? this.#defaultModel;
    const textChunks =
      response.text === undefined
        ? []
        : typeof response.text === 'string'
          ? wordChunks(response.text)
          : response.text;
    const toolCalls = this.#toolCalls(response);

    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: 'fp_openai_test_server',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    });
    const events: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const text of textChunks) events.push(chunk({ content: text }));
    toolCalls.forEach((toolCall, index) => {
      events.push(
        chunk({
          tool_calls: [
            {
              index,
              id: toolCall.id,
              type: 'function',
              function: { name: toolCall.name, arguments: '' },
            },
          ],
        }),
      );
      for (const piece of splitInto(toolCall.arguments, 3)) {
        events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    events.push(chunk({}, toolCalls.length > 0 ? 'tool_calls' : 'stop'));
    if (includeUsage) {
      events.push({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        system_fingerprint: 'fp_openai_test_server',
        choices: [],
        usage: usage(body, response, textChunks.join(''), toolCalls),
      });
    }
    return events;
  }
}

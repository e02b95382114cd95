/**
 * Requests in the shape of the chat-completions API: our context messages and
 * tool specs translated, and the body of one streamed call.
 */
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ContextMessage } from './context.js';
import type { ChatRequest, ChatToolSpec } from './model.js';

/** Our context messages in the request shape of the chat-completions API. */
export function toOpenAIMessages(
  messages: readonly ContextMessage[],
): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.content };
      case 'tool':
        return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
      case 'assistant': {
        const toolCalls = message.tool_calls ?? [];
        if (toolCalls.length === 0) return { role: 'assistant', content: message.content ?? '' };
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments },
          })),
        };
      }
    }
  });
}

/** Our tool specs as chat-completions function tools. */
export function toOpenAITools(tools: readonly ChatToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** What a model sends with every request besides the conversation and tools. */
export interface OpenAIRequestSettings {
  model: string;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Sent when the request has tools. */
  parallelToolCalls: boolean;
  /** Extra body fields; the fields set here, and `temperature` / `max_tokens` when given, win over them. */
  extraBody?: Record<string, unknown> | undefined;
}

/** The body of the streamed `POST /chat/completions` for `request`. */
export function toOpenAIStreamingParams(
  request: Pick<ChatRequest, 'messages' | 'tools'>,
  settings: OpenAIRequestSettings,
): ChatCompletionCreateParamsStreaming {
  const { model, temperature, maxTokens, parallelToolCalls, extraBody } = settings;
  const params: ChatCompletionCreateParamsStreaming = {
    ...(extraBody as Partial<ChatCompletionCreateParamsStreaming> | undefined),
    model,
    messages: toOpenAIMessages(request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (temperature !== undefined) params.temperature = temperature;
  if (maxTokens !== undefined) params.max_tokens = maxTokens;
  if (request.tools.length > 0) {
    params.tools = toOpenAITools(request.tools);
    params.parallel_tool_calls = parallelToolCalls;
  } else {
    delete params.tools;
    delete params.parallel_tool_calls;
  }
  return params;
}

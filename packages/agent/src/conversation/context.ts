/**
 * The conversation context a bot session holds: the system prompt and the
 * user / assistant / tool messages, in OpenAI chat format.
 */

/** A tool call requested by the assistant. */
export interface ContextToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** One message of the context. */
export type ContextMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ContextToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** An ordered list of messages that starts with the system prompt. */
export class ConversationContext {
  #systemPrompt = '';
  #messages: ContextMessage[] = [];
  /** The role the system prompt is given under (`system`, or `developer` for some models). */
  readonly systemRole: 'system';

  constructor(systemPrompt = '') {
    this.systemRole = 'system';
    this.setSystemPrompt(systemPrompt);
  }

  /** Replace the whole context with a new system prompt. */
  setSystemPrompt(content: string): void {
    this.#systemPrompt = content;
    this.reset();
  }

  /** Back to just the last system prompt. */
  reset(): void {
    this.#messages = this.#systemPrompt ? [{ role: 'system', content: this.#systemPrompt }] : [];
  }

  get systemPrompt(): string {
    return this.#systemPrompt;
  }

  append(...messages: ContextMessage[]): void {
    this.#messages.push(...messages);
  }

  /** Drop every message after the first `length` (used to undo an interrupted turn). */
  truncate(length: number): void {
    this.#messages.length = Math.min(length, this.#messages.length);
  }

  get length(): number {
    return this.#messages.length;
  }

  /** A copy of the messages. */
  messages(): ContextMessage[] {
    return structuredClone(this.#messages);
  }
}

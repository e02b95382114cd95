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
  /** UTF-8 size of each message's JSON, parallel to `#messages`. */
  #sizes: number[] = [];
  #bytes = 0;
  #revision = 0;
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
    this.#messages = [];
    this.#sizes = [];
    this.#bytes = 0;
    this.#revision++;
    if (this.#systemPrompt) this.append({ role: 'system', content: this.#systemPrompt });
  }

  get systemPrompt(): string {
    return this.#systemPrompt;
  }

  append(...messages: ContextMessage[]): void {
    for (const message of messages) {
      const size = messageBytes(message);
      this.#messages.push(message);
      this.#sizes.push(size);
      this.#bytes += size;
    }
    this.#revision++;
  }

  /** Drop every message after the first `length` (used to undo an interrupted turn). */
  truncate(length: number): void {
    const keep = Math.min(length, this.#messages.length);
    for (const size of this.#sizes.splice(keep)) this.#bytes -= size;
    this.#messages.length = keep;
    this.#revision++;
  }

  get length(): number {
    return this.#messages.length;
  }

  /** Size of the messages as UTF-8 JSON (what the context costs to hold and to send). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Changes with every change of the messages (for caching what is derived from them). */
  get revision(): number {
    return this.#revision;
  }

  /** A copy of the messages. */
  messages(): ContextMessage[] {
    return structuredClone(this.#messages);
  }
}

function messageBytes(message: ContextMessage): number {
  try {
    return Buffer.byteLength(JSON.stringify(message) ?? '', 'utf8');
  } catch {
    return 0;
  }
}

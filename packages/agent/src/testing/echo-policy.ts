/**
 * The echo policy: a scripted model that repeats the user's last message
 * inside a fixed answer, streamed a few words per delta as a language model
 * streams. Voice tests and the voice benchmark answer with it, so a reply's
 * first sentence depends only on what was heard.
 */
import type { ContextMessage } from '../conversation/context.js';
import { createConversationEngine } from '../conversation/engine.js';
import type { ConversationFactory } from '../conversation/hook.js';
import { streamScriptedReply } from '../conversation/model.js';
import type { ChatModel } from '../conversation/model.js';

/** The echo policy's reply to `heard`. */
export function echoReply(heard: string): string {
  return `You said ${heard}. What else can I do for you?`;
}

function lastUser(messages: readonly ContextMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'user' && typeof m.content === 'string') return m.content;
  }
  return '';
}

/** A model that answers {@link echoReply} of the last user message, two words per delta. */
export function echoModel(): ChatModel {
  return {
    processor: 'EchoPolicy',
    model: 'scripted:echo',
    scripted: true,
    stream: (request) =>
      streamScriptedReply(
        request,
        { text: echoReply(lastUser(request.messages)) },
        { wordsPerDelta: 2 },
      ),
  };
}

/** Conversations answered by the echo policy (for `BotServerOptions.conversation`). */
export const echoConversation: ConversationFactory = createConversationEngine({
  model: () => echoModel(),
});

/**
 * The scripted shop assistant: an offline stand-in for a language model in the storefront demo.
 * It understands a small, documented set of requests (the "Shop assistant (scripted)" section
 * of `SCENARIOS.md`), acts only through the commerce tools (the frontend `show_*` tools for
 * display), tells the shopper what it did from the tool results, and says plainly that it is a
 * script, not a language model, in its greeting and whenever it does not understand.
 *
 * It is labelled as scripted everywhere (processor `ScriptedShopAssistant`, model
 * `scripted:shop-assistant`, `scripted: true`), like the other scripted policies.
 *
 * @module
 */
import type {
  ChatModel,
  ChatRequest,
  ChatStreamEvent,
  ContextMessage,
  ConversationHost,
} from '@scenaro/agent';
import { streamScriptedReply } from '@scenaro/agent';
import { asCommerceDb } from '../model/db-types.js';
import type { CommerceDb } from '../model/db-types.js';
import { exchangesOf, lastUserIndex, memoryOf, previousAssistantText } from './context.js';
import { HELP_TEXT, PAYMENT_QUESTION, SHOP_ASSISTANT_GREETING } from './replies.js';
import { classify } from './request.js';
import { say, STEPS } from './steps.js';
import type { Step, TurnInput } from './steps.js';
import { amountsInDigits, normalize } from './words.js';

export { SHOP_ASSISTANT_CAPABILITIES, SHOP_ASSISTANT_GREETING } from './replies.js';
export type { ShopAssistantStep } from './steps.js';

/** Options of {@link createShopAssistantModel}. */
export interface ShopAssistantOptions {
  /** Most products one search shows. @default 6 */
  maxResults?: number;
}

function emit(request: ChatRequest, step: Step): AsyncIterable<ChatStreamEvent> {
  // Stream the text a few words at a time, as a model would.
  return streamScriptedReply(request, step, { idPrefix: 'call_shop_', wordsPerDelta: 4 });
}

/** Decide one model call of the shop assistant from the context and the session's db. */
export function shopAssistantStep(
  messages: readonly ContextMessage[],
  db: CommerceDb,
  options: { firstCallOfConversation: boolean; maxResults?: number },
): Step {
  const userAt = lastUserIndex(messages);
  const userMessage = messages[userAt];
  const text = amountsInDigits(normalize(userMessage?.role === 'user' ? userMessage.content : ''));
  const askedToPay = previousAssistantText(messages, userAt).includes(PAYMENT_QUESTION);
  const request = classify(text, db, askedToPay);
  const input: TurnInput = {
    text,
    request,
    done: exchangesOf(messages.slice(userAt + 1)),
    memory: memoryOf(messages.slice(0, userAt)),
    db,
    maxResults: options.maxResults ?? 6,
  };
  const step = STEPS[request.kind](input);
  if (!options.firstCallOfConversation) return step;
  const greeting =
    request.kind === 'help' || request.kind === 'unknown'
      ? `${SHOP_ASSISTANT_GREETING} ${HELP_TEXT}`
      : `${SHOP_ASSISTANT_GREETING} (Say "help" for the list.)`;
  return {
    ...step,
    text:
      request.kind === 'help' || request.kind === 'unknown'
        ? greeting
        : `${greeting}\n${step.text}`.trim(),
  };
}

/**
 * The scripted shop assistant, built per session (`createConversationEngine({model:
 * createShopAssistantModel})`). It reads the session's commerce db (which must be loaded, with a
 * shopper signed in for cart, selection and orders) and acts only through the bound tools.
 */
export function createShopAssistantModel(
  host: ConversationHost,
  options: ShopAssistantOptions = {},
): ChatModel {
  return {
    processor: 'ScriptedShopAssistant',
    model: 'scripted:shop-assistant',
    scripted: true,
    async *stream(request) {
      let db: CommerceDb;
      try {
        db = asCommerceDb(host.state.db);
      } catch {
        yield* emit(
          request,
          say(
            `${SHOP_ASSISTANT_GREETING} The store is not loaded in this session yet, so I cannot help right now.`,
          ),
        );
        return;
      }
      const step = shopAssistantStep(request.messages, db, {
        firstCallOfConversation: request.turn === 1 && request.step === 1,
        ...(options.maxResults === undefined ? {} : { maxResults: options.maxResults }),
      });
      yield* emit(request, step);
    },
  };
}

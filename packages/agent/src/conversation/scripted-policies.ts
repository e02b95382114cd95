/**
 * Scripted policies: offline stand-ins for a language model that check the
 * whole pipeline end to end. They are labelled as scripted everywhere (model
 * name `scripted:*`, processor `Scripted*`, `scripted: true` in turn pushes).
 *
 * - The reference agent greets, carries out its side of the plan through the
 *   real tool path, tells the user what it did from the tool results, and ends
 *   with the end-conversation tool. Without a plan it says so; it never pretends.
 * - The scripted user states what it knows from its instructions, answers from
 *   them, carries out its own side of the plan (user-device tools), and stops
 *   with `###STOP###` after its turn limit.
 */
import type { JsonObject } from '../scenario/types.js';
import type { ContextMessage } from './context.js';
import type { ConversationHost } from './hook.js';
import { lastHeard, sinceLastUser } from './listening-common.js';
import { streamScriptedReply } from './model.js';
import type { ChatModel, ChatRequest, ChatStreamEvent } from './model.js';
import {
  describeCall,
  planSegments,
  readScriptedPlan,
  segmentIndexForSlot,
  slotOfTurn,
} from './scripted-plan.js';
import type { PlanSegment, PlannedAction, ScriptedPlan } from './scripted-plan.js';
import { USER_STOP_TOKEN } from './stop-tokens.js';

/** What an agent says when it considers the task done; the scripted user then stops. */
const AGENT_DONE = /\b(goodbye|good bye)\b/i;
/** The reference agent's closing question once its plan is done. */
export const CLOSING_QUESTION = 'Is there anything else I can help you with?';
/** The reference agent's confirmation question before it acts. */
export const CONFIRM_QUESTION = 'Shall I go ahead?';
const ASKS_ANYTHING_ELSE = /\banything else\b/i;

/** The agent's text of its previous turn (before the last user message). */
function previousAgentText(messages: readonly ContextMessage[]): string {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]?.role !== 'user') i--;
  for (let j = i - 1; j >= 0; j--) {
    const m = messages[j];
    if (m?.role === 'user') break;
    if (m?.role === 'assistant' && typeof m.content === 'string' && m.content) return m.content;
  }
  return '';
}
/** Tool names the reference agent ends a conversation with, in order of preference. */
export const END_TOOL_NAMES = ['end_conversation', 'EndConversationTool'];

function summarizeResult(content: string): string {
  const flat = content.replace(/\s+/g, ' ');
  return flat.length > 240 ? `${flat.slice(0, 237)}...` : flat;
}

function emit(
  request: ChatRequest,
  text: string,
  calls: { name: string; arguments: JsonObject }[] = [],
): AsyncIterable<ChatStreamEvent> {
  return streamScriptedReply(request, { text, calls });
}

function plannedCalls(
  actions: readonly PlannedAction[],
): { name: string; arguments: JsonObject }[] {
  return actions.map((a) => ({ name: a.name, arguments: a.arguments }));
}

function toolReport(messages: readonly ContextMessage[]): string {
  const turn = sinceLastUser(messages);
  const lines: string[] = [];
  for (const message of turn) {
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    for (const call of message.tool_calls) {
      const result = turn.find((m) => m.role === 'tool' && m.tool_call_id === call.id);
      let args: JsonObject = {};
      try {
        args = JSON.parse(call.function.arguments) as JsonObject;
      } catch {
        args = {};
      }
      lines.push(
        `- ${describeCall(call.function.name, args)} -> ${result && result.role === 'tool' ? summarizeResult(result.content) : 'no result'}`,
      );
    }
  }
  return lines.join('\n');
}

function describeSegment(segment: PlanSegment | undefined): string {
  if (!segment) return '';
  return segment.actions.map((a) => describeCall(a.name, a.arguments)).join('; ');
}

/** One turn of a scripted policy: the session's plan (as read) and whether tools just ran. */
type ScriptedTurn = (
  host: ConversationHost,
  request: ChatRequest,
  plan: ReturnType<typeof readScriptedPlan>,
  afterTools: boolean,
) => AsyncGenerator<ChatStreamEvent>;

/** A scripted policy labelled as such, built per session, reading its plan on every turn. */
function scriptedPolicy(
  processor: string,
  model: string,
  turn: ScriptedTurn,
): (host: ConversationHost) => ChatModel {
  return (host) => ({
    processor,
    model,
    scripted: true,
    async *stream(request) {
      const afterTools = sinceLastUser(request.messages).some((m) => m.role === 'tool');
      yield* turn(host, request, readScriptedPlan(host.state.shared), afterTools);
    },
  });
}

const referenceAgentTurn: ScriptedTurn = async function* (host, request, plan, afterTools) {
  const endTool = END_TOOL_NAMES.find((name) => host.state.tools.has(name));
  const end = (text: string) =>
    emit(request, text, endTool ? [{ name: endTool, arguments: {} }] : []);

  if (request.turn === 1) {
    const greeting =
      'Hello! I am the scripted reference agent (not a language model). How can I help you today?';
    const note =
      plan === undefined
        ? ' I have no plan for this scenario, so I cannot carry out any actions.'
        : typeof plan === 'string'
          ? ` My plan is malformed (${plan}), so I cannot carry out any actions.`
          : '';
    yield* emit(request, greeting + note);
    return;
  }
  if (plan === undefined || typeof plan === 'string') {
    yield* end('I have no usable plan for this scenario, so I made no changes. Goodbye.');
    return;
  }
  const segments = planSegments(plan.actions);
  if (request.turn === 2 && plan.actions.length > 0) {
    const mine = plan.actions
      .filter((a) => a.side === 'agent')
      .map((a) => describeCall(a.name, a.arguments));
    const theirs = plan.actions
      .filter((a) => a.side === 'user')
      .map((a) => describeCall(a.name, a.arguments));
    const parts = [
      mine.length ? `I will do this: ${mine.join('; ')}.` : '',
      theirs.length ? `You will need to do this on your side: ${theirs.join('; ')}.` : '',
    ].filter(Boolean);
    yield* emit(request, `Thank you. ${parts.join(' ')} ${CONFIRM_QUESTION}`);
    return;
  }
  const k = segmentIndexForSlot(slotOfTurn('agent', request.turn, plan), segments);
  const segment = k >= 0 ? segments[k] : undefined;
  const calls = segment?.side === 'agent' ? executableCalls(plan, segments, k) : [];
  if (!afterTools && calls.length > 0) {
    yield* emit(request, '', plannedCalls(calls));
    return;
  }
  const report = afterTools ? `Here is what I did:\n${toolReport(request.messages)}` : '';
  const finished = k >= segments.length - 1 || request.turn > plan.maxTurns;
  if (finished) {
    // Close politely: ask once whether anything else is needed, end on the next turn.
    if (!afterTools && previousAgentText(request.messages).includes(CLOSING_QUESTION)) {
      yield* end('Thank you for calling. Goodbye.');
      return;
    }
    yield* emit(
      request,
      `${report ? `${report}\n` : ''}Everything in my plan is done. ${CLOSING_QUESTION}`,
    );
    return;
  }
  const next = segments[k + 1];
  const ask =
    next?.side === 'user'
      ? `Next, please do this on your side: ${describeSegment(next)}.`
      : 'Please confirm so I can continue.';
  yield* emit(request, `${report ? `${report}\n` : ''}${ask}`);
};

/** The scripted reference agent, built per session. */
export const createReferenceAgentModel = scriptedPolicy(
  'ScriptedReferenceAgent',
  'scripted:reference-agent',
  referenceAgentTurn,
);

/** The calls of segment `k`, honouring injected faults. */
function executableCalls(
  plan: ScriptedPlan,
  segments: readonly PlanSegment[],
  k: number,
): PlannedAction[] {
  const segment = segments[k];
  if (!segment) return [];
  if (!plan.faults.includes('drop-last-action')) return segment.actions;
  const lastAgentSegment = segments.map((s) => s.side).lastIndexOf('agent');
  return k === lastAgentSegment ? segment.actions.slice(0, -1) : segment.actions;
}

const STOP_WORDS = new Set([
  'what',
  'which',
  'your',
  'with',
  'that',
  'this',
  'have',
  'please',
  'could',
  'would',
  'the',
  'and',
  'you',
  'can',
  'for',
]);

function words(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9_#-]+/)
      .filter((w) => w.length > 2 && !STOP_WORDS.has(w)),
  );
}

/** The sentence of `instructions` that best answers `question`, if any shares two words with it. */
export function answerFromInstructions(instructions: string, question: string): string | undefined {
  const asked = words(question);
  let best: { score: number; sentence: string } | undefined;
  for (const sentence of instructions.split(/(?<=[.!?])\s+|\n+/)) {
    const trimmed = sentence.trim();
    if (!trimmed) continue;
    let score = 0;
    for (const w of words(trimmed)) if (asked.has(w)) score++;
    if (score >= 2 && (!best || score > best.score)) best = { score, sentence: trimmed };
  }
  return best?.sentence;
}

const scriptedUserTurn: ScriptedTurn = async function* (host, request, plan, afterTools) {
  const instructions = host.context.systemPrompt;
  const usable = plan !== undefined && typeof plan !== 'string' ? plan : undefined;
  if (request.turn === 1) {
    const opening = usable?.opening ?? firstSentences(instructions) ?? 'Hello, I need some help.';
    yield* emit(request, opening);
    return;
  }
  if (request.turn > (usable?.maxTurns ?? 30) || AGENT_DONE.test(lastHeard(request.messages))) {
    yield* emit(request, USER_STOP_TOKEN);
    return;
  }
  const segments = usable ? planSegments(usable.actions) : [];
  const k = usable ? segmentIndexForSlot(slotOfTurn('user', request.turn, usable), segments) : 0;
  const segment = k >= 0 ? segments[k] : undefined;
  if (segment?.side === 'user' && !afterTools) {
    yield* emit(request, '', plannedCalls(segment.actions));
    return;
  }
  if (afterTools) {
    yield* emit(request, `Okay, I did that on my side:\n${toolReport(request.messages)}`);
    return;
  }
  const asked = lastHeard(request.messages);
  if (ASKS_ANYTHING_ELSE.test(asked) && k >= segments.length) {
    yield* emit(request, "No, that's all. Thank you!");
    return;
  }
  if (asked.includes(CONFIRM_QUESTION)) {
    yield* emit(request, 'Yes, please go ahead.');
    return;
  }
  const answer = answerFromInstructions(instructions, asked);
  yield* emit(request, answer ?? 'Yes, please go ahead.');
};

/** The scripted user simulator, built per session. */
export const createScriptedUserModel = scriptedPolicy(
  'ScriptedUser',
  'scripted:user',
  scriptedUserTurn,
);

function firstSentences(text: string): string | undefined {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return flat.length > 600 ? `${flat.slice(0, 597)}...` : flat;
}

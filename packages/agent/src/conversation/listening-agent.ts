/**
 * The listening reference agent: the scripted reference agent for audio mode,
 * where what it knows of the caller is what its recognizer heard (the user
 * messages of its context are the transcripts).
 *
 * It follows the same gold plan (`scripted_plan`) as the text-mode reference
 * agent in order, but at its own pace: one change at a time, reads that are
 * ready run together. It speaks plain sentences (no JSON, brackets or
 * underscores). What it acts with depends on what it heard:
 *
 * - Caller values. An argument that is an id, code, email, name or amount and
 *   is not found in any earlier tool result of the conversation must come from
 *   the caller. The agent takes the heard value of the same kind closest to the
 *   planned one (a misheard id is acted on as heard, so it shows up as a tool
 *   error or a wrong end state). Ids, codes and emails more than 60 % of their
 *   characters away from the planned value, and names more than 40 % away, are
 *   taken for other values (a number word is never a name). When none was
 *   heard it asks for it (a name in a list of passengers as the passenger's,
 *   who need not be the caller), then asks to spell it, at most twice per
 *   value; after that it says it cannot do that step without it and moves on
 *   (it does not guess: a value it never heard is never acted on). A heard value a tool rejected is not used again, and is asked for again.
 *   Dates, flight numbers, words such as a cabin and flags are not gated: the
 *   agent is taken to have found them itself. Nor is money charged to a
 *   payment method (the `amount` beside a `payment_id`): the agent works the
 *   price out from what it read, and the caller does not know it.
 * - The account. With a read tool that takes only a `user_id`
 *   (`get_user_details`) and a plan that does not call it, the agent first looks
 *   the caller's account up with the user id it heard (asking for it, then for
 *   its spelling, when needed, and trying again with a user id the caller
 *   offers later); what that returns (reservations, payment methods) then
 *   need not be heard.
 * - Changes. Before a write tool it reads the change back and asks "Shall I go
 *   ahead?"; it acts on a heard yes, takes a heard no (with a correction, or
 *   without: it asks again) at most three times, then leaves the change undone.
 * - Caller-side actions are asked for one at a time ("please do this on your
 *   side") and taken as done at the caller's next turn. A caller who did not
 *   catch a turn ("say that again") hears it again (twice at most in a row).
 *   Faults (`drop-last-action`) are honoured.
 * - Speech not meant for it. A phrase said to someone else in the room (tau2-bench's non-directed
 *   phrases: "hold on a second") starts no turn, with selective turn-taking (`min-words`).
 */
import type { JsonObject } from '../scenario/types.js';
import type { ContextMessage } from './context.js';
import type { PolicyHost } from './hook.js';
import {
  canonical,
  closestHeard,
  foundInResults,
  heardAnswer,
  ASK_TO_REPEAT,
  ASKS_REPEAT,
  heardTexts,
  heardValues,
  lastHeard,
  plainSpeech,
  resultError,
  sinceLastUser,
  spelledIds,
  type ValueKind,
} from './listening-common.js';
import { sayAction, sayResult } from './listening-speech.js';
import { isNonDirectedPhrase } from '../voice/turn-taking.js';
import { streamScriptedReply } from './model.js';
import type { ChatModel, ChatRequest, ChatStreamEvent } from './model.js';
import { readScriptedPlan } from './scripted-plan.js';
import type { PlannedAction, ScriptedPlan } from './scripted-plan.js';
import { CLOSING_QUESTION, CONFIRM_QUESTION, END_TOOL_NAMES } from './scripted-policies.js';
import { callerValues, closeEnough, setAt } from './listening-values.js';
import type { CallerValue, HeardUse } from './listening-values.js';

/** Times the agent asks for one caller value (then it gives up on the step). */
export const MAX_ASKS_PER_VALUE = 2;
/** Read-backs of one change the caller may answer with no (then it is left undone). */
export const MAX_CONFIRMATIONS = 3;
/** Times in a row the agent asks a caller it heard nothing from to say it again. */
export const MAX_UNHEARD = 2;
/** What the agent says when the caller spoke and it made out nothing. */
export const UNHEARD_REPLY = ASK_TO_REPEAT;

/** What the agent remembers across the turns of one session. */
interface AgentMemory {
  /** Index of the next plan action. */
  next: number;
  identity: 'pending' | 'done' | 'skipped';
  asks: Map<string, number>;
  /** Caller values the agent stopped asking for. */
  givenUp: Set<string>;
  rejected: Map<string, Set<string>>;
  confirm?: { index: number; args: string; attempts: number };
  /** The call of the last step: the identity lookup, or a plan action with the caller values it used. */
  pending?:
    | { kind: 'identity'; value: string }
    | { kind: 'plan'; calls: { index: number; used: HeardUse[] }[] };
  userStepAsked?: number;
  /** The account lookup failed in this turn: ask before trying another heard id. */
  lookupFailed?: boolean;
  /** A tool refused a caller value as heard: the caller is asked for it again first. */
  reask?: HeardUse;
  closingAsked: boolean;
  lastSaid: string;
  repeats: number;
  /** Times in a row the caller spoke and nothing was made out. */
  unheard: number;
}

interface Reply {
  text: string;
  calls?: { name: string; arguments: JsonObject }[];
  end?: boolean;
}

const IDENTITY_ID = 'identity';

/** The read tool that looks an account up by user id alone, when the session has one. */
function identityTool(host: PolicyHost): string | undefined {
  for (const [name, bound] of host.state.tools) {
    const required = bound.tool.parameters.required ?? [];
    if (bound.tool.kind === 'read' && required.length === 1 && required[0] === 'user_id') {
      return name;
    }
  }
  return undefined;
}

function isWrite(host: PolicyHost, name: string): boolean {
  const bound = host.state.tools.get(name);
  if (bound) return bound.tool.kind !== 'read';
  return !/^(get|search|list|find|calculate|check|think)_/.test(name);
}

/** The plan action the fault leaves out, or -1. */
function droppedIndex(plan: ScriptedPlan): number {
  if (!plan.faults.includes('drop-last-action')) return -1;
  return plan.actions.map((a) => a.side).lastIndexOf('agent');
}

class ListeningAgent {
  readonly memory: AgentMemory = {
    next: 0,
    identity: 'pending',
    asks: new Map(),
    givenUp: new Set(),
    rejected: new Map(),
    closingAsked: false,
    lastSaid: '',
    repeats: 0,
    unheard: 0,
  };

  constructor(private readonly host: PolicyHost) {}

  turn(request: ChatRequest, plan: ScriptedPlan | undefined | string, afterTools: boolean): Reply {
    if (request.turn === 1 && !afterTools) {
      const text =
        'Hello, you have reached an automated assistant, not a person. What can I help you with today?';
      this.memory.lastSaid = text;
      return { text };
    }
    if (plan === undefined || typeof plan === 'string') {
      const text = 'I have no usable plan for this call, so I made no changes. Goodbye.';
      this.memory.lastSaid = text;
      return { text, end: true };
    }
    const m = this.memory;
    const messages = request.messages;
    let said = '';
    if (afterTools) said += this.readResults(messages);
    else {
      m.unheard = 0;
      const heard = lastHeard(messages);
      if (request.turn > 1 && ASKS_REPEAT.test(heard) && m.lastSaid && m.repeats < 2) {
        m.repeats++;
        return { text: `Sure. ${m.lastSaid}` };
      }
      m.repeats = 0;
      m.lookupFailed = false;
      if (m.userStepAsked !== undefined && m.next === m.userStepAsked) {
        m.next++;
      }
    }
    const reply = this.advance(messages, plan, afterTools, request.turn > plan.maxTurns);
    const text = plainSpeech(`${said} ${reply.text}`);
    if (!reply.calls?.length && text) m.lastSaid = reply.text;
    return { ...reply, text };
  }

  /**
   * The caller spoke and nothing was made out of it: when the agent's last words asked something,
   * it asks the caller to say it again ({@link MAX_UNHEARD} times in a row at most); otherwise it
   * waits.
   */
  unheard(): string | undefined {
    const m = this.memory;
    if (!m.lastSaid.includes('?') || m.unheard >= MAX_UNHEARD) return undefined;
    m.unheard++;
    return UNHEARD_REPLY;
  }

  /** What the results of the last step say, and what the agent learns from them. */
  private readResults(messages: readonly ContextMessage[]): string {
    const m = this.memory;
    const pending = m.pending;
    m.pending = undefined;
    const turn = sinceLastUser(messages);
    let last: ContextMessage | undefined;
    for (const message of turn)
      if (message.role === 'assistant' && message.tool_calls) last = message;
    const calls = last?.role === 'assistant' ? (last.tool_calls ?? []) : [];
    if (calls.length === 0 || !pending) return '';
    const contentOf = (id: string): string => {
      const result = turn.find((x) => x.role === 'tool' && x.tool_call_id === id);
      return result?.role === 'tool' ? result.content : '{"error": "no result"}';
    };
    if (pending.kind === 'identity') {
      if (resultError(contentOf(calls[0]!.id)) === undefined) {
        m.identity = 'done';
        return 'Thank you, I found your account.';
      }
      this.reject(IDENTITY_ID, pending.value);
      m.lookupFailed = true;
      return `I could not find an account with the user id ${pending.value}.`;
    }
    const said: string[] = [];
    for (const [i, call] of calls.entries()) {
      const planned = pending.calls[i];
      if (!planned) break;
      const content = contentOf(call.id);
      const error = resultError(content);
      const sentence = sayResult(call.function.name, content);
      if (error !== undefined && planned.used.length > 0) {
        for (const u of planned.used) this.reject(u.id, u.value);
        const spent = planned.used.every((u) => (m.asks.get(u.id) ?? 0) >= MAX_ASKS_PER_VALUE);
        if (!spent) {
          // Ask the caller for the value again, then try the action with what it says.
          m.next = planned.index;
          m.reask = planned.used.find((u) => (m.asks.get(u.id) ?? 0) < MAX_ASKS_PER_VALUE);
          return [...said, sentence].join(' ');
        }
      }
      m.next = planned.index + 1;
      m.confirm = undefined;
      // Of a run of reads, say the errors and the last result only.
      if (error !== undefined || i === calls.length - 1) said.push(sentence);
    }
    return said.join(' ');
  }

  private reject(id: string, value: string): void {
    const set = this.memory.rejected.get(id) ?? new Set<string>();
    set.add(canonical(value));
    this.memory.rejected.set(id, set);
  }

  /** Ask for a value the agent has not heard (or whose heard value failed); undefined when out of asks. */
  private ask(id: string, label: string, kind: ValueKind): string | undefined {
    const asks = this.memory.asks.get(id) ?? 0;
    if (asks >= MAX_ASKS_PER_VALUE) return undefined;
    this.memory.asks.set(id, asks + 1);
    const spell = asks > 0 || this.memory.rejected.has(id);
    if (!spell) return `Could you tell me your ${label}, please?`;
    const how =
      kind === 'amount' ? 'say it once more, slowly' : 'spell it for me, letter by letter';
    return `Sorry, I did not get your ${label}. Could you ${how}?`;
  }

  private advance(
    messages: readonly ContextMessage[],
    plan: ScriptedPlan,
    afterTools: boolean,
    overTime: boolean,
  ): Reply {
    const m = this.memory;
    const texts = heardTexts(messages);
    const identity = identityTool(this.host);
    const planHasAgent = plan.actions.some((a) => a.side === 'agent');
    const lookupUsable =
      identity !== undefined && planHasAgent && !plan.actions.some((a) => a.name === identity);
    if (m.identity === 'pending' && !lookupUsable) m.identity = 'skipped';
    let notes = '';
    const say = (reply: Reply): Reply => ({ ...reply, text: `${notes} ${reply.text}`.trim() });
    // A refused value is asked for again, never replaced by one found elsewhere.
    const reask = m.reask && this.ask(m.reask.id, m.reask.label, m.reask.kind);
    m.reask = undefined;
    if (reask) return say({ text: reask });
    for (let guard = 0; guard < 2 * plan.actions.length + 2; guard++) {
      if (overTime || m.next >= plan.actions.length) return say(this.close(afterTools));
      if (m.identity !== 'done' && lookupUsable && !m.lookupFailed) {
        // Look the account up with the user id heard (also one offered after the asks ran out).
        const rejected = m.rejected.get(IDENTITY_ID) ?? new Set<string>();
        const heard =
          m.identity === 'pending'
            ? this.latestHeardId(texts, rejected)
            : this.latestHeardId(texts.slice(-1), rejected);
        if (heard) {
          m.pending = { kind: 'identity', value: heard };
          return say({ text: '', calls: [{ name: identity, arguments: { user_id: heard } }] });
        }
      }
      if (m.identity === 'pending') {
        const question = this.ask(IDENTITY_ID, 'user id', 'id');
        if (question) return say({ text: question });
        m.identity = 'skipped';
      }
      const index = m.next;
      const action = plan.actions[index]!;
      if (index === droppedIndex(plan)) {
        m.next++;
        continue;
      }
      if (action.side === 'user') {
        m.userStepAsked = index;
        const what = sayAction(action.name, action.arguments).replace(/^I will /, '');
        return say({ text: `Next, please do this on your side: ${what}` });
      }
      const resolved = this.resolve(action, messages, texts);
      if ('missing' in resolved) {
        const { missing } = resolved;
        const { label } = missing;
        const question = m.givenUp.has(missing.id)
          ? undefined
          : this.ask(missing.id, label, missing.kind);
        if (question) return say({ text: question });
        if (!m.givenUp.has(missing.id))
          notes += ` I'm sorry, without your ${label} I cannot do that.`;
        m.givenUp.add(missing.id);
        m.next++;
        m.confirm = undefined;
        continue;
      }
      const { args, used } = resolved;
      if (isWrite(this.host, action.name)) {
        const confirmed = this.confirmation(index, args, messages, afterTools);
        const readBack = `${sayAction(action.name, args)} ${CONFIRM_QUESTION}`;
        if (confirmed === 'ask') return say({ text: readBack });
        if (confirmed === 'again') return say({ text: `Sorry, was that a yes? ${readBack}` });
        if (confirmed === 'give-up') {
          notes += ' I could not confirm the details with you, so I have not made that change.';
          m.next++;
          m.confirm = undefined;
          continue;
        }
        if (confirmed === 'changed' && used.length === 0) {
          return say({ text: `Sorry, what should I change? ${readBack}` });
        }
        if (confirmed === 'changed') {
          // A no without a new value: what was heard is not what the caller meant.
          for (const u of used) this.reject(u.id, u.value);
          continue;
        }
      }
      // A read runs with the reads after it that are ready too.
      const batch = [{ index, used, call: { name: action.name, arguments: args } }];
      for (let j = index + 1; !isWrite(this.host, action.name) && j < plan.actions.length; j++) {
        const next = plan.actions[j]!;
        if (next.side !== 'agent' || j === droppedIndex(plan) || isWrite(this.host, next.name)) {
          break;
        }
        const ready = this.resolve(next, messages, texts);
        if ('missing' in ready) break;
        batch.push({
          index: j,
          used: ready.used,
          call: { name: next.name, arguments: ready.args },
        });
      }
      m.pending = { kind: 'plan', calls: batch.map((b) => ({ index: b.index, used: b.used })) };
      return say({ text: '', calls: batch.map((b) => b.call) });
    }
    return say(this.close(afterTools));
  }

  /** The last id heard that was not rejected (a spelled one first). */
  private latestHeardId(
    texts: readonly string[],
    rejected: ReadonlySet<string>,
  ): string | undefined {
    for (let i = texts.length - 1; i >= 0; i--) {
      const ids = [...spelledIds(texts[i]!), ...heardValues(texts[i]!, 'id').reverse()].filter(
        (v) => !rejected.has(canonical(v)),
      );
      if (ids.length > 0) return ids[0]!.toLowerCase();
    }
    return undefined;
  }

  /** The action's arguments with the heard caller values, or the first value still missing. */
  private resolve(
    action: PlannedAction,
    messages: readonly ContextMessage[],
    texts: readonly string[],
  ): { args: JsonObject; used: HeardUse[] } | { missing: CallerValue } {
    const args = structuredClone(action.arguments);
    const used: HeardUse[] = [];
    for (const value of callerValues(action)) {
      if (foundInResults(messages, value.planned)) continue;
      const heard = closestHeard(
        texts,
        value.kind,
        value.planned,
        this.memory.rejected.get(value.id),
      );
      if (heard === undefined || !closeEnough(value, heard)) return { missing: value };
      setAt(args, value.path, value.kind === 'amount' ? Number(heard) : heard);
      used.push({ id: value.id, value: heard, label: value.label, kind: value.kind });
    }
    return { args, used };
  }

  /** Where the read-back of a change stands after what was just heard. */
  private confirmation(
    index: number,
    args: JsonObject,
    messages: readonly ContextMessage[],
    afterTools: boolean,
  ): 'ask' | 'again' | 'go' | 'changed' | 'give-up' {
    const m = this.memory;
    const key = JSON.stringify(args);
    const current = m.confirm;
    if (!current || current.index !== index) {
      m.confirm = { index, args: key, attempts: 0 };
      return 'ask';
    }
    if (afterTools) return 'ask';
    const answer = heardAnswer(lastHeard(messages));
    if (current.args !== key) {
      // The caller's answer changed what was heard: read the new values back.
      current.args = key;
      current.attempts++;
      return current.attempts >= MAX_CONFIRMATIONS ? 'give-up' : 'ask';
    }
    if (answer === true) return 'go';
    current.attempts++;
    if (current.attempts >= MAX_CONFIRMATIONS) return 'give-up';
    return answer === false ? 'changed' : 'again';
  }

  private close(afterTools: boolean): Reply {
    const m = this.memory;
    if (m.closingAsked && !afterTools)
      return { text: 'Thank you for calling. Goodbye.', end: true };
    m.closingAsked = true;
    return { text: `That is all I can do for you. ${CLOSING_QUESTION}` };
  }
}

function emit(
  request: ChatRequest,
  reply: Reply,
  endTool: string | undefined,
): AsyncIterable<ChatStreamEvent> {
  const calls = [...(reply.calls ?? [])];
  if (reply.end && endTool) calls.push({ name: endTool, arguments: {} });
  return streamScriptedReply(request, { text: reply.text, calls });
}

/** The listening reference agent (audio mode), built per session. */
export function createListeningAgentModel(host: PolicyHost): ChatModel {
  const agent = new ListeningAgent(host);
  return {
    processor: 'ScriptedListeningAgent',
    model: 'scripted:listening-agent',
    scripted: true,
    // A caller talking to someone in the room ("hold on a second") is not talking to the agent.
    takesTurn: (heard) => !isNonDirectedPhrase(heard),
    unheard: () => agent.unheard(),
    async *stream(request) {
      const afterTools = sinceLastUser(request.messages).some((m) => m.role === 'tool');
      const reply = agent.turn(request, readScriptedPlan(host.state.shared), afterTools);
      const endTool = END_TOOL_NAMES.find((name) => host.state.tools.has(name));
      yield* emit(request, reply, endTool);
    },
  };
}

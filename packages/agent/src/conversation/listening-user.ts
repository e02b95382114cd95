/**
 * The listening scripted user: the scripted user for audio mode, which speaks
 * as a caller and answers what it heard the agent say (the user messages of
 * its context are its recognizer's transcripts).
 *
 * - It opens with its reason for calling in the first person ("Hi, I want to
 *   cancel my reservation EHGLP3"), never with its instructions' headings.
 * - Asked for something it knows (name, user id, reservation or order number,
 *   email, zip code, phone: the "Your ... is ..." facts of its instructions;
 *   a passenger it names, "passenger Kevin Smith"), it gives it (asked for a
 *   passenger's name with none named, its own); asked to spell, it spells it (NATO words for letters, digit
 *   words, "underscore"); asked for something it does not know, it says so and
 *   offers its user id instead.
 * - Asked to confirm, it reads the values it heard (ids, codes, emails) back
 *   with the spoken-value readers: a heard value close to one of its own but
 *   not equal is a mismatch, and it corrects the agent (at most twice, then it
 *   accepts); otherwise it says yes.
 * - It carries out its own side of the plan (user-device tools) when the agent
 *   asks it to act on its side, says its last words again when asked to (twice in
 *   a row at most), asks to repeat what it did not understand (at
 *   most twice in a row, then it says yes), and stops with `###STOP###` after a
 *   goodbye or its turn limit.
 */
import { digitWords } from '../voice/spoken/numbers.js';
import type { PolicyHost } from './hook.js';
import {
  ASK_TO_REPEAT,
  ASKS_REPEAT,
  editDistance,
  canonical,
  heardValues,
  lastHeard,
  sameValue,
  sinceLastUser,
  type ValueKind,
} from './listening-common.js';
import { streamScriptedReply } from './model.js';
import type { ChatModel, ChatRequest, ChatStreamEvent } from './model.js';
import { readScriptedPlan } from './scripted-plan.js';
import type { PlannedAction } from './scripted-plan.js';
import { answerFromInstructions } from './scripted-policies.js';
import { USER_STOP_TOKEN } from './stop-tokens.js';

/** Corrections of a read-back the listening user makes before it accepts. */
export const MAX_CORRECTIONS = 2;
/** Times in a row the listening user says its last words again when asked to. */
export const MAX_REPEATS = 2;

/** One thing the caller knows: "user id" = "aarav_garcia_1177". */
export interface CallerFact {
  label: string;
  value: string;
  kind: ValueKind | 'other';
}

/** The parts of a caller's instructions the listening user speaks from. */
export interface CallerScript {
  reason: string;
  known: string;
  task: string;
  facts: CallerFact[];
}

const SECTIONS = ['Reason for call', 'Known info', 'Unknown info', 'Task instructions'] as const;

/** The text of one `Heading:` section of tau2-style instructions. */
function section(text: string, heading: string): string {
  const others = SECTIONS.filter((s) => s !== heading).join('|');
  const match = new RegExp(
    `${heading}:\\s*([\\s\\S]*?)(?=\\n\\s*(?:${others}|Persona|Instructions|Domain):|</scenario>|$)`,
  ).exec(text);
  return match?.[1]?.replace(/\s+/g, ' ').trim() ?? '';
}

const AIRPORT_CITIES: Record<string, string> = {
  SFO: 'San Francisco',
  JFK: 'New York JFK',
  LAX: 'Los Angeles',
  ORD: 'Chicago',
  DFW: 'Dallas',
  DEN: 'Denver',
  SEA: 'Seattle',
  ATL: 'Atlanta',
  MIA: 'Miami',
  BOS: 'Boston',
  PHX: 'Phoenix',
  IAH: 'Houston',
  LAS: 'Las Vegas',
  MCO: 'Orlando',
  EWR: 'Newark',
  CLT: 'Charlotte',
  MSP: 'Minneapolis',
  DTW: 'Detroit',
  PHL: 'Philadelphia',
  LGA: 'LaGuardia',
};

/** Second-person instructions as the caller says them: "you want ... your trip" -> "I want ... my trip". */
export function firstPerson(text: string): string {
  const subjectBefore =
    /(^|[.!?;:,]\s*|\b(?:and|but|that|because|if|when|so|since|as|or|then|while|unless)\s+)$/i;
  let out = text
    .replace(/\byou are\b/gi, 'I am')
    .replace(/\byou were\b/gi, 'I was')
    .replace(/\byou're\b/gi, "I'm")
    .replace(/\byou've\b/gi, "I've")
    .replace(/\byou'd\b/gi, "I'd")
    .replace(/\byou'll\b/gi, "I'll")
    .replace(/\byourself\b/gi, 'myself')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, (_m, offset: number, whole: string) =>
      subjectBefore.test(whole.slice(0, offset)) ? 'I' : 'me',
    );
  out = out.replace(/\b([A-Z]{3})\b/g, (code) => AIRPORT_CITIES[code] ?? code);
  out = out.replace(
    /(^|[.!?]\s+)([a-z])/g,
    (_m, lead: string, c: string) => lead + c.toUpperCase(),
  );
  return out.replace(/\s+/g, ' ').trim();
}

function kindOfValue(value: string): ValueKind | 'other' {
  if (/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value)) return 'email';
  if (/^[a-z]+(_[a-z0-9]+)+$/i.test(value)) return 'id';
  if (/^#?[A-Z0-9]{5,10}$/.test(value) && /\d/.test(value) && /[A-Z]/.test(value)) return 'code';
  if (/^#?[A-Z0-9]{6}$/.test(value)) return 'code';
  return 'other';
}

/** The facts of a caller's instructions: "Your user id is x", "You are Anya Garcia", codes named in them. */
export function callerFacts(text: string): CallerFact[] {
  const facts: CallerFact[] = [];
  const add = (label: string, raw: string, more = false) => {
    const value = raw
      .trim()
      .replace(/[.,;]+$/, '')
      .replace(/^['"\u2018\u201c]+|['"\u2019\u201d]+$/g, '');
    const known = facts.filter((f) => f.label === label);
    if (!value || (known.length > 0 && !more) || known.some((f) => f.value === value)) return;
    facts.push({
      label,
      value,
      kind: /^(passenger )?name$/.test(label) ? 'name' : kindOfValue(value),
    });
  };
  const you = /\b(?:You are|I am|My name is|Your name is)\s+([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)/.exec(
    text,
  );
  if (you) add('name', you[1]!);
  for (const m of text.matchAll(
    /\b(?:Your|My)\s+([a-z][a-z -]{1,30}?)\s+(?:is|are)\s+(.+?)(?=\.(?:\s|$)|[,;]\s|\n|$)/gi,
  )) {
    const label = m[1]!.toLowerCase().trim();
    if (label === 'name' || m[2]!.split(/\s+/).length > 4) continue;
    add(label === 'confirmation number' ? 'reservation id' : label, m[2]!);
  }
  const phone = /\bphone number (?:is )?(\+?\d[\d\s().-]{6,}\d)/i.exec(text);
  if (phone) add('phone number', phone[1]!);
  // A passenger named with a full name: "add an extra passenger Kevin Smith".
  for (const m of text.matchAll(/\bpassenger,?\s+(?:named\s+)?([A-Z][a-z]+(?:\s+[A-Z][a-z]+)+)/g)) {
    add('passenger name', m[1]!, true);
  }
  // Codes named in the text: "reservation EHGLP3", "reservation IDs XEHM4B and 59XX6W".
  const code = '#?[A-Z0-9]{5,10}';
  for (const m of text.matchAll(
    new RegExp(
      `\\b(reservation|order|booking|confirmation)s?(?:\\s+(?:ids?|numbers?))?\\s+(${code}(?:(?:,\\s*|\\s+and\\s+)${code})*)\\b`,
      'gi',
    ),
  )) {
    const label = `${m[1]!.toLowerCase() === 'order' ? 'order' : 'reservation'} id`;
    for (const value of m[2]!.split(/,\s*|\s+and\s+/)) {
      if (/\d|^[A-Z]{6}$/.test(value) && /^#?[A-Z0-9]+$/.test(value)) add(label, value, true);
    }
  }
  return facts;
}

/** Read a caller's instructions out of its system prompt. */
export function callerScript(systemPrompt: string): CallerScript {
  const scenario = /<scenario>([\s\S]*?)<\/scenario>/.exec(systemPrompt)?.[1] ?? systemPrompt;
  const reason = section(scenario, 'Reason for call');
  const known = section(scenario, 'Known info');
  const task = section(scenario, 'Task instructions');
  const free = reason || known || task ? '' : scenario.replace(/\s+/g, ' ').trim();
  return {
    reason: reason || free,
    known,
    task,
    facts: callerFacts([known, reason, task, free].join('\n')),
  };
}

/** A value spelled out as a caller does on the phone: NATO words for letters, digits as words. */
export function spellValue(value: string): string {
  const nato: Record<string, string> = {
    a: 'alpha',
    b: 'bravo',
    c: 'charlie',
    d: 'delta',
    e: 'echo',
    f: 'foxtrot',
    g: 'golf',
    h: 'hotel',
    i: 'india',
    j: 'juliet',
    k: 'kilo',
    l: 'lima',
    m: 'mike',
    n: 'november',
    o: 'oscar',
    p: 'papa',
    q: 'quebec',
    r: 'romeo',
    s: 'sierra',
    t: 'tango',
    u: 'uniform',
    v: 'victor',
    w: 'whiskey',
    x: 'x-ray',
    y: 'yankee',
    z: 'zulu',
  };
  // A pause around each underscore, at sign or dot; letters and digits in one breath.
  const words: string[] = [];
  for (const ch of value.toLowerCase()) {
    if (ch === '_') words.push(', underscore,');
    else if (ch === '@') words.push(', at,');
    else if (ch === '.') words.push(', dot,');
    else if (/\d/.test(ch)) words.push(digitWords(ch));
    else if (nato[ch]) words.push(nato[ch]);
  }
  return words.join(' ').replace(/\s+,/g, ',').replace(/,\s*$/, '');
}

/** How a fact is said in a sentence: "My user id is aarav_garcia_1177.", "The passenger's name is Kevin Smith." */
function sayFact(fact: CallerFact, spell: boolean): string {
  const passenger = /^passenger /.test(fact.label);
  const whose = passenger
    ? `the passenger's ${fact.label.slice('passenger '.length)}`
    : `my ${fact.label}`;
  const subject = whose.charAt(0).toUpperCase() + whose.slice(1);
  if (!spell || fact.kind === 'other') return `${subject} is ${fact.value}.`;
  return `Sure, ${whose} is spelled ${spellValue(fact.value)}.`;
}

/** Facts said together: several values of one label in one sentence. */
function sayFacts(facts: readonly CallerFact[], spell: boolean): string {
  const first = facts[0];
  if (facts.length > 1 && first && facts.every((f) => f.label === first.label)) {
    const values = facts.map((f) => (spell ? spellValue(f.value) : f.value));
    const list = `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]!}`;
    return spell
      ? `Sure, my ${first.label}s are spelled ${list}.`
      : `My ${first.label}s are ${list}.`;
  }
  return facts.map((f) => sayFact(f, spell)).join(' ');
}

/** What the agent asked for, by the facts' labels (`fallback`: the facts given when none has the label). */
const TOPICS: { asked: RegExp; label: RegExp; word: string; fallback?: RegExp }[] = [
  { asked: /\buser\b|\baccount\b|\bid\b|\bi d\b/g, label: /user/, word: 'user id' },
  {
    asked: /\breservation|\bconfirmation|\bbooking/g,
    label: /reservation|confirmation|booking/,
    word: 'reservation number',
  },
  { asked: /\border\b/g, label: /order/, word: 'order number' },
  { asked: /\be ?mail\b/g, label: /mail/, word: 'email address' },
  { asked: /\bzip\b|\bpostal\b|\bpost code\b/g, label: /zip|postal/, word: 'zip code' },
  { asked: /\bphone\b/g, label: /phone/, word: 'phone number' },
  // A passenger's name: a passenger the caller named, else the caller (who travels).
  { asked: /\bpassenger'?s?\b/g, label: /^passenger /, word: 'passenger name', fallback: /^name$/ },
  { asked: /(?<!\bpassenger'?s?(?: first| last| full)? )\bname\b/g, label: /^name$/, word: 'name' },
];

/** The topic the agent asked about last in what was heard (its question ends its turn). */
function askedTopic(heard: string): (typeof TOPICS)[number] | undefined {
  let best: { topic: (typeof TOPICS)[number]; at: number } | undefined;
  for (const topic of TOPICS) {
    for (const m of heard.matchAll(topic.asked)) {
      if (!best || m.index > best.at) best = { topic, at: m.index };
    }
  }
  return best?.topic;
}

const CONFIRM_ASKED =
  /go ahead|shall i|should i|proceed|confirm|is that (right|correct)|do you want me/;
const AGENT_DONE = /\b(goodbye|good bye|bye)\b/;
const ASKS_ANYTHING_ELSE = /\banything else\b/;
const ASKS_SPELL = /\bspell|letter by letter|one (letter|character) at a time/;
const ASKS_YOUR_SIDE = /\b(your side|your end|your phone|your device)\b/;
const ASKS_HELP = /\bhelp\b|\bassist\b|\bwhat can i do\b/;

interface UserMemory {
  corrections: number;
  unclear: number;
  nextUserAction: number;
  lastGiven?: CallerFact;
  /** The caller's last words, to say again when asked. */
  lastSaid?: string;
  /** Times in a row it was asked to say them again. */
  repeats: number;
}

/** The read-back mismatches: heard values close to one of the caller's, but not equal to it. */
export function mismatches(heard: string, facts: readonly CallerFact[]): CallerFact[] {
  const wrong: CallerFact[] = [];
  for (const kind of ['id', 'code', 'email'] as const) {
    const mine = facts.filter((f) => f.kind === kind);
    if (mine.length === 0) continue;
    for (const value of heardValues(heard, kind)) {
      if (mine.some((f) => sameValue(f.value.replace(/^#/, ''), value.replace(/^#/, '')))) continue;
      const near = mine.find((f) => {
        const a = canonical(f.value.replace(/^#/, ''));
        return editDistance(a, canonical(value)) <= Math.ceil(0.5 * a.length);
      });
      if (near && !wrong.includes(near)) wrong.push(near);
    }
  }
  return wrong;
}

function userTurn(
  memory: UserMemory,
  script: CallerScript,
  request: ChatRequest,
  userActions: readonly PlannedAction[],
  maxTurns: number,
  afterTools: boolean,
): { text: string; calls?: { name: string; arguments: Record<string, unknown> }[] } {
  if (request.turn === 1) {
    const reason = script.reason ? firstPerson(script.reason) : 'I need some help.';
    return { text: `Hi. ${reason}` };
  }
  const heard = lastHeard(request.messages).toLowerCase();
  if (request.turn > maxTurns || AGENT_DONE.test(heard)) return { text: USER_STOP_TOKEN };
  if (afterTools) return { text: 'Okay, I did that on my side.' };
  if (ASKS_YOUR_SIDE.test(heard) && memory.nextUserAction < userActions.length) {
    const calls = [userActions[memory.nextUserAction]!];
    memory.nextUserAction++;
    return { text: '', calls: calls.map((a) => ({ name: a.name, arguments: a.arguments })) };
  }
  const topic = askedTopic(heard);
  if (CONFIRM_ASKED.test(heard)) {
    memory.unclear = 0;
    const wrong = mismatches(heard, script.facts);
    if (wrong.length > 0 && memory.corrections < MAX_CORRECTIONS) {
      memory.corrections++;
      return {
        text: `No, that's not right. ${wrong
          .map((f) => `My ${f.label} is ${f.value}, spelled ${spellValue(f.value)}.`)
          .join(' ')}`,
      };
    }
    return { text: 'Yes, please go ahead.' };
  }
  if (ASKS_ANYTHING_ELSE.test(heard)) return { text: "No, that's all. Thank you, goodbye." };
  const spell = ASKS_SPELL.test(heard);
  if (topic || spell) {
    memory.unclear = 0;
    const about = (label: RegExp | undefined) =>
      label ? script.facts.filter((f) => label.test(f.label)) : [];
    let known = about(topic?.label);
    if (known.length === 0) known = about(topic?.fallback);
    const given = known.length > 0 ? known : spell && memory.lastGiven ? [memory.lastGiven] : [];
    if (given.length > 0) {
      memory.lastGiven = given[given.length - 1];
      return { text: sayFacts(given, spell) };
    }
    const missing = `I'm sorry, I don't have my ${topic?.word ?? 'that'}.`;
    const userId = script.facts.find((f) => /user/.test(f.label));
    if (userId && topic?.word !== 'user id') {
      memory.lastGiven = userId;
      return { text: `${missing} ${sayFact(userId, spell)}` };
    }
    return { text: missing };
  }
  if (request.turn <= 3 && ASKS_HELP.test(heard) && script.reason) {
    return { text: firstPerson(script.reason) };
  }
  if (ASKS_REPEAT.test(heard) && memory.lastSaid && memory.repeats < MAX_REPEATS) {
    memory.repeats++;
    return { text: memory.lastSaid };
  }
  const answer = answerFromInstructions(
    [script.reason, script.known, script.task].join('\n'),
    heard,
  );
  if (
    answer &&
    !/^(Domain|Instructions|Known info|Reason for call|Task instructions)\b/.test(answer)
  ) {
    memory.unclear = 0;
    return { text: firstPerson(answer) };
  }
  memory.unclear++;
  if (memory.unclear <= 2) return { text: ASK_TO_REPEAT };
  memory.unclear = 0;
  return { text: 'Yes, please.' };
}

/** The listening scripted user (audio mode), built per session. */
export function createListeningUserModel(host: PolicyHost): ChatModel {
  const memory: UserMemory = { corrections: 0, unclear: 0, nextUserAction: 0, repeats: 0 };
  let cached: { prompt: string; script: CallerScript } | undefined;
  return {
    processor: 'ScriptedListeningUser',
    model: 'scripted:listening-user',
    scripted: true,
    async *stream(request): AsyncGenerator<ChatStreamEvent> {
      const prompt = host.context.systemPrompt;
      if (cached?.prompt !== prompt) cached = { prompt, script: callerScript(prompt) };
      const plan = readScriptedPlan(host.state.shared);
      const usable = plan !== undefined && typeof plan !== 'string' ? plan : undefined;
      const afterTools = sinceLastUser(request.messages).some((m) => m.role === 'tool');
      const reply = userTurn(
        memory,
        cached.script,
        request,
        usable?.actions.filter((a) => a.side === 'user') ?? [],
        usable?.maxTurns ?? 30,
        afterTools,
      );
      if (reply.text !== memory.lastSaid) memory.repeats = 0;
      if (reply.text && reply.text !== USER_STOP_TOKEN) memory.lastSaid = reply.text;
      yield* streamScriptedReply(request, { text: reply.text, calls: reply.calls ?? [] });
    },
  };
}

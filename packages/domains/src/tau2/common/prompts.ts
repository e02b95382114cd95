/**
 * Our own prompt text around the verbatim tau2 policies: the agent's
 * "Additional Notes to Follow" and the user simulator's system prompt.
 *
 * @module
 */
import { END_CONVERSATION_TOOL } from './generic-tools.js';

/** The notes appended to every tau2 agent policy. */
export const AGENT_ADDITIONAL_NOTES = [
  '## Additional Notes to Follow',
  '',
  '- This is a voice call: everything you write is read aloud by a text-to-speech engine. Keep replies ' +
    'short and conversational, use plain sentences without Markdown, lists or symbols, and say numbers ' +
    'and amounts the way a person would speak them.',
  '- Spell out identifiers (reservation, order, user and line ids, phone numbers, emails) one character at ' +
    "a time, reading punctuation aloud: '_' as underscore, '-' as dash, '@' as at, '.' as dot, '#' as hash.",
  `- When every request is handled, ask whether the caller needs anything else. Once they say they are done ` +
    `and you have said goodbye, call \`${END_CONVERSATION_TOOL}\` to end the call; never call it earlier. A ` +
    'transfer to a human agent ends the call by itself.',
  '- Be honest about what happened: an action counts as done only when a tool call that performs it ' +
    'succeeded. Never report a change, refund or charge that was only discussed, and say so plainly when a ' +
    'tool call fails.',
].join('\n');

/** `policy` followed by the additional notes (and any domain-specific extra notes). */
export function agentPrompt(policy: string, extraNotes: readonly string[] = []): string {
  const notes = [AGENT_ADDITIONAL_NOTES, ...extraNotes.map((n) => `- ${n}`)].join('\n');
  return `${policy.trimEnd()}\n\n${notes}\n`;
}

/** The user simulator's system prompt for one tau2 task. */
export function userPrompt(instructions: string, extraGuidelines: readonly string[] = []): string {
  const guidelines = [
    'You are the caller, not the agent: speak only as the customer, one short spoken turn at a time.',
    'Follow the instructions below. Reveal information only when it is asked for or needed, and never ' +
      "invent facts that are not in them; if you are asked something you don't know, say so.",
    'Spell identifiers one character at a time when you give them.',
    'When your goal is reached, or it clearly cannot be reached, thank the agent and say goodbye.',
    ...extraGuidelines,
  ];
  return [
    'You are simulating a customer calling a support line.',
    '',
    '## Guidelines',
    ...guidelines.map((g) => `- ${g}`),
    '',
    '## Your scenario',
    '<scenario>',
    instructions,
    '</scenario>',
    '',
  ].join('\n');
}

/**
 * System prompts of the two bots in a commerce scenario: the shop assistant (policy plus
 * additional notes) and the simulated shopper (who they are, what they want, what they know).
 *
 * @module
 */
import { USER_STOP_TOKEN } from '@scenaro/agent';

export { USER_STOP_TOKEN };

/** Notes every commerce agent gets after the policy, as tau2 scenarios do. */
export const COMMERCE_AGENT_NOTES: readonly string[] = [
  'You are speaking, not writing: keep each turn short (one to three sentences), no lists, no markdown, no emojis.',
  'Spell out ids and numbers only when the shopper needs them; otherwise refer to products by name.',
  'Be honest: if you cannot do something, say so; never claim an action succeeded unless the tool result says it did.',
  'When the conversation is over, say goodbye and call end_conversation.',
];

/** The agent's system prompt: the policy, then `## Additional Notes to Follow`. */
export function buildAgentPrompt(policy: string, scenarioNotes?: string): string {
  const notes = [...COMMERCE_AGENT_NOTES, ...(scenarioNotes ? [scenarioNotes] : [])];
  return `${policy.trimEnd()}\n\n## Additional Notes to Follow\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
}

/** The user-simulator part of a scenario file. */
export interface ShopperBrief {
  /** Who the shopper is (name, situation, manner). */
  who: string;
  /** What they want from this conversation. */
  wants: string;
  /** Facts they know and can give when asked. */
  knows: readonly string[];
}

/** The shopper's instructions in plain language (`Scenario.userInstructions`). */
export function buildUserInstructions(brief: ShopperBrief): string {
  const parts = [`Who you are: ${brief.who}`, `What you want: ${brief.wants}`];
  if (brief.knows.length > 0)
    parts.push(`What you know:\n${brief.knows.map((k) => `- ${k}`).join('\n')}`);
  return parts.join('\n\n');
}

/** The user simulator's system prompt. */
export function buildUserPrompt(brief: ShopperBrief): string {
  return [
    'You are role-playing a shopper talking, by voice, with the shopping assistant of an online store.',
    'The assistant can search the catalogue, show products on your screen, manage your shortlist and cart, and place or cancel orders.',
    '',
    '## Rules',
    '- Speak like a real person on the phone: one or two short sentences per turn.',
    '- Reveal what you want step by step; give facts only when they are asked for or needed.',
    '- Never invent facts that are not listed below; if asked something you do not know, say you do not know.',
    '- You are signed in on the website; you never need to give passwords or card numbers.',
    '- Answer confirmation questions according to what you want.',
    `- When your goal is reached, or clearly cannot be reached, say goodbye and end your last message with ${USER_STOP_TOKEN}.`,
    '',
    '<scenario>',
    buildUserInstructions(brief),
    '</scenario>',
    '',
  ].join('\n');
}

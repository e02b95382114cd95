/**
 * The tokens a simulated user ends a conversation with (tau2's convention): the scripted user
 * says one, user prompts tell a language model to say one, and an evaluation bridge stops on one.
 */

/** The stop token a simulated user ends a finished conversation with. */
export const USER_STOP_TOKEN = '###STOP###';

/** Every token that ends a conversation from the user's side: done, transferred, out of scope. */
export const USER_STOP_TOKENS = [USER_STOP_TOKEN, '###TRANSFER###', '###OUT-OF-SCOPE###'] as const;

/** One of {@link USER_STOP_TOKENS}. */
export type UserStopToken = (typeof USER_STOP_TOKENS)[number];

/** The first of {@link USER_STOP_TOKENS} that `text` contains, if any. */
export function findUserStopToken(text: string): UserStopToken | undefined {
  return USER_STOP_TOKENS.find((token) => text.includes(token));
}

/** `text` without the stop tokens in it (what of it is speech). */
export function withoutUserStopTokens(text: string): string {
  if (!findUserStopToken(text)) return text;
  let rest = text;
  for (const token of USER_STOP_TOKENS) rest = rest.split(token).join(' ');
  return rest.replace(/\s+/g, ' ').trim();
}

/**
 * The lines of the conversation log and how the bot's speech is followed in them: a voiced
 * reply's text arrives first (streamed by the model), then its sentences are spoken one by one;
 * each spoken sentence is found in the voiced bot lines from where the last one ended, so the
 * line shows how far the bot has spoken.
 */

/** Where a tool call stands. `interrupted`: the connection closed while it ran. */
export type ToolStatus = 'running' | 'done' | 'failed' | 'cancelled' | 'interrupted';

/** One line of the conversation log. */
export type ChatEntry =
  | {
      id: number;
      kind: 'user';
      text: string;
      /** Heard through the microphone. */
      voice?: boolean;
      /** Still being recognized. */
      interim?: boolean;
    }
  | {
      id: number;
      kind: 'bot';
      text: string;
      streaming: boolean;
      /** The reply is spoken as well as written. */
      voiced?: boolean;
      /** Characters of `text` spoken so far. */
      spoken?: number;
      /** Being spoken now. */
      speaking?: boolean;
      /** The shopper spoke over it and the bot stopped. */
      interrupted?: boolean;
    }
  | {
      id: number;
      kind: 'tool';
      toolCallId: string;
      name: string;
      args?: Record<string, unknown>;
      status: ToolStatus;
      detail?: string;
    }
  | { id: number; kind: 'notice'; text: string; tone: 'info' | 'error' };

/** A bot line. */
export type BotEntry = Extract<ChatEntry, { kind: 'bot' }>;

/** How far the bot has spoken: in line `id`, up to character `offset`. */
export interface SpeechCursor {
  id: number;
  offset: number;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Where the spoken `sentence` ends in the voiced bot lines at or after `cursor` (whitespace may
 * differ), or undefined when none holds it.
 */
export function locateSpoken(
  entries: readonly ChatEntry[],
  cursor: SpeechCursor | undefined,
  sentence: string,
): SpeechCursor | undefined {
  const words = sentence.trim().split(/\s+/).filter(Boolean).map(escapeRegExp);
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.join('\\s+'), 'g');
  for (const entry of entries) {
    if (entry.kind !== 'bot' || !entry.voiced) continue;
    if (cursor && entry.id < cursor.id) continue;
    pattern.lastIndex = cursor && entry.id === cursor.id ? cursor.offset : 0;
    const match = pattern.exec(entry.text);
    if (match) return { id: entry.id, offset: match.index + match[0].length };
  }
  return undefined;
}

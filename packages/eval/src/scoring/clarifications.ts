/**
 * Clarification turns of an audio-mode conversation: turns spent getting a value across rather
 * than moving the task on. A turn is read from what its bot said (`said`), one kind per turn:
 *
 * - `correct`: it says a read-back was wrong ("No, that's not right. My user id is ...", "that's
 *   wrong", "no, I said ...");
 * - `spell`: it asks for a value letter by letter ("Could you spell it for me, letter by letter?");
 * - `confirm`: it asks whether it heard a value or an answer right ("did you say ...", "Sorry, was
 *   that a yes?", "Sorry, what should I change?", "did I get that right");
 * - `repeat`: it asks to hear something again ("Sorry, I did not get your user id. Could you say it
 *   once more, slowly?", "Sorry, I didn't catch that. Could you say it again?", "could you repeat").
 *
 * The first request for a value ("Could you tell me your user id, please?") and the read-back of a
 * change before it is made ("I will cancel ... Shall I go ahead?") are not clarifications: every
 * conversation has them, however well each side hears. The listening agent asks to spell or to say
 * a value again, and asks again after an unclear or negative answer to a read-back; the listening
 * user corrects a read-back and asks to hear a turn again; the general phrases cover other bots.
 *
 * @module
 */
import type { AudioSegmentMetrics, ClarificationKind, Clarifications } from './types.js';

export type { ClarificationKind, ClarificationTurn, Clarifications } from './types.js';

/** The phrases of each kind, checked in this order (the first that matches names the turn). */
export const CLARIFICATION_PHRASES: ReadonlyArray<readonly [ClarificationKind, RegExp]> = [
  [
    'correct',
    new RegExp(
      [
        /\b(that|it) ?(is|'s|was) not (right|correct|what i said)\b/,
        /\bthat isn't (right|correct)\b/,
        /\b(that|it) ?(is|'s|was) (wrong|incorrect|a mistake)\b/,
        /^\W*(no\W+)?not quite\b/,
        /^\W*(no|nope)\b[^.?!]*\bi said\b/,
        /\bi (did not|didn't) say\b/,
      ]
        .map((r) => r.source)
        .join('|'),
    ),
  ],
  [
    'spell',
    /\bspell (it|that|this|your|the|out|them|those|for)\b|\bspell\W*$|\bletter by letter\b|\bone (letter|character) at a time\b|\bhow (do|would) you spell\b/,
  ],
  [
    'confirm',
    new RegExp(
      [
        /\bdid you (say|mean)\b/,
        /\bwas that (a )?(yes|no)\b/,
        /\bwhat should i change\b/,
        /\bdid i (get|hear|catch|understand) (that|it|this|you|your \w+( \w+)?) (right|correctly)\b/,
        /\b(is|was) that spelled\b/,
        /\bjust to (double[- ]?check|make sure i (heard|got|have))\b/,
      ]
        .map((r) => r.source)
        .join('|'),
    ),
  ],
  [
    'repeat',
    new RegExp(
      [
        /\b(could|can|would|will) you (please )?(repeat|say (that|it|this) (again|once more)|say it one more time)\b/,
        /\bplease (repeat|say (that|it) again)\b/,
        /\bsay (that|it) (again|once more)\b/,
        /\bi (did not|didn't|could not|couldn't) (quite )?(catch|get|hear|understand) (that|it|what you said|you|your)\b/,
        /\bi missed (that|what you said)\b/,
        /\bcome again\b/,
        /\b(i beg your )?pardon\b/,
      ]
        .map((r) => r.source)
        .join('|'),
    ),
  ],
];

/** Text as the phrases read it: lowercase, straight apostrophes, single spaces. */
function plain(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

/** The kind of clarification a turn is, or null when it is none. */
export function clarificationKind(said: string): ClarificationKind | null {
  const text = plain(said);
  for (const [kind, pattern] of CLARIFICATION_PHRASES) if (pattern.test(text)) return kind;
  return null;
}

/** The clarification turns of a conversation, with their index in `segments`. */
export function clarificationTurns(segments: readonly AudioSegmentMetrics[]): Clarifications {
  const turns = segments.flatMap((s, turn) => {
    const kind = clarificationKind(s.said);
    return kind === null ? [] : [{ turn, role: s.role, kind, at: s.start }];
  });
  return {
    total: turns.length,
    agent: turns.filter((t) => t.role === 'agent').length,
    user: turns.filter((t) => t.role === 'user').length,
    turns,
  };
}

// Clarification turns: the phrase table (the listening policies' own phrasing, general phrases,
// and turns that are not clarifications) and the count over a conversation.
import { describe, expect, it } from 'vitest';
import { clarificationKind, clarificationTurns } from './clarifications.js';
import type { AudioSegmentMetrics, ClarificationKind } from './types.js';

const PHRASES: [string, ClarificationKind | null][] = [
  // the listening agent
  ['Sorry, I did not get your user id. Could you spell it for me, letter by letter?', 'spell'],
  [
    'I could not find an account with the user id garcia 59. Sorry, I did not get your user id. Could you spell it for me, letter by letter?',
    'spell',
  ],
  ['Sorry, I did not get your refund amount. Could you say it once more, slowly?', 'repeat'],
  [
    'Sorry, was that a yes? I will cancel reservation three, R, K, two, T, nine. Shall I go ahead?',
    'confirm',
  ],
  [
    'Sorry, what should I change? I will cancel reservation E H G L P three. Shall I go ahead?',
    'confirm',
  ],
  // the listening user
  [
    "No, that's not right. My user id is anya_garcia_5901, spelled alpha november yankee alpha.",
    'correct',
  ],
  ["Sorry, I didn't catch that. Could you say it again?", 'repeat'],
  // general phrases
  ['Could you repeat that, please?', 'repeat'],
  ['Can you please repeat your reservation number?', 'repeat'],
  ['I’m sorry, I didn’t quite hear you.', 'repeat'],
  ['Pardon?', 'repeat'],
  ['Come again?', 'repeat'],
  ['Could you spell your last name?', 'spell'],
  ['How do you spell that?', 'spell'],
  ['Please give it to me one letter at a time.', 'spell'],
  ['Did you say E H G L P three?', 'confirm'],
  ['Just to make sure I heard it: M zero five K N L?', 'confirm'],
  ['Did I get your user id right?', 'confirm'],
  ["That's not right, it's M zero five.", 'correct'],
  ['That is wrong.', 'correct'],
  ['No, I said five nine zero one.', 'correct'],
  ['Not quite, the last letter is L.', 'correct'],
  // not clarifications
  ['Could you tell me your user id, please?', null],
  ['I will cancel reservation E H G L P three. Shall I go ahead?', null],
  ['Is there anything else I can help you with?', null],
  ['My user id is spelled alpha november yankee alpha.', null],
  ['Sure. Hello, this is the scripted reference agent.', null],
  ["I'm not quite sure which flight you mean.", null],
  ['Yes, please go ahead.', null],
  ['I could not find an account with the user id garcia 59.', null],
  ['You did not get your refund yet.', null],
];

describe('clarificationKind', () => {
  it.each(PHRASES)('%j is %s', (said, kind) => {
    expect(clarificationKind(said)).toBe(kind);
  });
});

function segment(role: 'agent' | 'user', said: string, start: number): AudioSegmentMetrics {
  return { role, start, end: start + 1, said, heard: said.toLowerCase(), wer: 0 };
}

describe('clarificationTurns', () => {
  it('counts the clarification turns of each side with their index', () => {
    const segments = [
      segment('agent', 'Hello. How can I help you today?', 0),
      segment('user', 'Hi. I want to cancel my trip.', 2),
      segment('agent', 'Could you tell me your user id, please?', 4),
      segment('user', 'My user id is emma underscore kim underscore nine nine five seven.', 6),
      segment('agent', 'Sorry, I did not get your user id. Could you spell it for me?', 8),
      segment('user', "Sorry, I didn't catch that. Could you say it again?", 10),
      segment('agent', 'I will cancel reservation E H G L P three. Shall I go ahead?', 12),
      segment('user', "No, that's not right. My reservation id is E H G L P three.", 14),
    ];
    const c = clarificationTurns(segments);
    expect(c).toEqual({
      total: 3,
      agent: 1,
      user: 2,
      turns: [
        { turn: 4, role: 'agent', kind: 'spell', at: 8 },
        { turn: 5, role: 'user', kind: 'repeat', at: 10 },
        { turn: 7, role: 'user', kind: 'correct', at: 14 },
      ],
    });
    expect(clarificationTurns([])).toEqual({ total: 0, agent: 0, user: 0, turns: [] });
  });
});

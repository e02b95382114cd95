import { describe, expect, it } from 'vitest';
import { attributeFailure, misheardEntities } from './attribution.js';
import type { AttributionInput } from './attribution.js';
import type { AudioSegmentMetrics } from './audio-metrics.js';

const cancel = { name: 'cancel_reservation', arguments: { reservation_id: 'EHGLP3' } };
const book = {
  name: 'book_reservation',
  arguments: { user_id: 'emma_kim_9957', cabin: 'economy' },
};

function input(overrides: Partial<AttributionInput> = {}): AttributionInput {
  return {
    goldWrites: [cancel, book],
    agentWrites: [cancel, book],
    userInstructions: 'You are Emma Kim, user id emma_kim_9957. Cancel reservation EHGLP3.',
    userSaid: ['Please cancel EHGLP3, my user id is emma_kim_9957.'],
    stopReason: '[EXIT]',
    stalled: false,
    failedSignals: ['db_state_match'],
    ...overrides,
  };
}

function segment(
  role: 'user' | 'agent',
  said: string,
  heard: string,
  start = 1,
): AudioSegmentMetrics {
  return { role, start, end: start + 2, said, heard, wer: 0 };
}

describe('attributeFailure', () => {
  it('names a dropped write as an agent action error', () => {
    const a = attributeFailure(input({ agentWrites: [cancel] }));
    expect(a.class).toBe('agent_action');
    expect(a.kind).toBe('missing_action');
    expect(a.expected_action).toEqual(book);
    expect(a.summary).toBe(
      'agent action error: missing book_reservation(user_id="emma_kim_9957", cabin="economy")',
    );
  });

  it('tells the wrong tool, a wrong argument, a missing argument and an extra write apart', () => {
    expect(attributeFailure(input({ agentWrites: [book, cancel] })).kind).toBe('wrong_tool');
    const wrong = attributeFailure(
      input({
        agentWrites: [cancel, { ...book, arguments: { ...book.arguments, cabin: 'business' } }],
      }),
    );
    expect(wrong.kind).toBe('wrong_argument');
    expect(wrong.argument).toBe('cabin');
    expect(wrong.summary).toContain('cabin="business", the plan has "economy"');
    expect(
      attributeFailure(
        input({ agentWrites: [cancel, { ...book, arguments: { user_id: 'emma_kim_9957' } }] }),
      ).kind,
    ).toBe('missing_argument');
    const extra = attributeFailure(
      input({ agentWrites: [cancel, book, { name: 'send_certificate', arguments: {} }] }),
    );
    expect(extra.kind).toBe('extra_write');
    expect(extra.actual_action!.name).toBe('send_certificate');
    expect(
      attributeFailure(input({ agentWrites: [{ name: 'send_certificate', arguments: {} }] })).kind,
    ).toBe('extra_write');
  });

  it('puts infrastructure first', () => {
    const a = attributeFailure(
      input({
        agentWrites: [],
        infrastructure: { phase: 'connect', message: 'agent bot crashed' },
      }),
    );
    expect(a.class).toBe('infrastructure');
    expect(a.summary).toBe('infrastructure: agent bot crashed');
  });

  it('blames the clock when the writes stop short in a conversation that ran out', () => {
    expect(
      attributeFailure(input({ agentWrites: [cancel], stopReason: '[MAX_TURNS]' })).class,
    ).toBe('stall');
    expect(attributeFailure(input({ agentWrites: [cancel], stalled: true })).class).toBe('stall');
    // A wrong write is the agent's even when the conversation then ran out.
    expect(attributeFailure(input({ agentWrites: [book], stopReason: '[TIMEOUT]' })).class).toBe(
      'agent_action',
    );
    expect(attributeFailure(input({ stopReason: '[TIMEOUT]' })).class).toBe('stall');
  });

  it('blames the user simulator for a value it never gave or one it made up', () => {
    const never = attributeFailure(
      input({ agentWrites: [], userSaid: ['I want to cancel my trip.'] }),
    );
    expect(never.class).toBe('user_simulator');
    expect(never.kind).toBe('never_gave');
    expect(never.summary).toBe('user simulator: never gave EHGLP3, which its instructions hold');
    const invented = attributeFailure(
      input({
        agentWrites: [{ name: 'cancel_reservation', arguments: { reservation_id: 'ZZZ999' } }],
        userSaid: ['Cancel ZZZ999 please.'],
      }),
    );
    expect(invented.class).toBe('user_simulator');
    expect(invented.kind).toBe('unsupported');
  });

  it('blames the ear when the wrong value was said right and heard wrong', () => {
    const segments = [
      segment('agent', 'How can I help you today?', 'how can i help you today', 0),
      segment('user', 'please cancel e h g l p three', 'please cancel e h g l b three', 3),
    ];
    const a = attributeFailure(
      input({
        agentWrites: [{ name: 'cancel_reservation', arguments: { reservation_id: 'EHGLB3' } }],
        userSaid: ['please cancel e h g l p three'],
        segments,
      }),
    );
    expect(a.class).toBe('mishearing');
    expect(a.entity).toEqual({
      kind: 'code',
      said: 'EHGLP3',
      heard: 'EHGLB3',
      speaker: 'user',
      at: 3,
    });
    expect(a.summary).toBe('mishearing: the user said code EHGLP3, the agent heard EHGLB3');
    // Heard right: the same wrong write is the agent's.
    const heardRight = [
      segment('user', 'please cancel e h g l p three', 'please cancel e h g l p three'),
    ];
    expect(
      attributeFailure(
        input({
          agentWrites: [{ name: 'cancel_reservation', arguments: { reservation_id: 'EHGLB3' } }],
          userSaid: ['please cancel e h g l p three'],
          segments: heardRight,
        }),
      ).class,
    ).toBe('agent_action');
  });

  it("blames the ear for a step never made after the caller's own id was misheard", () => {
    // The plan's write needs a reservation the agent finds with the account, which it could not
    // look up: the user id it heard is not the one said.
    const update = { name: 'update_reservation_flights', arguments: { reservation_id: 'GV1N64' } };
    const said = 'my user id is james underscore patel underscore nine eight two eight';
    const a = attributeFailure(
      input({
        goldWrites: [update],
        agentWrites: [],
        userInstructions: 'Your user id is james_patel_9828. Change reservation GV1N64.',
        userSaid: [said],
        segments: [segment('user', said, said.replace(/eight$/, 'five'), 4)],
      }),
    );
    expect(a.class).toBe('mishearing');
    expect(a.entity).toMatchObject({ said: 'james_patel_9828', heard: 'james_patel_9825' });
    expect(a.expected_action).toEqual(update);
    // Heard right, the same missing step is the user simulator's: it never gave the code.
    const heardRight = attributeFailure(
      input({
        goldWrites: [update],
        agentWrites: [],
        userInstructions: 'Your user id is james_patel_9828. Change reservation GV1N64.',
        userSaid: [said],
        segments: [segment('user', said, said, 4)],
      }),
    );
    expect(heardRight.class).toBe('user_simulator');
  });

  it('pairs each misheard code with the heard code closest to it', () => {
    const misheard = misheardEntities([
      segment(
        'user',
        'cancel n q n u five r and upgrade m two zero i z o',
        'cancel n q n u three r and upgrade m eight zero i z o',
      ),
    ]);
    expect(misheard.map((e) => [e.said, e.heard])).toEqual([
      ['NQNU5R', 'NQNU3R'],
      ['M20IZO', 'M80IZO'],
    ]);
  });

  it('says other when every write was made', () => {
    const a = attributeFailure(input({ failedSignals: ['judge_passed'] }));
    expect(a.class).toBe('other');
    expect(a.summary).toBe('other: judge_passed with every planned write made');
  });
});

describe('misheard entities', () => {
  const segments = [
    segment(
      'user',
      'my id is emma underscore kim underscore nine nine five seven',
      'my id is emma underscore kim underscore nine nine five seven',
    ),
    segment(
      'user',
      'reservation e h g l p three on may fifth',
      'reservation e h g l b three on may fifth',
    ),
    segment('agent', 'your flight is h a t one seven zero', 'your flight is h a t one seven zero'),
  ];

  it('lists the values a side said that the other heard as something else', () => {
    expect(misheardEntities(segments).map((e) => e.said)).toEqual(['EHGLP3']);
  });
});

// The listening policies (audio mode) driven with hand-built contexts: what they heard decides what they do.
import { describe, expect, it } from 'vitest';
import { Talk, host, tool } from '../test-support/listening-talk.js';
import { createListeningAgentModel } from './listening-agent.js';
import { closestHeard, heardValues, spelledIds, withHeardDigits } from './listening-common.js';
import {
  callerFacts,
  callerScript,
  createListeningUserModel,
  firstPerson,
  mismatches,
} from './listening-user.js';

const airlineTools = [
  tool('get_user_details', 'read', ['user_id']),
  tool('get_reservation_details', 'read', ['reservation_id']),
  tool('update_reservation_flights', 'write', ['reservation_id']),
  tool('end_conversation', 'read', []),
];
const changeFlights = {
  name: 'update_reservation_flights',
  side: 'agent',
  arguments: {
    reservation_id: 'M05KNL',
    cabin: 'economy',
    flights: [{ flight_number: 'HAT110', date: '2024-05-24' }],
    payment_id: 'gift_card_8887175',
  },
};
const aaravDetails = {
  user_id: 'aarav_garcia_1177',
  name: { first_name: 'Aarav', last_name: 'Garcia' },
  reservations: ['M05KNL'],
  payment_methods: { gift_card_8887175: { source: 'gift_card' } },
};
const spoken = (text: string) => expect(text).not.toMatch(/[_{}[\]"]/);

describe('listening reference agent', () => {
  it('looks the account up with the user id it heard, reads the change back, acts on a yes', async () => {
    const agent = new Talk(
      createListeningAgentModel(host({ actions: [changeFlights] }, airlineTools)),
    );
    expect((await agent.hear('hello')).text).toMatch(/not a person. What can I help you with/);
    const ask = await agent.hear('hi i would like to change my trip from atlanta to philadelphia');
    expect(ask.text).toMatch(/user id/);
    const lookup = await agent.hear(
      'my user id is aarav underscore garcia underscore one one seven seven',
    );
    expect(lookup.calls).toEqual([
      { name: 'get_user_details', arguments: { user_id: 'aarav_garcia_1177' } },
    ]);
    const readBack = await agent.results(aaravDetails);
    expect(readBack.calls).toEqual([]);
    expect(readBack.text).toMatch(/M05KNL.*Shall I go ahead\?/);
    // As a person says it: the field changed, each flight once, the card by its last digits.
    expect(readBack.text).toMatch(
      /I will update the flights of reservation M05KNL, with cabin economy, flight 110 on/,
    );
    expect(readBack.text).not.toMatch(/flights flight|payment method/);
    expect(readBack.text).toMatch(/paid with the gift card ending in 7175\./);
    spoken(readBack.text);
    const act = await agent.hear('yes please go ahead');
    expect(act.calls).toEqual([
      { name: 'update_reservation_flights', arguments: changeFlights.arguments },
    ]);
    const done = await agent.results({ reservation_id: 'M05KNL' });
    expect(done.text).toMatch(
      /^Okay, I have updated the flights of the reservation\..*anything else/,
    );
    const bye = await agent.hear('no that is all thank you');
    expect(bye.calls.map((c) => c.name)).toEqual(['end_conversation']);
  });

  it('acts with a misheard user id, then asks to spell it and uses the spelling', async () => {
    const agent = new Talk(
      createListeningAgentModel(host({ actions: [changeFlights] }, airlineTools)),
    );
    await agent.hear('hello');
    await agent.hear('hi i would like to change my trip');
    const wrong = await agent.hear(
      'your name is sharon garcia your views or the desire of garcia underscore eleven seventy seven',
    );
    expect(wrong.calls).toEqual([
      { name: 'get_user_details', arguments: { user_id: 'garcia_1177' } },
    ]);
    const again = await agent.results({ error: 'User not found' });
    expect(again.calls).toEqual([]);
    expect(again.text).toMatch(/could not find an account.*spell/i);
    spoken(again.text);
    const spelled = await agent.hear(
      'a a r a v underscore g a r c i a underscore one one seven seven',
    );
    expect(spelled.calls).toEqual([
      { name: 'get_user_details', arguments: { user_id: 'aarav_garcia_1177' } },
    ]);
  });

  it('gates a caller value on hearing it, acts with the heard value, and gives up after two asks', async () => {
    const plan = {
      actions: [
        { name: 'get_reservation_details', side: 'agent', arguments: { reservation_id: '3RK2T9' } },
      ],
    };
    const tools = airlineTools.filter((t) => t.name !== 'get_user_details');
    const heardRight = new Talk(createListeningAgentModel(host(plan, tools)));
    await heardRight.hear('hello');
    expect((await heardRight.hear('i want to change a passenger name')).text).toMatch(
      /reservation number/,
    );
    const right = await heardRight.hear('it is three romeo kilo two tango nine');
    expect(right.calls).toEqual([
      { name: 'get_reservation_details', arguments: { reservation_id: '3RK2T9' } },
    ]);

    const heardWrong = new Talk(createListeningAgentModel(host(plan, tools)));
    await heardWrong.hear('hello');
    await heardWrong.hear('i want to change a passenger name');
    const wrong = await heardWrong.hear('it is three r k two t five');
    expect(wrong.calls).toEqual([
      { name: 'get_reservation_details', arguments: { reservation_id: '3RK2T5' } },
    ]);

    const nothing = new Talk(createListeningAgentModel(host(plan, tools)));
    await nothing.hear('hello');
    expect((await nothing.hear('i want to change a name')).text).toMatch(
      /Could you tell me your reservation number/,
    );
    expect((await nothing.hear('sorry what')).text).toMatch(/spell/);
    const gaveUp = await nothing.hear('i do not know');
    expect(gaveUp.calls).toEqual([]);
    expect(gaveUp.text).toMatch(/cannot do that.*anything else/i);
  });

  it('asks again for a value a tool refused as heard, even when a later result holds it', async () => {
    // The plan looks the account up itself, with a reservation read the agent needs not hear.
    const plan = {
      actions: [
        { name: 'get_user_details', side: 'agent', arguments: { user_id: 'aarav_garcia_1177' } },
        { name: 'get_reservation_details', side: 'agent', arguments: { reservation_id: 'SDZQKO' } },
      ],
    };
    const agent = new Talk(createListeningAgentModel(host(plan, airlineTools)));
    await agent.hear('hello');
    await agent.hear('hi i have a question about my trip');
    const misheard = await agent.hear(
      'my user id is aarav underscore garcia underscore one one seven three',
    );
    expect(misheard.calls).toEqual([
      { name: 'get_user_details', arguments: { user_id: 'aarav_garcia_1173' } },
      { name: 'get_reservation_details', arguments: { reservation_id: 'SDZQKO' } },
    ]);
    // The reservation's owner is in its details, but the agent does not carry on with it.
    const again = await agent.results(
      { error: 'User aarav_garcia_1173 not found' },
      { reservation_id: 'SDZQKO', user_id: 'aarav_garcia_1177' },
    );
    expect(again.calls).toEqual([]);
    expect(again.text).toMatch(
      /could not find an account with that user id\. .*did not get your user id.*spell it/i,
    );
    spoken(again.text);
    const spelled = await agent.hear(
      'a a r a v underscore g a r c i a underscore one one seven seven',
    );
    expect(spelled.calls[0]).toEqual({
      name: 'get_user_details',
      arguments: { user_id: 'aarav_garcia_1177' },
    });
  });

  it('prices a booking itself: asks for the caller values, never for the amount it charges', async () => {
    const book = {
      name: 'book_reservation',
      side: 'agent',
      arguments: {
        user_id: 'aarav_garcia_1177',
        passengers: [{ first_name: 'Priya', last_name: 'Sharma', dob: '2001-04-12' }],
        payment_methods: [{ payment_id: 'gift_card_8887175', amount: 348 }],
      },
    };
    const tools = [...airlineTools, tool('book_reservation', 'write', ['user_id'])];
    const agent = new Talk(createListeningAgentModel(host({ actions: [book] }, tools)));
    await agent.hear('hello');
    await agent.hear('hi i want to book a one way flight for a friend');
    await agent.hear('my user id is aarav underscore garcia underscore one one seven seven');
    // The passenger is the caller's to say; the $348 is the fare, which the caller never knew.
    const askName = await agent.results(aaravDetails);
    expect(askName.text).toMatch(/Could you tell me your passenger's first name/);
    const readBack = await agent.hear('the passenger is priya sharma');
    expect(readBack.text).not.toMatch(/your amount/);
    expect(readBack.text).toMatch(/\$348.*Shall I go ahead\?/);
    const act = await agent.hear('yes please go ahead');
    expect(act.calls).toEqual([{ name: 'book_reservation', arguments: book.arguments }]);

    // An amount the caller gives (how much data to add) is still theirs to say.
    const refuel = { name: 'refuel_data', side: 'agent', arguments: { gb_amount: 2 } };
    const data = new Talk(
      createListeningAgentModel(host({ actions: [refuel] }, [tool('refuel_data', 'write', [])])),
    );
    await data.hear('hello');
    expect((await data.hear('i ran out of data')).text).toMatch(/Could you tell me your gb amount/);
  });

  it('keeps the drop-last-action fault', async () => {
    const plan = { actions: [changeFlights], faults: ['drop-last-action'] };
    const agent = new Talk(createListeningAgentModel(host(plan, airlineTools)));
    await agent.hear('hello');
    const said = await agent.hear(
      'my user id is aarav underscore garcia underscore one one seven seven',
    );
    expect(said.calls.map((c) => c.name)).not.toContain('update_reservation_flights');
  });
});

const instructions = [
  'You are simulating a customer calling a support line.',
  '## Guidelines',
  '- Spell identifiers one character at a time when you give them.',
  '<scenario>',
  'Instructions:',
  '\tDomain: airline',
  '\tReason for call:',
  '\t\tYou booked the flight and you want to change the passenger name on the reservation.',
  '\tKnown info:',
  '\t\tYou are Anya Garcia.',
  '\t\tYour user id is anya_garcia_5901.',
  '\t\tYour reservation id is 3RK2T9.',
  '\tTask instructions:',
  '\t\tYou want to change the name from Mei Lee to Mei Garcia.',
  '</scenario>',
].join('\n');

describe('listening scripted user', () => {
  const user = () => new Talk(createListeningUserModel(host({ actions: [] }, [], instructions)));

  it('opens as a caller, in the first person, without its instructions headings', async () => {
    const opening = (await user().hear('Hello, how can I help you today?')).text;
    expect(opening).toBe(
      'Hi. I booked the flight and I want to change the passenger name on the reservation.',
    );
    expect(opening).not.toMatch(/Instructions|Domain|Known info/);
    expect(firstPerson('For your upcoming trip from ATL to PHL, you want to change')).toBe(
      'For my upcoming trip from Atlanta to Philadelphia, I want to change',
    );
  });

  it('gives what it knows when asked, spells when asked, says what it does not know', async () => {
    const u = user();
    await u.hear('hello');
    expect((await u.hear('could you tell me your user id please')).text).toBe(
      'My user id is anya_garcia_5901.',
    );
    const spelled = (await u.hear('sorry could you spell it for me letter by letter')).text;
    expect(spelled).toMatch(/alpha november yankee alpha, underscore, golf/);
    expect(spelled).toMatch(/underscore, five nine zero one\.$/);
    expect((await u.hear('what is your reservation number')).text).toBe(
      'My reservation id is 3RK2T9.',
    );
    expect(callerScript(instructions).facts.map((f) => f.label)).toEqual([
      'name',
      'user id',
      'reservation id',
    ]);
  });

  it('confirms only a read-back that matches what it knows, correcting at most twice', async () => {
    const u = user();
    await u.hear('hello');
    expect(
      (await u.hear('i will update reservation three r k two t nine shall i go ahead')).text,
    ).toBe('Yes, please go ahead.');
    const wrong = 'i will update reservation three r k two t five shall i go ahead';
    expect(mismatches(wrong, callerScript(instructions).facts).map((f) => f.value)).toEqual([
      '3RK2T9',
    ]);
    expect((await u.hear(wrong)).text).toMatch(
      /^No, that's not right\. My reservation id is 3RK2T9, spelled three romeo kilo two tango nine\./,
    );
    expect((await u.hear(wrong)).text).toMatch(/^No/);
    expect((await u.hear(wrong)).text).toBe('Yes, please go ahead.');
  });

  it('never says its instructions, and stops after a goodbye', async () => {
    const u = user();
    for (const heard of ['hello', 'uh huh the', 'mm', 'what domain is it', 'okay']) {
      expect((await u.hear(heard)).text).not.toMatch(/Instructions:|Domain:|Known info/);
    }
    expect((await u.hear('thank you for calling goodbye')).text).toBe('###STOP###');
  });
});

describe('heard values', () => {
  it('reads ids and codes as heard, with digit soundalikes inside a run', () => {
    expect(
      heardValues('my user id is james underscore patel underscore nine eight to eight', 'id'),
    ).toEqual(['james_patel_9828']);
    expect(heardValues('it is spelled three romeo kilo to tango nine', 'code')).toContain('3RK2T9');
    expect(
      spelledIds(
        'alpha alpha romeo alpha victor underscore golf alfa romeo charlie indian alpha underscore one one seven seven',
      ),
    ).toEqual(['aarav_garcia_1177']);
    expect(withHeardDigits('i want to go for two days')).toBe('i want to go for two days');
    expect(spelledIds('oscar lima india perfect for india alpha underscore golf oscar')).toEqual([
      'ia_go',
    ]);
  });
});

describe('caller facts', () => {
  it('reads quoted ids and several codes named together', () => {
    const facts = callerFacts(
      "You want to cancel reservation IDs XEHM4B and 59XX6W.\nYour user id is 'daiki_muller_1116'.",
    );
    expect(facts).toEqual([
      { label: 'user id', value: 'daiki_muller_1116', kind: 'id' },
      { label: 'reservation id', value: 'XEHM4B', kind: 'code' },
      { label: 'reservation id', value: '59XX6W', kind: 'code' },
    ]);
  });

  it('takes a heard name close to the planned one as heard', () => {
    expect(closestHeard(['my name is mohamed silver'], 'name', 'Silva')).toBe('Silver');
    expect(closestHeard(['my name is me away'], 'name', 'Mia')).toBeUndefined();
  });

  it('takes no number word for a name', () => {
    const heard = [
      'i want to book a one way flight on may twenty sixth',
      'my user id is sophia underscore silva underscore seven five five seven',
    ];
    expect(closestHeard(heard, 'name', 'Kevin')).toBeUndefined();
    expect(closestHeard(heard, 'name', 'Smith')).toBeUndefined();
    expect(closestHeard([...heard, "the passenger's name is kevin smith"], 'name', 'Kevin')).toBe(
      'Kevin',
    );
  });

  it('knows a passenger named in the task, and gives its own name for a passenger otherwise', async () => {
    const task = instructions.replace(
      'You want to change the name from Mei Lee to Mei Garcia.',
      'You want to add an extra passenger Kevin Smith, DOB 2001-04-12.',
    );
    expect(callerFacts(task)).toContainEqual({
      label: 'passenger name',
      value: 'Kevin Smith',
      kind: 'name',
    });
    const withPassenger = new Talk(createListeningUserModel(host({ actions: [] }, [], task)));
    await withPassenger.hear('hello');
    expect(
      (await withPassenger.hear("could you tell me your passenger's first name please")).text,
    ).toBe("The passenger's name is Kevin Smith.");
    expect((await withPassenger.hear('could you tell me your first name please')).text).toBe(
      'My name is Anya Garcia.',
    );
    const alone = new Talk(createListeningUserModel(host({ actions: [] }, [], instructions)));
    await alone.hear('hello');
    expect((await alone.hear("could you tell me your passenger's last name please")).text).toBe(
      'My name is Anya Garcia.',
    );
  });
});

describe('spelled codes', () => {
  it('reads "x ray" as X', () => {
    expect(heardValues('it is spelled x ray echo hotel mike four bravo', 'code')).toContain(
      'XEHM4B',
    );
  });
});

describe('caller-side actions', () => {
  const plan = {
    actions: [
      { name: 'toggle_airplane_mode', side: 'user', arguments: {} },
      { name: 'toggle_roaming', side: 'user', arguments: {} },
    ],
  };
  it('the agent asks for one at a time, the user does the next one when asked', async () => {
    const agent = new Talk(createListeningAgentModel(host(plan, [])));
    await agent.hear('hello');
    expect((await agent.hear('my phone has no data')).text).toBe(
      'Next, please do this on your side: toggle airplane mode.',
    );
    expect((await agent.hear('okay i did that on my side')).text).toBe(
      'Next, please do this on your side: toggle roaming.',
    );
    expect((await agent.hear('okay i did that')).text).toMatch(/anything else/);

    const user = new Talk(createListeningUserModel(host(plan, [], instructions)));
    await user.hear('hello how can i help');
    const first = await user.hear('next please do this on your side toggle airplane mode');
    expect(first.calls.map((c) => c.name)).toEqual(['toggle_airplane_mode']);
    expect((await user.results({ status: 'ok' })).text).toBe('Okay, I did that on my side.');
    const second = await user.hear('next please do this on your side toggle roaming');
    expect(second.calls.map((c) => c.name)).toEqual(['toggle_roaming']);
  });
});

describe('caller phone', () => {
  it('knows a phone number given with its name', () => {
    expect(callerFacts('You are John Smith with phone number 555-123-2002.')).toEqual([
      { label: 'name', value: 'John Smith', kind: 'name' },
      { label: 'phone number', value: '555-123-2002', kind: 'other' },
    ]);
  });
});

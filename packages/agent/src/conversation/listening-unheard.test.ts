// Speech the agent's recognizer made nothing of: the listening agent asks the caller to say it
// again, and the listening user says its last words again when asked to.
import { describe, expect, it } from 'vitest';
import { Talk, host, tool } from '../test-support/listening-talk.js';
import { MAX_UNHEARD, UNHEARD_REPLY, createListeningAgentModel } from './listening-agent.js';
import { MAX_REPEATS, createListeningUserModel } from './listening-user.js';

const tools = [tool('get_user_details', 'read', ['user_id'])];
const instructions = [
  '<scenario>',
  'Instructions:',
  '\tDomain: airline',
  '\tReason for call:',
  '\t\tYou want to cancel your reservation.',
  '\tKnown info:',
  '\t\tYour user id is raj_sanchez_7340.',
  '</scenario>',
].join('\n');

describe('speech heard as nothing', () => {
  it('the agent asks again after a question, twice in a row at most, and not after a statement', async () => {
    const model = createListeningAgentModel(host({ actions: [] }, tools));
    // Before it has said anything, it has asked nothing.
    expect(model.unheard?.()).toBeUndefined();
    const agent = new Talk(model);
    expect((await agent.hear('hello')).text).toMatch(/What can I help you with today\?$/);
    for (let i = 0; i < MAX_UNHEARD; i++) expect(model.unheard?.()).toBe(UNHEARD_REPLY);
    expect(model.unheard?.()).toBeUndefined();
    // A turn heard starts the count again.
    const asked = await agent.hear('i want to cancel my reservation');
    expect(asked.text).toMatch(/\?$/);
    expect(model.unheard?.()).toBe(UNHEARD_REPLY);
  });

  it('the agent waits when its last words asked nothing', async () => {
    const model = createListeningAgentModel(host({ actions: 'not a list' }, tools));
    const agent = new Talk(model);
    await agent.hear('hello');
    expect((await agent.hear('i want to cancel')).text).not.toMatch(/\?/);
    expect(model.unheard?.()).toBeUndefined();
  });

  it('the user says its last words again when asked to, twice in a row at most', async () => {
    const user = new Talk(createListeningUserModel(host({ actions: [] }, [], instructions)));
    await user.hear('hello how can i help');
    const given = (await user.hear('could you tell me your user id please')).text;
    expect(given).toBe('My user id is raj_sanchez_7340.');
    const again = 'sorry i didnt catch that could you say it again';
    for (let i = 0; i < MAX_REPEATS; i++) expect((await user.hear(again)).text).toBe(given);
    expect((await user.hear(again)).text).not.toBe(given);
  });
});

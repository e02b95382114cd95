import { ConversationContext, createConversationEngine } from '@scenaro/agent';
import type { Conversation, ConversationHost, TurnCompleteMessage } from '@scenaro/agent';
import type { ActionRecord } from '@scenaro/sdk/protocol';
import { describe, expect, it } from 'vitest';
import { asCommerceDb } from '../model/db-types.js';
import { createCommerceSession } from '../session.js';
import { createShopAssistantModel, SHOP_ASSISTANT_GREETING } from './index.js';

/** A conversation with the scripted shop assistant on a fresh commerce session (no browser). */
async function shop(options: { userId?: string } = { userId: 'u_001' }) {
  const session = await createCommerceSession(options);
  const pushes: unknown[] = [];
  const events: [string, unknown][] = [];
  const actions: ActionRecord[] = [];
  const host: ConversationHost = {
    sessionId: 'test',
    state: session.state,
    context: new ConversationContext('You are the shop assistant.'),
    emit: (type, data) => void events.push([type, data]),
    push: (data) => void pushes.push(data),
    actionApplied: (action) => void actions.push(action),
    log: { info: () => {}, warn: () => {}, error: () => {} },
    signal: new AbortController().signal,
  };
  const conversation: Conversation = createConversationEngine({
    model: createShopAssistantModel,
  })(host);
  const calls = () =>
    events
      .filter(([type]) => type === 'llm-function-call-in-progress')
      .map(([, data]) => (data as { function_name: string }).function_name);
  /** Send one user message; returns the turn's text and the tools it called. */
  const say = async (content: string) => {
    const before = calls().length;
    await conversation.onUserText?.(content, { runImmediately: true, audioResponse: false });
    const done = pushes.at(-1) as TurnCompleteMessage;
    expect(done.type).toBe('turn-complete');
    return { text: done.text, tools: calls().slice(before), turn: done };
  };
  const user = () => {
    const db = asCommerceDb(session.state.db);
    return db.users.find((u) => u.id === db.session?.user_id);
  };
  return { say, session, actions, user, host };
}

describe('scripted shop assistant', () => {
  it('is labelled as scripted and says so when greeting', async () => {
    const { say, host } = await shop();
    const model = createShopAssistantModel(host);
    expect([model.processor, model.model, model.scripted]).toEqual([
      'ScriptedShopAssistant',
      'scripted:shop-assistant',
      true,
    ]);
    const hello = await say('hello');
    expect(hello.text).toContain(SHOP_ASSISTANT_GREETING);
    expect(hello.text).toContain('not a language model');
    expect(hello.text).toContain('show me headphones under $100');
    expect(hello.turn.scripted).toBe(true);
    expect(hello.tools).toEqual([]);
  });

  it('lists what it can do when it does not understand', async () => {
    const { say } = await shop();
    await say('hi');
    const reply = await say('what is the meaning of life, the universe and everything?');
    expect(reply.text).toMatch(/did not understand/);
    expect(reply.text).toMatch(/scripted assistant, not a language model/);
    expect(reply.text).toContain('checkout with my card');
    expect(reply.tools).toEqual([]);
  });

  it('searches by words and price, shows the grid, then shows, compares and adds by position', async () => {
    const { say, user, actions } = await shop();
    const found = await say('show me headphones under $100');
    expect(found.tools).toEqual(['search_products', 'show_products']);
    expect(found.text).toContain(SHOP_ASSISTANT_GREETING); // first turn
    expect(found.text).toMatch(/I found \d+ products? for "headphones" under \$100/);
    expect(found.text).toMatch(/1\. .+, \$\d+\.\d\d/);

    const detail = await say('show product 1');
    expect(detail.tools).toEqual(['show_product']);
    expect(detail.text).toMatch(/^Here is the .+ by .+: \$\d+/);

    const compared = await say('compare the first two');
    expect(compared.tools).toEqual(['show_comparison']);
    expect(compared.text).toMatch(/The cheapest is the .+; the best rated is the/);

    const added = await say('add 2 of them');
    expect(added.tools).toEqual(['add_to_cart']);
    expect(added.text).toMatch(/^Added 2 x .+ to your cart\. Your cart now has 2 items, total \$/);
    expect(user()?.cart.items).toHaveLength(1);
    expect(actions.map((a) => a.name)).toEqual(['add_to_cart']);
  });

  it('understands category and price ranges, and says when nothing matches', async () => {
    const { say } = await shop();
    const ranged = await say('find shoes between $50 and $120');
    expect(ranged.tools).toEqual(['search_products', 'show_products']);
    expect(ranged.text).toMatch(/for shoes between \$50 and \$120/);
    const none = await say('show me laptops under $5');
    expect(none.tools).toEqual(['search_products']);
    expect(none.text).toMatch(/I found nothing for laptops under \$5/);
  });

  it('says it has none of goods the store lacks, and what it sells instead, with no list', async () => {
    const { say } = await shop();
    const none = await say('do you have red wine');
    expect(none.tools).toEqual(['search_products']);
    expect(none.text).toMatch(
      /^I found no "red wine" here\. This store sells apparel, audio, .+ and shoes\.$/m,
    );
    expect(none.text).not.toMatch(/^1\. /m);
    // A word the catalogue lacks beside one that names products still finds them.
    const found = await say('show me comfy headphones');
    expect(found.tools).toEqual(['search_products', 'show_products']);
  });

  it('understands amounts said in words, as a speech recognizer writes them', async () => {
    const { say } = await shop();
    const spoken = await say('show me headphones under one hundred dollars');
    expect(spoken.tools).toEqual(['search_products', 'show_products']);
    expect(spoken.text).toMatch(/I found 2 products for "headphones" under \$100/);
    const ranged = await say('find shoes between fifty and one hundred and twenty dollars');
    expect(ranged.text).toMatch(/for shoes between \$50 and \$120/);
  });

  it('asks which option to add, showing the product, and adds the option named next', async () => {
    const { say, user } = await shop();
    await say('show me wireless earbuds');
    const asked = await say('add the first one to my cart');
    expect(asked.tools).toEqual(['show_product']);
    expect(asked.text).toMatch(
      /There are several options for the .+: color .+\. Which one would you like\?/,
    );
    expect(user()?.cart.items).toEqual([]);
    const color = /color (\w+)/.exec(asked.text)?.[1] as string;
    const added = await say(`add it in ${color}`);
    expect(added.tools).toEqual(['add_to_cart']);
    expect(added.text).toContain(`color ${color}`);
    expect(user()?.cart.items).toHaveLength(1);
  });

  it('reads the cart, removes by name, saves to the selection and checks out with a card', async () => {
    const { say, user, actions } = await shop();
    await say('show me studio monitor headphones');
    await say('add the first one to my cart');
    expect(user()?.cart.items).toHaveLength(1);
    const cart = await say("what's in my cart");
    expect(cart.tools).toEqual(['get_cart']);
    expect(cart.text).toMatch(/^Your cart has 1 item:\n- 1 x .+Studio Monitor Headphones, \$/);

    const saved = await say('save the second one to my selection');
    expect(saved.tools).toEqual(['add_to_selection']);
    expect(saved.text).toMatch(/Saved the .+ to your selection\. Your selection has 1 product\./);
    const selection = await say('what is in my selection');
    expect(selection.tools).toEqual(['get_selection']);

    const pay = await say('checkout');
    expect(pay.tools).toEqual(['get_user_details']);
    expect(pay.text).toMatch(/How would you like to pay\? You have visa card ending 4242/);
    const order = await say('with my card please');
    expect(order.tools).toEqual(['get_user_details', 'place_order']);
    expect(order.text).toMatch(
      /^Done: order o_1025 is placed for 1 item, total \$[\d.]+, paid with your visa card ending 4242/,
    );
    expect(user()?.cart.items).toEqual([]);
    expect(actions.map((a) => a.name)).toEqual(['add_to_cart', 'add_to_selection', 'place_order']);

    const empty = await say('checkout with my card');
    expect(empty.text).toMatch(/cart is empty/);
  });

  it('removes from the cart by name and everything at once, and sees changes made elsewhere', async () => {
    const { say, user, session } = await shop();
    await say('show me studio monitor headphones');
    await say('add the first one to my cart');
    await say('show me wireless earbuds');
    expect((await say('add the first one in black')).text).toMatch(
      /^There is no .+ in color black; the options are color .+ or .+\.$/,
    );
    await say('add the second one in pink');
    expect(user()?.cart.items).toHaveLength(2);
    const removed = await say('remove the studio monitor headphones from my cart');
    expect(removed.tools).toEqual(['remove_from_cart']);
    expect(removed.text).toMatch(
      /^Removed the .+Studio Monitor Headphones from your cart\. Your cart now has 1 item/,
    );
    // The shopper changes the cart on the page (the demo's browser -> agent methods do this).
    const line = user()?.cart.items[0];
    await session.call('update_cart_quantity', { sku: line?.sku, quantity: 3 });
    expect((await say('whats in my cart')).text).toMatch(/^Your cart has 3 items/);
    const all = await say('remove everything from my cart');
    expect(all.tools).toEqual(['remove_from_cart']);
    expect(all.text).toMatch(/Your cart is now empty\./);
    expect((await say('remove the earbuds from my cart')).text).toBe('Your cart is already empty.');
  });

  it('explains references it cannot resolve instead of guessing', async () => {
    const { say } = await shop();
    expect((await say('show the first one')).text).toMatch(/Search for something first/);
    await say('show me kettles');
    expect((await say('show product 40')).text).toMatch(/There are only \d+ products in the list/);
    expect((await say('tell me more about the second')).tools).toEqual(['show_product']);
    expect((await say('shortlist it')).text).toMatch(/^Saved the .+ to your selection/);
    expect((await say('compare the first one')).text).toMatch(/at least two products/);
  });

  it('reports tool failures from the tool results (no shopper signed in)', async () => {
    const { say } = await shop({});
    await say('show me studio monitor headphones');
    const refused = await say('add the first one to my cart');
    expect(refused.text).toMatch(/I could not add the .+: No shopper is signed in/);
  });
});

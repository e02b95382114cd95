/**
 * NeMo's restaurant tools besides `PlaceOrderTool`: `GetMenuTool` (the menu is a constructor
 * kwarg) and the waitlist tools, which share `shared_state['waitlist']` (seeded from
 * `JoinWaitListTool`'s `initial_waitlist` kwarg when it is built first).
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import { pythonStr } from '@scenaro/agent/python';
import { seedsSharedState } from '../common/construction-state.js';
import {
  integerParam,
  nemoParameters,
  nemoTool,
  pushFinalResponse,
  stringParam,
} from '../../common/tool-kit.js';

const noParameters = nemoParameters({}, []);
const customerName = (what: string): JsonObject =>
  stringParam(
    `${what}, should be capitalized properly if the provided name is not capitalized (e.g. 'luna' -> 'Luna').`,
  );

export const getMenuTool = nemoTool({
  name: 'GetMenuTool',
  description: 'Get the restaurant menu to see available items and prices.',
  parameters: noParameters,
  kind: 'read',
  execute: (_args, context) => ({ menu: context.options['menu'] ?? '' }),
});

/** The waitlist in shared state (a list the waitlist tools share). */
function waitlist(context: ToolContext): JsonObject[] {
  return (context.state.shared['waitlist'] ?? []) as JsonObject[];
}

const emptyWaitlist = { waitlist: () => [] };

export const joinWaitListTool = seedsSharedState(
  nemoTool({
    name: 'JoinWaitListTool',
    description:
      "Add a customer to the restaurant waitlist. Requires the customer's name, phone number, and party size.",
    parameters: nemoParameters({
      name: customerName("The customer's name"),
      phone: stringParam("The customer's phone number, should be formatted as '123-456-7890'."),
      party_size: integerParam('The number of people in the party.'),
    }),
    kind: 'read',
    concurrent: false,
    fixedSignature: true,
    execute: (args: JsonObject, context: ToolContext) => {
      const entry = {
        name: args['name'] ?? null,
        phone: args['phone'] ?? null,
        party_size: args['party_size'] ?? null,
      };
      const list = waitlist(context);
      list.push(entry);
      pushFinalResponse(context, { waitlist: list, action: 'join', customer: entry });
      return {
        success: true,
        message: `${pythonStr(entry.name)} has been added to the waitlist.`,
        position: list.length,
        total_in_waitlist: list.length,
      };
    },
  }),
  {
    waitlist: (options) =>
      JSON.parse(
        typeof options['initial_waitlist'] === 'string' ? options['initial_waitlist'] : '[]',
      ) as unknown,
  },
);

export const dropWaitListTool = seedsSharedState(
  nemoTool({
    name: 'DropWaitListTool',
    description:
      'Remove a customer from the restaurant waitlist by name. Use this when a customer decides to leave the waitlist.',
    parameters: nemoParameters({
      name: customerName('The name of the customer to remove from the waitlist'),
    }),
    kind: 'read',
    concurrent: false,
    fixedSignature: true,
    execute: (args: JsonObject, context: ToolContext) => {
      const name = args['name'] ?? null;
      const before = waitlist(context);
      // Every entry of that exact name goes (case-sensitive).
      const remaining = before.filter((entry) => (entry['name'] ?? null) !== name);
      context.state.shared['waitlist'] = remaining;
      const removed = remaining.length < before.length;
      pushFinalResponse(context, {
        waitlist: remaining,
        action: 'drop',
        customer: { name },
        removed,
      });
      return {
        success: removed,
        message: removed
          ? `${pythonStr(name)} has been removed from the waitlist.`
          : `${pythonStr(name)} was not found on the waitlist.`,
        remaining_in_waitlist: remaining.length,
      };
    },
  }),
  emptyWaitlist,
);

export const getWaitlistTool = seedsSharedState(
  nemoTool({
    name: 'GetWaitlistTool',
    description: 'Check the current restaurant waitlist to see who is waiting and their position.',
    parameters: noParameters,
    kind: 'read',
    execute: (_args, context) => {
      const list = waitlist(context);
      return { waitlist: list, total_in_waitlist: list.length };
    },
  }),
  emptyWaitlist,
);

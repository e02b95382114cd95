/**
 * Read tools of the tau2 airline domain.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { recordLookupTool, sessionDb, stringParam, toolParameters } from '../../common/tool-kit.js';
import type { AirlineDb } from './db-types.js';
import { getFlightInstance, getReservation, getUser, searchDirectFlights } from './store.js';
import type { DirectFlight } from './store.js';

const AIRPORTS: readonly { iata: string; city: string }[] = [
  { iata: 'SFO', city: 'San Francisco' },
  { iata: 'JFK', city: 'New York' },
  { iata: 'LAX', city: 'Los Angeles' },
  { iata: 'ORD', city: 'Chicago' },
  { iata: 'DFW', city: 'Dallas' },
  { iata: 'DEN', city: 'Denver' },
  { iata: 'SEA', city: 'Seattle' },
  { iata: 'ATL', city: 'Atlanta' },
  { iata: 'MIA', city: 'Miami' },
  { iata: 'BOS', city: 'Boston' },
  { iata: 'PHX', city: 'Phoenix' },
  { iata: 'IAH', city: 'Houston' },
  { iata: 'LAS', city: 'Las Vegas' },
  { iata: 'MCO', city: 'Orlando' },
  { iata: 'EWR', city: 'Newark' },
  { iata: 'CLT', city: 'Charlotte' },
  { iata: 'MSP', city: 'Minneapolis' },
  { iata: 'DTW', city: 'Detroit' },
  { iata: 'PHL', city: 'Philadelphia' },
  { iata: 'LGA', city: 'LaGuardia' },
];

const userIdParam = stringParam("The user's id, for example 'sara_doe_496'.");
const reservationIdParam = stringParam("The six-character reservation id, for example '8JX2WO'.");
const originParam = stringParam(
  "Three-letter IATA code of the departure airport, for example 'JFK'.",
);
const destinationParam = stringParam(
  "Three-letter IATA code of the arrival airport, for example 'LAX'.",
);
const dateParam = stringParam("Travel date as 'YYYY-MM-DD', for example '2024-05-01'.");

/** tau2's `get_user_details` (read tool). */
export const getUserDetails = recordLookupTool({
  name: 'get_user_details',
  alias: 'GetUserDetailsTool',
  description:
    "Look up a user's profile: name, address, saved passengers, payment methods and reservation ids.",
  idName: 'user_id',
  idParam: userIdParam,
  find: getUser,
});

/** tau2's `get_reservation_details` (read tool). */
export const getReservationDetails = recordLookupTool({
  name: 'get_reservation_details',
  alias: 'GetReservationDetailsTool',
  description:
    'Look up a reservation: flights, passengers, cabin, baggage, insurance and payment history.',
  idName: 'reservation_id',
  idParam: reservationIdParam,
  find: getReservation,
});

/** tau2's `list_all_airports` (read tool). */
export const listAllAirports: ToolDefinition<Record<string, never>> = {
  name: 'list_all_airports',
  aliases: ['ListAllAirportsTool'],
  kind: 'read',
  description: 'List every airport served, as IATA code and city.',
  parameters: toolParameters({}),
  execute: () => AIRPORTS.map((a) => ({ ...a })),
};

/** tau2's `search_direct_flight` (read tool). */
export const searchDirectFlight: ToolDefinition<{
  origin: string;
  destination: string;
  date: string;
}> = {
  name: 'search_direct_flight',
  aliases: ['SearchDirectFlightTool'],
  kind: 'read',
  description:
    'Find nonstop flights between two airports on a date, with seats left and prices per cabin.',
  parameters: toolParameters({
    origin: originParam,
    destination: destinationParam,
    date: dateParam,
  }),
  execute: ({ origin, destination, date }, context) =>
    searchDirectFlights(sessionDb<AirlineDb>(context), date, origin, destination),
};

/** tau2's `search_onestop_flight` (read tool). */
export const searchOnestopFlight: ToolDefinition<{
  origin: string;
  destination: string;
  date: string;
}> = {
  name: 'search_onestop_flight',
  aliases: ['SearchOnestopFlightTool'],
  kind: 'read',
  description:
    'Find one-stop connections between two airports on a date. Each result is a pair of legs, ' +
    'each with its own date, seats left and prices per cabin.',
  parameters: toolParameters({
    origin: originParam,
    destination: destinationParam,
    date: dateParam,
  }),
  execute: ({ origin, destination, date }, context) => {
    const db = sessionDb<AirlineDb>(context);
    const results: [DirectFlight, DirectFlight][] = [];
    for (const first of searchDirectFlights(db, date, origin, undefined)) {
      first.date = date;
      // tau2 assumes May 2024 and does not zero-pad the day of an overnight second leg.
      const date2 = first.scheduled_arrival_time_est.includes('+1')
        ? `2024-05-${pyInt(date.slice(-2)) + 1}`
        : date;
      for (const second of searchDirectFlights(
        db,
        date2,
        first.destination,
        destination,
        first.scheduled_arrival_time_est,
      )) {
        second.date = date2;
        results.push([first, second]);
      }
    }
    return structuredClone(results);
  },
};

/** Python's `int(text)` for a decimal string. */
function pyInt(text: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(text)) {
    throw new ToolError(`invalid literal for int() with base 10: '${text}'`);
  }
  return Number.parseInt(text, 10);
}

/** tau2's `get_flight_status` (read tool). */
export const getFlightStatus: ToolDefinition<{ flight_number: string; date: string }> = {
  name: 'get_flight_status',
  aliases: ['GetFlightStatusTool'],
  kind: 'read',
  description:
    "The status of a flight on a date: 'available', 'on time', 'delayed', 'flying', 'landed' or 'cancelled'.",
  parameters: toolParameters({
    flight_number: stringParam("The flight number, for example 'HAT001'."),
    date: dateParam,
  }),
  execute: ({ flight_number, date }, context) =>
    getFlightInstance(sessionDb<AirlineDb>(context), flight_number, date).status,
};

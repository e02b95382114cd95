/**
 * The eva airline read tools: `GetReservationTool`, `GetFlightStatusTool`,
 * `GetDisruptionInfoTool`, `SearchRebookingOptionsTool`. None changes the db; results are copies.
 *
 * @module
 */
import { compareCodePoints, PythonError, pyTruthy } from '@scenaro/agent/python';
import { evaTool, num, onReservation, str } from './params.js';
import { FARE_CLASSES, KINDS, confirmationNumberParam } from './fields.js';
import { bookingsOf, evaError, get, journeyAvailableSeats, segmentsOf } from './store.js';
import type { Rec } from './store.js';

/** `[first segment's date, journey_id]`, the order a reservation's bookings are shown in. */
function bookingSortKey(booking: Rec): [string, string] {
  const segments = get<Rec[]>(booking, 'segments', [{}]);
  if (segments.length === 0) throw new PythonError('IndexError', 'list index out of range');
  return [get(segments[0], 'date', ''), get(booking, 'journey_id', '')];
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareCodePoints(a[i] as string, b[i] as string);
    if (c !== 0) return c;
  }
  return 0;
}

export const getReservationTool = evaTool({
  name: 'GetReservationTool',
  description:
    'Retrieve flight reservation using confirmation number and passenger last name. This is typically the first tool called to authenticate the caller and load their flight numbers.',
  kind: 'read',
  params: [
    confirmationNumberParam('6-character alphanumeric booking confirmation code.'),
    ['last_name', KINDS.text, 'Passenger last name for verification.'],
  ],
  run: onReservation(({ cn, reservation, values }) => {
    const lastName = str(values, 'last_name');
    // An empty last name skips the check (as NeMo does).
    if (lastName) {
      const wanted = lastName.toLowerCase();
      const passengers = get<Rec[]>(reservation, 'passengers', []);
      if (!passengers.some((p) => get(p, 'last_name', '').toLowerCase() === wanted)) {
        return evaError('authentication_failed', `Last name does not match reservation ${cn}`);
      }
    }
    const copy = structuredClone(reservation);
    const keyed = bookingsOf(copy).map((booking) => ({ booking, key: bookingSortKey(booking) }));
    keyed.sort((a, b) => compareKeys(a.key, b.key));
    copy['bookings'] = keyed.map((k) => k.booking);
    return { status: 'success', reservation: copy };
  }),
});

export const getFlightStatusTool = evaTool({
  name: 'GetFlightStatusTool',
  description:
    "Get specific information about a flight (origin, destination, departure time) and current status (delays, cancellations, gate). For connecting flights, any segment's flight number works.",
  kind: 'read',
  params: [
    [
      'flight_number',
      KINDS.flightNumber,
      'Flight number (e.g., SK123). For connecting flights, any segment works.',
    ],
    ['flight_date', KINDS.date, 'Flight date in YYYY-MM-DD format.'],
  ],
  run: (values, db) => {
    const given = str(values, 'flight_number');
    const flightNumber = given.toUpperCase();
    const date = str(values, 'flight_date').replace(/-/g, '');
    const journeys = get<Record<string, Rec>>(db, 'journeys', {});
    let journey: Rec | undefined = get(journeys, `FL_${flightNumber}_${date}`);
    if (!pyTruthy(journey)) {
      journey = Object.values(journeys).find(
        (j) =>
          get(j, 'date', '').replace(/-/g, '') === date &&
          segmentsOf(j).some((s) => get(s, 'flight_number', '').toUpperCase() === flightNumber),
      );
    }
    if (!pyTruthy(journey)) {
      return evaError(
        'not_found',
        `Flight ${given} not found for date ${str(values, 'flight_date')}`,
      );
    }
    return { status: 'success', journey: structuredClone(journey) };
  },
});

export const getDisruptionInfoTool = evaTool({
  name: 'GetDisruptionInfoTool',
  description:
    'Get detailed information about flight disruption for IRROPS handling. Determines passenger rebooking entitlements based on disruption type and cause.',
  kind: 'read',
  params: [
    ['flight_number', KINDS.flightNumber, 'Flight number to look up disruption for (e.g., SK123).'],
    ['date', KINDS.date, 'Flight date in YYYY-MM-DD format.'],
  ],
  run: (values, db) => {
    const flightNumber = str(values, 'flight_number').toUpperCase();
    const disruptions = get<Record<string, Rec>>(db, 'disruptions', {});
    const disruption = get<Rec | undefined>(disruptions, `${flightNumber}_${str(values, 'date')}`);
    if (!pyTruthy(disruption)) {
      return evaError('not_found', `No disruption info found for flight ${flightNumber}`);
    }
    return { status: 'success', disruption: structuredClone(disruption) };
  },
});

const BOOKABLE_STATUSES = new Set(['scheduled', 'on_time', 'delayed']);

export const searchRebookingOptionsTool = evaTool({
  name: 'SearchRebookingOptionsTool',
  description:
    'Search for available flights to rebook a passenger. Returns options filtered by rebooking rules and seat availability.',
  kind: 'read',
  params: [
    ['origin', KINDS.airportCode, 'Origin airport code (e.g., JFK).'],
    ['destination', KINDS.airportCode, 'Destination airport code (e.g., LAX).'],
    ['date', KINDS.date, 'Travel date in YYYY-MM-DD format.'],
    ['passenger_count', { type: 'int', ge: 1 }, 'Number of passengers needing seats.'],
    [
      'fare_class',
      KINDS.fareClassOrAny,
      "Fare class to search (basic_economy, main_cabin, premium_economy, business, first, any). 'any' picks the cheapest available class.",
    ],
  ],
  run: (values, db) => {
    const origin = str(values, 'origin').toUpperCase();
    const destination = str(values, 'destination').toUpperCase();
    const date = str(values, 'date');
    const count = num(values, 'passenger_count');
    const fareClass = str(values, 'fare_class');
    const options: Rec[] = [];
    for (const [journeyId, journey] of Object.entries(
      get<Record<string, Rec>>(db, 'journeys', {}),
    )) {
      if (get(journey, 'origin') !== origin || get(journey, 'destination') !== destination)
        continue;
      if (get(journey, 'date') !== date) continue;
      if (!BOOKABLE_STATUSES.has(get(journey, 'status'))) continue;
      if (!pyTruthy(get(journey, 'bookable', false))) continue;
      const seats = journeyAvailableSeats(journey);
      const enough = (fc: string) => get<number>(seats, fc, 0) >= count;
      if (fareClass === 'any') {
        if (!Object.values(seats).some((n) => n !== null && n >= count)) continue;
      } else if (!enough(fareClass)) continue;
      const fares = get<Record<string, number | null>>(journey, 'fares', {});
      let shown = fareClass;
      if (fareClass === 'any') {
        let best: [string, number] | undefined;
        for (const fc of FARE_CLASSES) {
          const fare = get<number | null>(fares, fc, null);
          if (!enough(fc) || fare === null) continue;
          if (best === undefined || fare < best[1]) best = [fc, fare];
        }
        if (best) shown = best[0];
      }
      const segments = segmentsOf(journey);
      options.push({
        journey_id: journeyId,
        origin: get(journey, 'origin', null),
        destination: get(journey, 'destination', null),
        num_stops: get(journey, 'num_stops', 0),
        total_duration_minutes: get(journey, 'total_duration_minutes', null),
        segments: structuredClone(segments),
        departure_time: segments.length > 0 ? (segments[0] as Rec)['scheduled_departure'] : null,
        arrival_time:
          segments.length > 0 ? (segments[segments.length - 1] as Rec)['scheduled_arrival'] : null,
        available_seats: Object.fromEntries(FARE_CLASSES.map((fc) => [fc, get(seats, fc, 0)])),
        fare: get(fares, shown, null),
      });
    }
    // A stable sort by departure time, as strings.
    options.sort((a, b) =>
      compareCodePoints(String(a['departure_time'] ?? ''), String(b['departure_time'] ?? '')),
    );
    return {
      status: 'success',
      options,
      count: options.length,
      message: `${options.length} flight(s) found`,
    };
  },
});

/**
 * The eva airline db as its tools read it, and the lookups and errors they share: reservations
 * by upper-cased confirmation number, a booking's journey and segments, a journey's effective
 * seats and a booking's fare, the ancillaries a rebooked segment carries, and the standard
 * error results.
 *
 * @module
 */
import type { JsonObject, ToolContext } from '@scenaro/agent/scenario';
import { PythonError, pyTruthy } from '@scenaro/agent/python';

/** A record of the db (reservation, booking, segment, journey...), read loosely as eva does. */
export type Rec = JsonObject;

/** The db of one eva scenario (`<eva_id>.json`). */
export interface EvaDb extends JsonObject {
  _current_date?: string;
  reservations?: Record<string, Rec>;
  journeys?: Record<string, Rec>;
  disruptions?: Record<string, Rec>;
}

/** An error result: `{status: 'error', error_type, message}`. */
export function evaError(errorType: string, message: string): Rec {
  return { status: 'error', error_type: errorType, message };
}

/** `Reservation <CN> not found`. */
export const reservationNotFound = (cn: string): Rec =>
  evaError('not_found', `Reservation ${cn} not found`);

/** `Journey <id> not found in reservation`. */
export const journeyNotFound = (journeyId: string): Rec =>
  evaError('journey_not_found', `Journey ${journeyId} not found in reservation`);

/** The db of the session, or `undefined` when it is missing or empty (`not db`). */
export function evaDb(context: ToolContext): EvaDb | undefined {
  const db = context.state.db;
  return pyTruthy(db) ? (db as EvaDb) : undefined;
}

/** The answer when no db is loaded. */
export const DB_NOT_INITIALIZED: Rec = evaError(
  'db_not_initialized',
  'Scenario database not loaded. This indicates a fixture-loading bug; contact the evaluator.',
);

/** Python's `dict.get(key, fallback)`: the value when the key is present (even null). */
export function get<T = unknown>(record: unknown, key: string, fallback?: T): T {
  if (typeof record === 'object' && record !== null && Object.hasOwn(record, key)) {
    return (record as Rec)[key] as T;
  }
  return fallback as T;
}

/** `db[key]`, raising Python's `KeyError` when it is missing. */
export function required<T = unknown>(record: Rec, key: string): T {
  if (!Object.hasOwn(record, key)) throw new PythonError('KeyError', `'${key}'`);
  return record[key] as T;
}

/** A dict entry of `record`, created empty when missing (`setdefault(key, {})`). */
export function dictOf<V = Rec>(record: Rec, key: string): Record<string, V> {
  if (!Object.hasOwn(record, key)) record[key] = {};
  return record[key] as Record<string, V>;
}

/** `db.reservations[cn]` (`cn` already upper-cased), when it exists and is not empty. */
export function lookupReservation(db: EvaDb, cn: string): Rec | undefined {
  const reservation = get<Rec | undefined>(get(db, 'reservations', {}), cn);
  return pyTruthy(reservation) ? reservation : undefined;
}

/** The bookings of a reservation (its `bookings` list). */
export function bookingsOf(reservation: Rec): Rec[] {
  return get<Rec[]>(reservation, 'bookings', []);
}

/** The segments of a booking or journey. */
export function segmentsOf(record: Rec): Rec[] {
  return get<Rec[]>(record, 'segments', []);
}

/**
 * The booking of `journeyId` in a reservation: the first one not cancelled, else the first
 * match (a partial rebook leaves a cancelled and a kept booking with the same journey id).
 */
export function findBookingJourney(reservation: Rec, journeyId: string): Rec | undefined {
  let first: Rec | undefined;
  for (const booking of bookingsOf(reservation)) {
    if (get(booking, 'journey_id') !== journeyId) continue;
    first ??= booking;
    if (get(booking, 'status') !== 'cancelled') return booking;
  }
  return pyTruthy(first) ? first : undefined;
}

/**
 * The booking segments a call targets: those with `flightNumber` when given, else the only
 * segment; or the error result when there is none or the choice is ambiguous.
 */
export function findBookingSegment(
  booking: Rec,
  journeyId: string,
  flightNumber: string | null,
): { targets: Rec[] } | { error: Rec } {
  const segments = segmentsOf(booking);
  if (flightNumber) {
    const targets = segments.filter((s) => get(s, 'flight_number') === flightNumber);
    if (targets.length === 0) {
      return {
        error: evaError(
          'flight_not_found',
          `Flight ${flightNumber} not found in journey ${journeyId}`,
        ),
      };
    }
    return { targets };
  }
  if (segments.length === 1) return { targets: segments };
  return {
    error: evaError(
      'flight_number_required',
      `Journey ${journeyId} has ${segments.length} segments; flight_number is required`,
    ),
  };
}

/** A journey's seats per class: the fewest over its segments (classes of the first segment). */
export function journeyAvailableSeats(journey: Rec): Record<string, number> {
  const segments = segmentsOf(journey);
  if (segments.length === 0) return {};
  const seats: Record<string, number> = {
    ...get<Record<string, number>>(segments[0], 'available_seats', {}),
  };
  for (const segment of segments.slice(1)) {
    const own = get<Record<string, number>>(segment, 'available_seats', {});
    for (const fareClass of Object.keys(seats)) {
      seats[fareClass] = Math.min(get(seats, fareClass, 0), get(own, fareClass, 0));
    }
  }
  return seats;
}

/** What a booking cost: its `fare_paid`, else the sum of its segments' `fare_paid`. */
export function bookingTotalFare(booking: Rec): number {
  if (Object.hasOwn(booking, 'fare_paid')) return get(booking, 'fare_paid', 0);
  return segmentsOf(booking).reduce((sum, s) => sum + get<number>(s, 'fare_paid', 0), 0);
}

/**
 * The ancillaries new segment `index` of a rebooking carries over: from the replaced segment
 * (partial rebook), else the old segment at the same position, else the first old segment.
 * Bags and meal carry; the seat does not.
 */
export function carriedAncillaries(
  oldSegments: readonly Rec[],
  replaced: Rec | undefined,
  index: number,
): { bags_checked: unknown; meal_request: unknown } {
  const source = replaced ?? oldSegments[index] ?? oldSegments[0] ?? {};
  const bags = get(source, 'bags_checked');
  return {
    bags_checked: pyTruthy(bags) ? bags : 0,
    meal_request: get(source, 'meal_request', null),
  };
}

/** Add `delta` to `available_seats[fareClass]` of every segment of `journey` (created as needed). */
export function adjustSeats(journey: Rec, fareClass: string, delta: number): void {
  for (const segment of segmentsOf(journey)) {
    const seats = dictOf<number>(segment, 'available_seats');
    seats[fareClass] = get(seats, fareClass, 0) + delta;
  }
}

/** Per-scenario call counter of a tool, outside the db (`_call_counts`). */
export function nextCallIndex(context: ToolContext, key: string): number {
  const shared = context.state.shared;
  const counts = (shared['_call_counts'] ??= {}) as Record<string, number>;
  counts[key] = (counts[key] ?? 0) + 1;
  return counts[key];
}

/**
 * The eva airline tools that change a booking: `CancelReservationTool`, `AssignSeatTool`,
 * `AddBaggageAllowanceTool`, `AddMealRequestTool`, `AddToStandbyTool`.
 *
 * @module
 */
import { pyIntFromString, pyTruthy } from '@scenaro/agent/python';
import { isJsonObject } from '@scenaro/sdk/util';
import { confirmationNumber, evaTool, num, onBooking, optStr, str } from './params.js';
import { KINDS, PARAMS, oneOf, optionalFlightNumber } from './fields.js';
import {
  adjustSeats,
  bookingTotalFare,
  bookingsOf,
  evaError,
  findBookingSegment,
  get,
  lookupReservation,
  segmentsOf,
} from './store.js';
import type { Rec } from './store.js';

const REFUNDABLE_REASONS = new Set(['irrops_refund', '24_hour_rule']);

export const cancelReservationTool = evaTool({
  name: 'CancelReservationTool',
  description:
    'Cancel a specific journey within a booking. If all journeys end up cancelled, the reservation itself is marked cancelled. Returns refund and credit eligibility.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    ['journey_id', KINDS.journeyId, 'Journey ID of the booking to cancel, from get_reservation.'],
    oneOf('cancellation_reason', KINDS.cancellationReason),
  ],
  run: onBooking(({ cn, reservation, journeyId, booking, values, db, context }) => {
    const reason = str(values, 'cancellation_reason');
    if (get(booking, 'status') === 'cancelled') {
      return evaError('already_cancelled', `Journey ${journeyId} is already cancelled`);
    }
    const fare = bookingTotalFare(booking);
    const refundable =
      REFUNDABLE_REASONS.has(reason) || get(reservation, 'fare_type') === 'refundable';
    const fee = refundable ? 0 : 100;
    const refund = refundable ? Math.max(0, fare - fee) : 0;
    const credit = refundable ? 0 : Math.max(0, fare - fee);
    booking['status'] = 'cancelled';
    const journey = get<Rec | undefined>(get(db, 'journeys', {}), journeyId);
    if (pyTruthy(journey) && journey)
      adjustSeats(journey, get(booking, 'fare_class', 'main_cabin'), 1);
    const allCancelled = bookingsOf(reservation).every((b) => get(b, 'status') === 'cancelled');
    if (allCancelled) reservation['status'] = 'cancelled';
    context.recordAction?.({
      action_type: 'cancel_reservation',
      confirmation_number: cn,
      journey_id: journeyId,
      cancellation_reason: reason,
      is_refundable: refundable,
      cancellation_fee: fee,
      refund_amount_eligible: refund,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      journey_id: journeyId,
      is_refundable: refundable,
      cancellation_fee: fee,
      refund_amount_eligible: refund,
      credit_amount_eligible: credit,
      reservation_status: allCancelled ? 'cancelled' : 'active',
      message: `Journey ${journeyId} cancelled successfully`,
    };
  }),
});

const BASE_ROWS: Readonly<Record<string, number>> = {
  basic_economy: 25,
  main_cabin: 20,
  premium_economy: 10,
  business: 5,
  first: 1,
};
const SEAT_LETTERS: Readonly<Record<string, string>> = {
  window: 'A',
  aisle: 'C',
  middle: 'B',
  no_preference: 'C',
};
const ALL_SEAT_TYPES = ['window', 'aisle', 'middle'];

export const assignSeatTool = evaTool({
  name: 'AssignSeatTool',
  description:
    'Assign a seat to a passenger based on preference (window, aisle, middle, no_preference). Always ask the passenger for their preference before calling — do not assume.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.passengerId,
    PARAMS.journeyId,
    oneOf('seat_preference', KINDS.seatPreference),
    optionalFlightNumber(
      'For multi-segment journeys, the flight number to assign seat on. Omit for single-segment.',
    ),
  ],
  run: onBooking(({ cn, journeyId, booking, values, db, context }) => {
    const passengerId = str(values, 'passenger_id');
    const preference = str(values, 'seat_preference');
    const segment = findBookingSegment(booking, journeyId, optStr(values, 'flight_number'));
    if ('error' in segment) return segment.error;
    const target = segment.targets[0] as Rec;
    const flightNumber = optStr(values, 'flight_number') || get(target, 'flight_number', '');
    const fareClass = get<string>(booking, 'fare_class', 'main_cabin');
    const journey = get<Rec | undefined>(get(db, 'journeys', {}), journeyId);
    const journeySegment = pyTruthy(journey)
      ? segmentsOf(journey as Rec).find((s) => get(s, 'flight_number') === flightNumber)
      : undefined;
    if (pyTruthy(journeySegment)) {
      if (get<number>(get(journeySegment, 'available_seats', {}), fareClass, 0) <= 0) {
        return evaError('no_seats_available', `No seats available in ${fareClass} fare class`);
      }
      const rawTypes = get(journeySegment, 'available_seat_types');
      const allowed =
        pyTruthy(rawTypes) && isJsonObject(rawTypes)
          ? get<string[]>(rawTypes, fareClass, ALL_SEAT_TYPES)
          : ALL_SEAT_TYPES;
      if (preference !== 'no_preference' && !allowed.includes(preference)) {
        return evaError(
          'seat_type_unavailable',
          `No ${preference} seats available in ${fareClass} on this flight. Available types: ${allowed.join(', ')}`,
        );
      }
    }
    // Row from the last three characters of the passenger id: 'PAX1' raises, as in NeMo.
    const row = (BASE_ROWS[fareClass] ?? 20) + pyIntFromString(passengerId.slice(-3));
    const seat = `${row}${SEAT_LETTERS[preference] ?? 'C'}`;
    target['seat'] = seat;
    context.recordAction?.({
      action_type: 'assign_seat',
      confirmation_number: cn,
      passenger_id: passengerId,
      journey_id: journeyId,
      flight_number: flightNumber,
      seat_preference: preference,
      seat_assigned: seat,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      passenger_id: passengerId,
      journey_id: journeyId,
      flight_number: flightNumber,
      seat_assigned: seat,
      fare_class: fareClass,
      preference,
      message: `Seat ${seat} (${preference}) successfully assigned`,
    };
  }),
});

/**
 * Set `field` to `value` on the segments of `booking` a baggage or meal change applies to (one
 * flight, or all); the error result when the flight is not found.
 */
function setOnSegments(
  booking: Rec,
  journeyId: string,
  flightNumber: string | null,
  field: 'bags_checked' | 'meal_request',
  value: number | string,
): Rec | undefined {
  const targets = flightNumber
    ? findBookingSegment(booking, journeyId, flightNumber)
    : { targets: segmentsOf(booking) };
  if ('error' in targets) return targets.error;
  for (const segment of targets.targets) segment[field] = value;
  return undefined;
}

export const addBaggageAllowanceTool = evaTool({
  name: 'AddBaggageAllowanceTool',
  description:
    'Add checked baggage allowance to a flight segment. Specify the exact number of bags (0-5).',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.journeyId,
    ['num_bags', { type: 'int', ge: 0, le: 5 }, 'Number of checked bags (0-5).'],
    optionalFlightNumber(
      'For multi-segment, specific flight to add baggage to. Omit to apply to all segments.',
    ),
  ],
  run: onBooking(({ cn, journeyId, booking, values, context }) => {
    const bags = num(values, 'num_bags');
    const flightNumber = optStr(values, 'flight_number');
    const error = setOnSegments(booking, journeyId, flightNumber, 'bags_checked', bags);
    if (error) return error;
    context.recordAction?.({
      action_type: 'add_baggage_allowance',
      confirmation_number: cn,
      journey_id: journeyId,
      flight_number: flightNumber,
      num_bags: bags,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      journey_id: journeyId,
      bags_checked: bags,
      message: `Baggage allowance set to ${bags} checked bag(s)`,
    };
  }),
});

export const addMealRequestTool = evaTool({
  name: 'AddMealRequestTool',
  description: 'Add or update special meal request for a passenger on a flight segment.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    PARAMS.passengerId,
    PARAMS.journeyId,
    [
      'meal_type',
      KINDS.mealType,
      'One of: vegetarian, vegan, kosher, halal, gluten_free, diabetic, low_sodium, child, hindu, standard, none.',
    ],
    optionalFlightNumber(
      'For multi-segment, specific flight to apply meal to. Omit to apply to all segments.',
    ),
  ],
  run: onBooking(({ cn, journeyId, booking, values, context }) => {
    const passengerId = str(values, 'passenger_id');
    const meal = str(values, 'meal_type');
    const flightNumber = optStr(values, 'flight_number');
    const error = setOnSegments(booking, journeyId, flightNumber, 'meal_request', meal);
    if (error) return error;
    context.recordAction?.({
      action_type: 'add_meal_request',
      confirmation_number: cn,
      passenger_id: passengerId,
      journey_id: journeyId,
      meal_type: meal,
      flight_number: flightNumber,
    });
    return {
      status: 'success',
      confirmation_number: cn,
      passenger_id: passengerId,
      journey_id: journeyId,
      meal_type: meal,
      message: `${meal} meal request added`,
    };
  }),
});

export const addToStandbyTool = evaTool({
  name: 'AddToStandbyTool',
  description: 'Add passenger(s) to the standby list for a flight.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    ['journey_id', KINDS.journeyId, 'Journey ID to add passenger to standby for.'],
    [
      'passenger_ids',
      KINDS.passengerIds,
      "Passenger IDs to add to standby (e.g. ['PAX002', 'PAX003']).",
    ],
  ],
  run: (values, db, context) => {
    const cn = confirmationNumber(values);
    const journeyId = str(values, 'journey_id');
    const ids = values['passenger_ids'] as string[];
    const flight = get<Rec | undefined>(get(db, 'journeys', {}), journeyId);
    if (!pyTruthy(flight) || !flight) {
      return evaError('flight_not_found', `Flight ${journeyId} not found`);
    }
    if (get(flight, 'status') === 'cancelled') {
      return evaError('flight_cancelled', 'Cannot add to standby for cancelled flight');
    }
    // The reservation need not exist; when it does, the passengers must be its own.
    const reservation = lookupReservation(db, cn);
    if (reservation && ids.length > 0) {
      const known = new Set(
        get<Rec[]>(reservation, 'passengers', []).map((p) => get(p, 'passenger_id')),
      );
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0) {
        return evaError('invalid_passengers', `Unknown passenger ID(s): ${unknown.join(', ')}`);
      }
    }
    if (!Object.hasOwn(flight, 'standby_list')) flight['standby_list'] = [];
    const list = flight['standby_list'] as Rec[];
    const position = list.length + ids.length;
    if (reservation) {
      if (!Object.hasOwn(reservation, 'standby_list')) reservation['standby_list'] = [];
      (reservation['standby_list'] as Rec[]).push({
        journey_id: journeyId,
        passenger_ids: [...ids],
        position,
        status: 'pending',
      });
    }
    for (const id of ids) {
      list.push({ confirmation_number: cn, passenger_id: id, position: list.length + 1 });
    }
    context.recordAction?.({
      action_type: 'add_to_standby',
      confirmation_number: cn,
      journey_id: journeyId,
      passenger_ids: [...ids],
    });
    return {
      status: 'success',
      confirmation_number: cn,
      journey_id: journeyId,
      standby_list_position: position,
      message: `Added ${ids.length} passenger(s) to standby list`,
    };
  },
});

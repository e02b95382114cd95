/**
 * `RebookFlightTool`: move a booking (or one leg of it) to another journey, with eva's fees,
 * fare difference and seat counts, carrying bags and meal requests over (NeMo's fix of eva
 * 0.1.3, whose expected end states assume it).
 *
 * @module
 */
import { pyTruthy } from '@scenaro/agent/python';
import { evaTool, onBooking, optStr, str } from './params.js';
import type { BookingCall } from './params.js';
import { KINDS, PARAMS, oneOf, optionalFlightNumber } from './fields.js';
import {
  adjustSeats,
  bookingTotalFare,
  bookingsOf,
  carriedAncillaries,
  evaError,
  findBookingSegment,
  get,
  journeyAvailableSeats,
  segmentsOf,
} from './store.js';
import type { Rec } from './store.js';

/** The change fee of a voluntary change, by the original fare class. */
const VOLUNTARY_FEES: Readonly<Record<string, number>> = {
  basic_economy: 75,
  main_cabin: 75,
  premium_economy: 75,
  business: 0,
  first: 0,
};

/** What a rebooking call asks for, beyond the booking it changes. */
interface Rebooking {
  newJourneyId: string;
  rebookingType: string;
  waiveFee: boolean;
  newFareClass: string | null;
  flightNumber: string | null;
}

function changeFee(r: Rebooking, original: string): number {
  if (r.rebookingType.includes('irrops') || r.waiveFee) return 0;
  if (r.rebookingType === 'same_day') return original === 'basic_economy' ? 199 : 75;
  return VOLUNTARY_FEES[original] ?? 75;
}

function rebook(r: Rebooking, call: BookingCall): Rec {
  const { cn, journeyId, reservation, booking, db, context } = call;
  const journeys = get<Record<string, Rec>>(db, 'journeys', {});
  const next = get<Rec | undefined>(journeys, r.newJourneyId);
  if (!pyTruthy(next) || next === undefined) {
    return evaError('flight_not_found', `Flight ${r.newJourneyId} not found`);
  }
  if (!pyTruthy(get(next, 'bookable', true))) {
    return evaError('not_bookable', `Flight ${r.newJourneyId} is not available for booking`);
  }
  const original = get<string>(booking, 'fare_class', 'main_cabin');
  const target = r.newFareClass || original;
  const irrops = r.rebookingType.includes('irrops');
  const fee = changeFee(r, original);

  let replaced: Rec | undefined;
  if (r.flightNumber) {
    const found = findBookingSegment(booking, journeyId, r.flightNumber);
    if ('error' in found) return found.error;
    replaced = found.targets[0];
  }
  const oldFare: number = replaced ? get(replaced, 'fare_paid', 0) : bookingTotalFare(booking);
  const newFare = get<number | null>(get(next, 'fares', {}), target, null);
  if (newFare === null) {
    return evaError(
      'fare_class_not_available',
      `Fare class '${target}' is not available on flight ${r.newJourneyId}`,
    );
  }
  if (get<number>(journeyAvailableSeats(next), target, 0) <= 0) {
    return evaError(
      'no_seats_available',
      `No seats available in ${target} on flight ${r.newJourneyId}`,
    );
  }
  const fareDifference = newFare - oldFare;
  const creditDue = Math.max(0, -fareDifference);
  const totalCollected = irrops ? 0 : fee + Math.max(0, fareDifference);

  // The first booking of the old journey is cancelled, whatever its status.
  const cancelled = bookingsOf(reservation).find((b) => b['journey_id'] === journeyId);
  if (cancelled) cancelled['status'] = 'cancelled';

  const newSegments = segmentsOf(next);
  const oldSegments = segmentsOf(booking);
  const segments = newSegments.map((segment, i) => {
    let farePaid: unknown;
    if (irrops && !r.flightNumber && i < oldSegments.length) {
      farePaid = get(oldSegments[i], 'fare_paid', 0);
    } else if (irrops && r.flightNumber && newSegments.length === 1) {
      farePaid = get(replaced, 'fare_paid', 0);
    } else {
      farePaid = get(get(segment, 'fares', {}), target, 0);
    }
    const carried = carriedAncillaries(oldSegments, replaced, i);
    return {
      flight_number: get(segment, 'flight_number', null),
      date: get(next, 'date', null),
      fare_paid: farePaid,
      seat: null,
      bags_checked: carried.bags_checked,
      meal_request: carried.meal_request,
    };
  });
  bookingsOf(reservation).push({
    journey_id: r.newJourneyId,
    fare_class: target,
    fare_paid: irrops ? oldFare : newFare,
    status: 'confirmed',
    segments,
  });

  let keptInfo: Rec[] = [];
  if (r.flightNumber) {
    const kept = oldSegments.filter((s) => get(s, 'flight_number') !== r.flightNumber);
    if (kept.length > 0) {
      bookingsOf(reservation).push({
        journey_id: journeyId,
        fare_class: original,
        fare_paid: kept.reduce((sum, s) => sum + get<number>(s, 'fare_paid', 0), 0),
        status: 'confirmed',
        segments: structuredClone(kept),
      });
      keptInfo = kept.map((s) => ({
        flight_number: get(s, 'flight_number', null),
        origin: get(s, 'origin', null),
        destination: get(s, 'destination', null),
        fare_paid: get(s, 'fare_paid', null),
        seat: get(s, 'seat', null),
      }));
    }
  }
  reservation['status'] = 'changed';
  adjustSeats(next, target, -1);
  const previous = get<Rec | undefined>(journeys, get(booking, 'journey_id'));
  if (pyTruthy(previous) && previous) adjustSeats(previous, original, 1);

  const after = segmentsOf(next);
  const response: Rec = {
    status: 'success',
    confirmation_number: cn,
    new_journey: {
      journey_id: r.newJourneyId,
      num_stops: get(next, 'num_stops', 0),
      segments: structuredClone(after),
      departure: after.length > 0 ? (after[0] as Rec)['scheduled_departure'] : null,
      arrival: after.length > 0 ? (after[after.length - 1] as Rec)['scheduled_arrival'] : null,
      origin: get(next, 'origin', null),
      destination: get(next, 'destination', null),
    },
    cost_summary: {
      original_fare_class: original,
      new_fare_class: target,
      cabin_changed: original !== target,
      change_fee: fee,
      fare_difference: fareDifference,
      credit_due: creditDue,
      total_collected: totalCollected,
      fee_waived: irrops || r.waiveFee,
    },
    message:
      `Successfully rebooked to flight ${r.newJourneyId}` +
      (original !== target ? ` in ${target}` : ''),
  };
  if (r.flightNumber) {
    response['partial_rebook'] = true;
    response['replaced_segment'] = {
      flight_number: r.flightNumber,
      origin: get(replaced, 'origin', null),
      destination: get(replaced, 'destination', null),
      fare_paid: get(replaced, 'fare_paid', null),
    };
    response['kept_segments'] = keptInfo;
  }
  context.recordAction?.({
    action_type: 'rebook_flight',
    confirmation_number: cn,
    old_journey_id: journeyId,
    new_journey_id: r.newJourneyId,
    rebooking_type: r.rebookingType,
    original_fare_class: original,
    new_fare_class: target,
    change_fee: fee,
    fare_difference: fareDifference,
    total_collected: totalCollected,
    partial_rebook: Boolean(r.flightNumber),
    ...(r.flightNumber ? { replaced_flight_number: r.flightNumber } : {}),
  });
  return response;
}

export const rebookFlightTool = evaTool({
  name: 'RebookFlightTool',
  description:
    'Rebook passenger(s) to a new flight. Handles voluntary changes, IRROPS rebooking, and missed flight recovery. If new_fare_class is provided, the cabin changes; otherwise the original fare class is kept. If flight_number is provided, a partial rebook of that segment is performed (split-booking). Always explain change_fee, fare_difference, and total_collected to the caller before confirming.',
  kind: 'write',
  params: [
    PARAMS.confirmationNumber,
    ['journey_id', KINDS.journeyId, 'Journey ID from get_reservation booking to be changed.'],
    [
      'new_journey_id',
      KINDS.journeyId,
      'Journey ID of the replacement flight from search_rebooking_options.',
    ],
    oneOf('rebooking_type', KINDS.rebookingType, 'Reason for rebooking. '),
    [
      'waive_change_fee',
      KINDS.bool,
      'Whether to waive the change fee (only for voluntary changes with authorization).',
    ],
    [
      'new_fare_class',
      KINDS.fareClass,
      'Fare class to rebook into if changing cabin (basic_economy, main_cabin, premium_economy, business, first). Omit to keep original fare class.',
      'optional',
    ],
    optionalFlightNumber(
      'For multi-segment journeys, the specific flight number of the leg to replace (partial rebook). Omit for full journey rebook.',
    ),
  ],
  run: onBooking((call) =>
    rebook(
      {
        newJourneyId: str(call.values, 'new_journey_id'),
        rebookingType: str(call.values, 'rebooking_type'),
        waiveFee: call.values['waive_change_fee'] === true,
        newFareClass: optStr(call.values, 'new_fare_class'),
        flightNumber: optStr(call.values, 'flight_number'),
      },
      call,
    ),
  ),
});

/**
 * Lookups and shared rules of tau2's `AirlineTools` (`_get_user`,
 * `_get_flight_instance`, `_payment_for_update`, ...), over the raw db.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import { lookup } from '../../common/tool-kit.js';
import type {
  AirlineDb,
  Flight,
  FlightDateStatus,
  Payment,
  Reservation,
  User,
} from './db-types.js';

/** tau2's fixed clock for the airline domain. */
export const AIRLINE_NOW = '2024-05-15T15:00:00';
/** Reservation ids handed out by `book_reservation`, in order (tau2 assumes at most three per task). */
export const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'] as const;
/** Numeric suffixes of the certificates `send_certificate` creates, in order. */
export const NEW_PAYMENT_IDS = [3221322, 3221323, 3221324] as const;

/** The user (`_get_user`); tau2's error when unknown. */
export function getUser(db: AirlineDb, userId: string): User {
  const user = lookup(db.users, userId);
  if (!user) throw new ToolError(`User ${userId} not found`);
  return user;
}

/** The reservation (`_get_reservation`); tau2's error when unknown. */
export function getReservation(db: AirlineDb, reservationId: string): Reservation {
  const reservation = lookup(db.reservations, reservationId);
  if (!reservation) throw new ToolError(`Reservation ${reservationId} not found`);
  return reservation;
}

/** The flight (`_get_flight`); tau2's error when unknown. */
export function getFlight(db: AirlineDb, flightNumber: string): Flight {
  const flight = lookup(db.flights, flightNumber);
  if (!flight) throw new ToolError(`Flight ${flightNumber} not found`);
  return flight;
}

/** A flight on a date (`_get_flight_instance`); tau2's error when unknown. */
export function getFlightInstance(
  db: AirlineDb,
  flightNumber: string,
  date: string,
): FlightDateStatus {
  const flight = getFlight(db, flightNumber);
  const instance = lookup(flight.dates, date);
  if (!instance) throw new ToolError(`Flight ${flightNumber} not found on date ${date}`);
  return instance;
}

/** The next free id of `NEW_RESERVATION_IDS` (`_get_new_reservation_id`). */
export function newReservationId(db: AirlineDb): string {
  for (const id of NEW_RESERVATION_IDS) if (!lookup(db.reservations, id)) return id;
  throw new ToolError('Too many reservations');
}

/** One result of tau2's `_search_direct_flight` (a `DirectFlight`). */
export type DirectFlight = {
  flight_number: string;
  origin: string;
  destination: string;
  status: 'available';
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  date: string | null;
  available_seats: Record<string, number>;
  prices: Record<string, number>;
};

/** Available flights on `date`, optionally filtered by origin, destination and earliest departure. */
export function searchDirectFlights(
  db: AirlineDb,
  date: string,
  origin?: string,
  destination?: string,
  leaveAfter?: string,
): DirectFlight[] {
  const results: DirectFlight[] = [];
  for (const flight of Object.values(db.flights)) {
    const instance = lookup(flight.dates, date);
    const ok =
      (origin === undefined || flight.origin === origin) &&
      (destination === undefined || flight.destination === destination) &&
      instance !== undefined &&
      instance.status === 'available' &&
      (leaveAfter === undefined || flight.scheduled_departure_time_est >= leaveAfter);
    if (!ok) continue;
    results.push({
      flight_number: flight.flight_number,
      origin: flight.origin,
      destination: flight.destination,
      status: 'available',
      scheduled_departure_time_est: flight.scheduled_departure_time_est,
      scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
      date: null,
      available_seats: structuredClone(instance.available_seats ?? {}),
      prices: structuredClone(instance.prices ?? {}),
    });
  }
  return results;
}

/**
 * tau2's `_payment_for_update`: check the payment method, deduct a gift card,
 * and return the payment line to append (none when the total is zero).
 */
export function paymentForUpdate(
  user: User,
  paymentId: string,
  totalPrice: number,
): Payment | undefined {
  const method = lookup(user.payment_methods, paymentId);
  if (!method) throw new ToolError('Payment method not found');
  if (method.source === 'certificate')
    throw new ToolError('Certificate cannot be used to update reservation');
  if (method.source === 'gift_card' && (method.amount ?? 0) < totalPrice) {
    throw new ToolError('Gift card balance is not enough');
  }
  if (method.source === 'gift_card') method.amount = (method.amount ?? 0) - totalPrice;
  return totalPrice !== 0 ? { payment_id: paymentId, amount: totalPrice } : undefined;
}

/** Seats left in `cabin` for an available flight instance. */
export function seatsIn(instance: FlightDateStatus, cabin: string): number {
  return lookup(instance.available_seats, cabin) ?? 0;
}

/** Price of `cabin` for an available flight instance. */
export function priceIn(instance: FlightDateStatus, cabin: string): number {
  return lookup(instance.prices, cabin) ?? 0;
}

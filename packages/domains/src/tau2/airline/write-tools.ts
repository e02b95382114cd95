/**
 * Write tools of the tau2 airline domain. Each mutates the session db exactly
 * as tau2's `AirlineTools` does and returns the compact result the reference
 * harness records for the action.
 *
 * @module
 */
import { ToolError } from '@scenaro/agent/scenario';
import type { ToolDefinition } from '@scenaro/agent/scenario';
import { setDictItem } from '@scenaro/agent/python';
import {
  arrayParam,
  enumParam,
  integerParam,
  itemSchema,
  lookup,
  sessionDb,
  stringParam,
  toolParameters,
} from '../../common/tool-kit.js';
import { CABIN_CLASSES } from './db-types.js';
import type {
  AirlineDb,
  FlightDateStatus,
  Passenger,
  Payment,
  ReservationFlight,
} from './db-types.js';
import {
  AIRLINE_NOW,
  NEW_PAYMENT_IDS,
  getFlight,
  getFlightInstance,
  getReservation,
  getUser,
  newReservationId,
  paymentForUpdate,
  priceIn,
  seatsIn,
} from './store.js';

type FlightInfo = { flight_number: string; date: string };

const reservationIdParam = stringParam("The six-character reservation id, for example 'ZFA04Y'.");
const paymentIdParam = stringParam(
  "A payment method id from the user's profile, for example 'credit_card_7815826' or 'gift_card_7815826'.",
);
const flightInfoItem = itemSchema(
  {
    flight_number: stringParam("Flight number, for example 'HAT001'."),
    date: stringParam("Flight date as 'YYYY-MM-DD'."),
  },
  ['flight_number', 'date'],
);
const passengerItem = itemSchema(
  {
    first_name: stringParam('First name.'),
    last_name: stringParam('Last name.'),
    dob: stringParam("Date of birth as 'YYYY-MM-DD'."),
  },
  ['first_name', 'last_name', 'dob'],
);

function passengersOf(list: readonly Passenger[]): Passenger[] {
  return list.map((p) => ({ first_name: p.first_name, last_name: p.last_name, dob: p.dob }));
}

function availableInstance(db: AirlineDb, info: FlightInfo): FlightDateStatus {
  const instance = getFlightInstance(db, info.flight_number, info.date);
  if (instance.status !== 'available') {
    throw new ToolError(`Flight ${info.flight_number} not available on date ${info.date}`);
  }
  return instance;
}

type BookArgs = {
  user_id: string;
  origin: string;
  destination: string;
  flight_type: 'one_way' | 'round_trip';
  cabin: string;
  flights: FlightInfo[];
  passengers: Passenger[];
  payment_methods: Payment[];
  total_baggages: number;
  nonfree_baggages: number;
  insurance: 'yes' | 'no';
};

/** tau2's `book_reservation` (write tool). */
export const bookReservation: ToolDefinition<BookArgs> = {
  name: 'book_reservation',
  aliases: ['BookReservationTool'],
  kind: 'write',
  description:
    'Book a new reservation for a user. The price is the cabin fare of every flight times the number of ' +
    'passengers, plus $30 per passenger for insurance and $50 per non-free bag; the payment amounts must ' +
    'add up to that total exactly.',
  parameters: toolParameters({
    user_id: stringParam("The id of the user booking, for example 'sara_doe_496'."),
    origin: stringParam("IATA code of the trip origin, for example 'SFO'."),
    destination: stringParam("IATA code of the trip destination, for example 'JFK'."),
    flight_type: enumParam(
      ['one_way', 'round_trip'],
      'Whether the trip is one way or a round trip.',
    ),
    cabin: enumParam(CABIN_CLASSES, 'Cabin class for every flight of the reservation.'),
    flights: arrayParam(
      flightInfoItem,
      'Every flight of the trip, each with its flight number and date.',
    ),
    passengers: arrayParam(passengerItem, 'Every passenger travelling.'),
    payment_methods: arrayParam(
      itemSchema(
        {
          payment_id: stringParam("A payment method id from the user's profile."),
          amount: integerParam('Dollars charged to this payment method.'),
        },
        ['payment_id', 'amount'],
      ),
      'How the total is paid: one entry per payment method with the amount charged to it.',
    ),
    total_baggages: integerParam('Total number of checked bags.'),
    nonfree_baggages: integerParam('Number of checked bags that are not free.'),
    insurance: enumParam(['yes', 'no'], 'Whether travel insurance is bought.'),
  }),
  execute: (args, context) => {
    const db = sessionDb<AirlineDb>(context);
    const user = getUser(db, args.user_id);
    const reservationId = newReservationId(db);
    const passengers = passengersOf(args.passengers);
    const payments: Payment[] = args.payment_methods.map((p) => ({
      payment_id: p.payment_id,
      amount: p.amount,
    }));

    let totalPrice = 0;
    const reservationFlights: ReservationFlight[] = [];
    const instances: FlightDateStatus[] = [];
    for (const info of args.flights) {
      const flight = getFlight(db, info.flight_number);
      const instance = availableInstance(db, info);
      if (seatsIn(instance, args.cabin) < passengers.length) {
        throw new ToolError(`Not enough seats on flight ${info.flight_number}`);
      }
      const price = priceIn(instance, args.cabin);
      reservationFlights.push({
        origin: flight.origin,
        destination: flight.destination,
        flight_number: info.flight_number,
        date: info.date,
        price,
      });
      instances.push(instance);
      totalPrice += price * passengers.length;
    }
    if (args.insurance === 'yes') totalPrice += 30 * passengers.length;
    totalPrice += 50 * args.nonfree_baggages;

    for (const payment of payments) {
      const method = lookup(user.payment_methods, payment.payment_id);
      if (!method) throw new ToolError(`Payment method ${payment.payment_id} not found`);
      if (
        (method.source === 'gift_card' || method.source === 'certificate') &&
        (method.amount ?? 0) < payment.amount
      ) {
        throw new ToolError(`Not enough balance in payment method ${payment.payment_id}`);
      }
    }
    const totalPayment = payments.reduce((sum, p) => sum + p.amount, 0);
    if (totalPayment !== totalPrice) {
      throw new ToolError(
        `Payment amount does not add up, total price is ${totalPrice}, but paid ${totalPayment}`,
      );
    }

    for (const payment of payments) {
      const method = lookup(user.payment_methods, payment.payment_id);
      if (method?.source === 'gift_card') method.amount = (method.amount ?? 0) - payment.amount;
      else if (method?.source === 'certificate') delete user.payment_methods[payment.payment_id];
    }
    for (const instance of instances) {
      const seats = instance.available_seats ?? (instance.available_seats = {});
      setDictItem(seats, args.cabin, seatsIn(instance, args.cabin) - passengers.length);
    }
    setDictItem(db.reservations, reservationId, {
      reservation_id: reservationId,
      user_id: args.user_id,
      origin: args.origin,
      destination: args.destination,
      flight_type: args.flight_type,
      cabin: args.cabin,
      flights: reservationFlights,
      passengers,
      payment_history: payments,
      created_at: AIRLINE_NOW,
      total_baggages: args.total_baggages,
      nonfree_baggages: args.nonfree_baggages,
      insurance: args.insurance,
      status: null,
    });
    user.reservations.push(reservationId);
    return { reservation_id: reservationId };
  },
};

/** tau2's `cancel_reservation` (write tool). */
export const cancelReservation: ToolDefinition<{ reservation_id: string }> = {
  name: 'cancel_reservation',
  aliases: ['CancelReservationTool'],
  kind: 'write',
  description:
    'Cancel a whole reservation: every payment is refunded to its original method and the reservation is ' +
    "marked 'cancelled'.",
  parameters: toolParameters({ reservation_id: reservationIdParam }),
  execute: ({ reservation_id }, context) => {
    const reservation = getReservation(sessionDb<AirlineDb>(context), reservation_id);
    const refunds = reservation.payment_history.map((p) => ({
      payment_id: p.payment_id,
      amount: -p.amount,
    }));
    reservation.payment_history.push(...refunds);
    reservation.status = 'cancelled';
    // tau2 does not release the seats of a cancelled reservation.
    return { reservation_id, status: 'cancelled' };
  },
};

/** tau2's `send_certificate` (write tool). */
export const sendCertificate: ToolDefinition<{ user_id: string; amount: number }> = {
  name: 'send_certificate',
  aliases: ['SendCertificateTool'],
  kind: 'write',
  description:
    "Add a travel certificate worth `amount` dollars to a user's payment methods, as compensation.",
  parameters: toolParameters({
    user_id: stringParam("The id of the user, for example 'sara_doe_496'."),
    amount: integerParam('Certificate value in dollars.'),
  }),
  execute: ({ user_id, amount }, context) => {
    const user = getUser(sessionDb<AirlineDb>(context), user_id);
    for (const suffix of NEW_PAYMENT_IDS) {
      const paymentId = `certificate_${suffix}`;
      if (lookup(user.payment_methods, paymentId)) continue;
      setDictItem(user.payment_methods, paymentId, {
        id: paymentId,
        amount,
        source: 'certificate',
      });
      return { payment_id: paymentId, amount };
    }
    throw new ToolError('Too many certificates');
  },
};

type BaggageArgs = {
  reservation_id: string;
  total_baggages: number;
  nonfree_baggages: number;
  payment_id: string;
};

/** tau2's `update_reservation_baggages` (write tool). */
export const updateReservationBaggages: ToolDefinition<BaggageArgs> = {
  name: 'update_reservation_baggages',
  aliases: ['UpdateReservationBaggagesTool'],
  kind: 'write',
  description:
    'Change the checked bags of a reservation. Each added non-free bag costs $50, charged to the given ' +
    'payment method (certificates cannot be used).',
  parameters: toolParameters({
    reservation_id: reservationIdParam,
    total_baggages: integerParam('New total number of checked bags.'),
    nonfree_baggages: integerParam('New number of non-free checked bags.'),
    payment_id: paymentIdParam,
  }),
  execute: (args, context) => {
    const db = sessionDb<AirlineDb>(context);
    const reservation = getReservation(db, args.reservation_id);
    const user = getUser(db, reservation.user_id);
    const totalPrice = 50 * Math.max(0, args.nonfree_baggages - reservation.nonfree_baggages);
    const payment = paymentForUpdate(user, args.payment_id, totalPrice);
    if (payment) reservation.payment_history.push(payment);
    reservation.total_baggages = args.total_baggages;
    reservation.nonfree_baggages = args.nonfree_baggages;
    return { reservation_id: args.reservation_id, charged: totalPrice };
  },
};

type FlightsArgs = {
  reservation_id: string;
  cabin: string;
  flights: FlightInfo[];
  payment_id: string;
};

/** tau2's `update_reservation_flights` (write tool). */
export const updateReservationFlights: ToolDefinition<FlightsArgs> = {
  name: 'update_reservation_flights',
  aliases: ['UpdateReservationFlightsTool'],
  kind: 'write',
  description:
    'Replace the flights and/or cabin of a reservation. List every flight of the new itinerary, including ' +
    'unchanged ones. The fare difference is charged to (or refunded to) the given payment method; ' +
    'certificates cannot be used.',
  parameters: toolParameters({
    reservation_id: reservationIdParam,
    cabin: enumParam(CABIN_CLASSES, 'Cabin class of the whole reservation after the change.'),
    flights: arrayParam(
      flightInfoItem,
      'Every flight of the new itinerary, unchanged ones included.',
    ),
    payment_id: paymentIdParam,
  }),
  execute: (args, context) => {
    const db = sessionDb<AirlineDb>(context);
    const reservation = getReservation(db, args.reservation_id);
    const user = getUser(db, reservation.user_id);
    const travellers = reservation.passengers.length;

    let totalPrice = 0;
    const newFlights: ReservationFlight[] = [];
    for (const info of args.flights) {
      const kept = reservation.flights.find(
        (f) =>
          f.flight_number === info.flight_number &&
          f.date === info.date &&
          args.cabin === reservation.cabin,
      );
      if (kept) {
        totalPrice += kept.price * travellers;
        newFlights.push(kept);
        continue;
      }
      const flight = getFlight(db, info.flight_number);
      const instance = availableInstance(db, info);
      if (seatsIn(instance, args.cabin) < travellers) {
        throw new ToolError(`Not enough seats on flight ${info.flight_number}`);
      }
      const price = priceIn(instance, args.cabin);
      newFlights.push({
        flight_number: info.flight_number,
        date: info.date,
        price,
        origin: flight.origin,
        destination: flight.destination,
      });
      totalPrice += price * travellers;
    }
    totalPrice -= reservation.flights.reduce((sum, f) => sum + f.price, 0) * travellers;

    const payment = paymentForUpdate(user, args.payment_id, totalPrice);
    if (payment) reservation.payment_history.push(payment);
    reservation.flights = newFlights;
    reservation.cabin = args.cabin;
    // Like tau2, seat counts of the flights are not updated here.
    return { reservation_id: args.reservation_id, charged: totalPrice };
  },
};

/** tau2's `update_reservation_passengers` (write tool). */
export const updateReservationPassengers: ToolDefinition<{
  reservation_id: string;
  passengers: Passenger[];
}> = {
  name: 'update_reservation_passengers',
  aliases: ['UpdateReservationPassengersTool'],
  kind: 'write',
  description:
    'Replace the passenger details of a reservation. The number of passengers cannot change.',
  parameters: toolParameters({
    reservation_id: reservationIdParam,
    passengers: arrayParam(passengerItem, 'Every passenger of the reservation, in the new form.'),
  }),
  execute: ({ reservation_id, passengers }, context) => {
    const reservation = getReservation(sessionDb<AirlineDb>(context), reservation_id);
    if (passengers.length !== reservation.passengers.length) {
      throw new ToolError('Number of passengers does not match');
    }
    reservation.passengers = passengersOf(passengers);
    return { reservation_id };
  },
};

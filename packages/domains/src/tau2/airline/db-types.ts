/**
 * The tau2 airline database as parsed JSON (`tau2_airline/db/`: flights,
 * reservations, users). Optional pydantic fields are absent unless set.
 *
 * @module
 */
import type { Tau2PaymentMethod, Tau2UserProfile } from '../common/db-types.js';

/** Cabin classes. */
export const CABIN_CLASSES = ['business', 'economy', 'basic_economy'] as const;
/** A cabin class. */
export type CabinClass = (typeof CABIN_CLASSES)[number];

/** One dated instance of a flight; only `available` ones carry seats and prices. */
export type FlightDateStatus = {
  status: 'available' | 'landed' | 'cancelled' | 'delayed' | 'flying' | 'on time';
  available_seats?: Record<string, number>;
  prices?: Record<string, number>;
  [field: string]: unknown;
};

/** A scheduled flight with its dated instances. */
export type Flight = {
  flight_number: string;
  origin: string;
  destination: string;
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDateStatus>;
};

/** A passenger of a reservation or a saved passenger. */
export type Passenger = { first_name: string; last_name: string; dob: string };

/** A payment line of a reservation (amounts are integral dollars). */
export type Payment = { payment_id: string; amount: number };

/** A payment method of a user's profile. */
export type PaymentMethod = Tau2PaymentMethod<'credit_card' | 'gift_card' | 'certificate'> & {
  /** Gift card balance or certificate value. */
  amount?: number;
};

/** A customer profile. */
export type User = Tau2UserProfile<PaymentMethod> & {
  address: Record<string, unknown>;
  dob: string;
  saved_passengers: Passenger[];
  membership: string;
  reservations: string[];
};

/** One flight of a reservation, with the fare paid. */
export type ReservationFlight = {
  flight_number: string;
  origin: string;
  destination: string;
  date: string;
  price: number;
};

/** A reservation. */
export type Reservation = {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: string;
  cabin: string;
  flights: ReservationFlight[];
  passengers: Passenger[];
  payment_history: Payment[];
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: string;
  status?: 'cancelled' | null;
};

/** The whole airline db. */
export type AirlineDb = {
  flights: Record<string, Flight>;
  reservations: Record<string, Reservation>;
  users: Record<string, User>;
};

/**
 * The field types and enums of the eva airline parameter models (see `params.ts`).
 *
 * @module
 */
import type { FieldKind, ParamRow } from './params.js';

/** Fare classes, in eva's order (also the order `any` searches them in). */
export const FARE_CLASSES = [
  'basic_economy',
  'main_cabin',
  'premium_economy',
  'business',
  'first',
] as const;

const ENUMS = {
  fareClass: FARE_CLASSES,
  fareClassOrAny: [...FARE_CLASSES, 'any'],
  rebookingType: [
    'voluntary',
    'same_day',
    'irrops_cancellation',
    'irrops_delay',
    'irrops_schedule_change',
    'missed_flight_passenger_fault',
    'missed_connection_airline_fault',
  ],
  seatPreference: ['window', 'aisle', 'middle', 'no_preference'],
  mealType: [
    'vegetarian',
    'vegan',
    'kosher',
    'halal',
    'gluten_free',
    'diabetic',
    'low_sodium',
    'child',
    'hindu',
    'none',
    'standard',
  ],
  creditReason: [
    'cancellation_non_refundable',
    'fare_difference_negative',
    'service_recovery',
    'goodwill',
    'downgrade_compensation',
  ],
  voucherReason: [
    'delay_over_2_hours',
    'delay_over_4_hours',
    'cancellation_wait_same_day',
    'irrops_overnight',
  ],
  refundType: ['full_fare', 'partial_fare', 'taxes_only', 'ancillary_fees'],
  cancellationReason: [
    'voluntary',
    'irrops_refund',
    '24_hour_rule',
    'schedule_unacceptable',
    'medical',
    'bereavement',
  ],
} as const satisfies Record<string, readonly string[]>;

type EnumKind = Extract<FieldKind, { type: 'enum' }>;

function enumOf(values: readonly string[]): EnumKind {
  return { type: 'enum', values };
}

const FLIGHT_NUMBER = '^[A-Za-z]{2,3}\\d{1,4}$';
const PASSENGER_ID = '^PAX\\d+$';

/** The field types, by the name they go by in the models. */
export const KINDS = {
  confirmationNumber: {
    type: 'str',
    pattern: '^[A-Za-z0-9]{6}$',
    description: '6 alphanumeric characters',
  },
  flightNumber: {
    type: 'str',
    pattern: FLIGHT_NUMBER,
    description: '2-3 letters followed by 1-4 digits',
    examples: ['SK621'],
  },
  date: { type: 'str', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' },
  journeyId: {
    type: 'str',
    pattern: '^FL_(?:[A-Za-z]{2,3}\\d{1,4}_)+\\d{8}$',
    description: 'FL_<flight>_<YYYYMMDD>',
    examples: ['FL_SK621_20260320'],
  },
  passengerId: {
    type: 'str',
    pattern: PASSENGER_ID,
    description: 'PAX<digits>',
    examples: ['PAX001'],
  },
  passengerIds: { type: 'str-list', itemPattern: PASSENGER_ID },
  airportCode: {
    type: 'str',
    pattern: '^[A-Za-z]{3}$',
    description: '3-letter airport code',
    examples: ['JFK'],
  },
  text: { type: 'str' },
  bool: { type: 'bool' },
  /** `Optional[FlightNumber] = None`: the pattern without the description. */
  optionalFlightNumber: { type: 'str', pattern: FLIGHT_NUMBER },
  fareClass: enumOf(ENUMS.fareClass),
  fareClassOrAny: enumOf(ENUMS.fareClassOrAny),
  rebookingType: enumOf(ENUMS.rebookingType),
  seatPreference: enumOf(ENUMS.seatPreference),
  mealType: enumOf(ENUMS.mealType),
  creditReason: enumOf(ENUMS.creditReason),
  voucherReason: enumOf(ENUMS.voucherReason),
  refundType: enumOf(ENUMS.refundType),
  cancellationReason: enumOf(ENUMS.cancellationReason),
} satisfies Record<string, FieldKind>;

/** The `confirmation_number` of a reservation, with the description the model sees. */
export function confirmationNumberParam(description: string): ParamRow {
  return ['confirmation_number', KINDS.confirmationNumber, description];
}

/** Parameters several tools take, with the same description. */
export const PARAMS = {
  confirmationNumber: confirmationNumberParam('Booking confirmation code.'),
  passengerId: ['passenger_id', KINDS.passengerId, 'Passenger identifier (e.g., PAX001).'],
  journeyId: ['journey_id', KINDS.journeyId, 'Journey ID from get_reservation.'],
} as const satisfies Record<string, ParamRow>;

/** An enum parameter whose description lists its values: `<lead>One of: a, b, c.` */
export function oneOf(name: string, kind: EnumKind, lead = ''): ParamRow {
  return [name, kind, `${lead}One of: ${kind.values.join(', ')}.`];
}

/** The `flight_number` of a multi-segment journey: optional, the model sees `description`. */
export function optionalFlightNumber(description: string): ParamRow {
  return ['flight_number', KINDS.optionalFlightNumber, description, 'optional'];
}

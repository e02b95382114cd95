import { describe, expect, it } from 'vitest';
import type { Db } from '@scenaro/agent/scenario';
import { toolTests } from '../../test-support/tool-calls.js';
import { airlineTools } from './domain.js';

function fixture(): Db {
  const available = (seats: number, economy: number): object => ({
    status: 'available',
    available_seats: { basic_economy: seats, economy: seats, business: seats },
    prices: { basic_economy: economy - 20, economy, business: economy * 3 },
  });
  return {
    flights: {
      HAT001: {
        flight_number: 'HAT001',
        origin: 'JFK',
        destination: 'ORD',
        scheduled_departure_time_est: '06:00:00',
        scheduled_arrival_time_est: '08:00:00',
        dates: { '2024-05-20': available(10, 100), '2024-05-21': { status: 'cancelled' } },
      },
      HAT002: {
        flight_number: 'HAT002',
        origin: 'ORD',
        destination: 'SFO',
        scheduled_departure_time_est: '09:00:00',
        scheduled_arrival_time_est: '11:00:00',
        dates: { '2024-05-20': available(1, 150) },
      },
    },
    users: {
      ann_lee_1: {
        user_id: 'ann_lee_1',
        name: { first_name: 'Ann', last_name: 'Lee' },
        address: {},
        email: 'ann@example.com',
        dob: '1990-01-01',
        payment_methods: {
          credit_card_1: {
            source: 'credit_card',
            id: 'credit_card_1',
            brand: 'visa',
            last_four: '1111',
          },
          gift_card_1: { source: 'gift_card', id: 'gift_card_1', amount: 75.5 },
          certificate_1: { source: 'certificate', id: 'certificate_1', amount: 50.0 },
        },
        saved_passengers: [],
        membership: 'gold',
        reservations: ['ABC123'],
      },
    },
    reservations: {
      ABC123: {
        reservation_id: 'ABC123',
        user_id: 'ann_lee_1',
        origin: 'JFK',
        destination: 'ORD',
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [
          {
            flight_number: 'HAT001',
            origin: 'JFK',
            destination: 'ORD',
            date: '2024-05-20',
            price: 90,
          },
        ],
        passengers: [{ first_name: 'Ann', last_name: 'Lee', dob: '1990-01-01' }],
        payment_history: [{ payment_id: 'credit_card_1', amount: 90 }],
        created_at: '2024-05-01T10:00:00',
        total_baggages: 0,
        nonfree_baggages: 0,
        insurance: 'no',
      },
    },
  };
}

const { session, call, db } = toolTests(airlineTools, 'tau2_airline', fixture);

/** Ann's one-way economy trip from JFK to ORD, paid by card, with no bags and no insurance. */
const ANN_TRIP = {
  user_id: 'ann_lee_1',
  origin: 'JFK',
  destination: 'ORD',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT001', date: '2024-05-20' }],
  passengers: [{ first_name: 'Ann', last_name: 'Lee', dob: '1990-01-01' }],
  payment_methods: [{ payment_id: 'credit_card_1', amount: 100 }],
  total_baggages: 0,
  nonfree_baggages: 0,
  insurance: 'no',
};

describe('tau2 airline tools', () => {
  it('books a reservation: prices, seats, payments and the recorded result', async () => {
    const state = session();
    const out = await call(state, 'book_reservation', {
      ...ANN_TRIP,
      destination: 'SFO',
      flights: [
        { flight_number: 'HAT001', date: '2024-05-20' },
        { flight_number: 'HAT002', date: '2024-05-20' },
      ],
      payment_methods: [
        { payment_id: 'certificate_1', amount: 50 },
        { payment_id: 'gift_card_1', amount: 70 },
        { payment_id: 'credit_card_1', amount: 210 },
      ],
      total_baggages: 1,
      nonfree_baggages: 1,
      insurance: 'yes',
    });
    expect(out.ok).toBe(true);
    expect(out.result).toEqual({ reservation_id: 'HATHAT' });
    expect(out.action?.result).toEqual({ reservation_id: 'HATHAT' });
    const reservation = db(state).reservations.HATHAT;
    expect(reservation.status).toBeNull();
    expect(reservation.created_at).toBe('2024-05-15T15:00:00');
    expect(reservation.flights.map((f: { price: number }) => f.price)).toEqual([100, 150]);
    const user = db(state).users.ann_lee_1;
    expect(user.payment_methods.certificate_1).toBeUndefined();
    expect(user.payment_methods.gift_card_1.amount).toBe(5.5);
    expect(user.reservations).toEqual(['ABC123', 'HATHAT']);
    expect(db(state).flights.HAT002.dates['2024-05-20'].available_seats.economy).toBe(0);
  });

  it('refuses a booking whose payments do not add up, changing nothing', async () => {
    const state = session();
    const before = structuredClone(state.db);
    const out = await call(state, 'book_reservation', {
      ...ANN_TRIP,
      payment_methods: [{ payment_id: 'credit_card_1', amount: 99 }],
    });
    expect(out.ok).toBe(false);
    expect(out.error).toBe('Payment amount does not add up, total price is 100, but paid 99');
    expect(out.modelResult).toEqual({ error: out.error });
    expect(state.actions).toEqual([]);
    expect(state.db).toEqual(before);
  });

  it('refuses unavailable flights and full cabins with tau2 messages', async () => {
    const state = session();
    const base = {
      ...ANN_TRIP,
      passengers: [
        { first_name: 'Ann', last_name: 'Lee', dob: '1990-01-01' },
        { first_name: 'Bo', last_name: 'Lee', dob: '1991-01-01' },
      ],
      payment_methods: [{ payment_id: 'credit_card_1', amount: 1 }],
    };
    const cancelled = await call(state, 'book_reservation', {
      ...base,
      flights: [{ flight_number: 'HAT001', date: '2024-05-21' }],
    });
    expect(cancelled.error).toBe('Flight HAT001 not available on date 2024-05-21');
    const full = await call(state, 'book_reservation', {
      ...base,
      flights: [{ flight_number: 'HAT002', date: '2024-05-20' }],
    });
    expect(full.error).toBe('Not enough seats on flight HAT002');
    const missing = await call(state, 'book_reservation', {
      ...base,
      flights: [{ flight_number: 'HAT999', date: '2024-05-20' }],
    });
    expect(missing.error).toBe('Flight HAT999 not found');
  });

  it('changes flights: keeps unchanged legs, charges the difference, refuses certificates', async () => {
    const state = session();
    const toBusiness = (payment_id: string) =>
      call(state, 'update_reservation_flights', {
        reservation_id: 'ABC123',
        cabin: 'business',
        flights: [{ flight_number: 'HAT001', date: '2024-05-20' }],
        payment_id,
      });
    const refused = await toBusiness('certificate_1');
    expect(refused.error).toBe('Certificate cannot be used to update reservation');
    const out = await toBusiness('credit_card_1');
    expect(out.result).toEqual({ reservation_id: 'ABC123', charged: 210 });
    const reservation = db(state).reservations.ABC123;
    expect(reservation.cabin).toBe('business');
    expect(reservation.payment_history.at(-1)).toEqual({
      payment_id: 'credit_card_1',
      amount: 210,
    });
    // Same cabin and same leg: the stored price is kept, nothing is charged or recorded as a payment.
    const same = await toBusiness('gift_card_1');
    expect(same.result).toEqual({ reservation_id: 'ABC123', charged: 0 });
    expect(reservation.payment_history).toHaveLength(2);
  });

  it('cancels by appending refunds; baggage and passenger updates follow tau2', async () => {
    const state = session();
    expect((await call(state, 'cancel_reservation', { reservation_id: 'ABC123' })).result).toEqual({
      reservation_id: 'ABC123',
      status: 'cancelled',
    });
    expect(db(state).reservations.ABC123.payment_history).toEqual([
      { payment_id: 'credit_card_1', amount: 90 },
      { payment_id: 'credit_card_1', amount: -90 },
    ]);
    const bags = await call(state, 'update_reservation_baggages', {
      reservation_id: 'ABC123',
      total_baggages: 3,
      nonfree_baggages: 2,
      payment_id: 'credit_card_1',
    });
    expect(bags.result).toEqual({ reservation_id: 'ABC123', charged: 100 });
    expect(bags.error).toBeUndefined();
    const poor = await call(state, 'update_reservation_baggages', {
      reservation_id: 'ABC123',
      total_baggages: 5,
      nonfree_baggages: 4,
      payment_id: 'gift_card_1',
    });
    expect(poor.error).toBe('Gift card balance is not enough');
    const passengers = await call(state, 'update_reservation_passengers', {
      reservation_id: 'ABC123',
      passengers: [],
    });
    expect(passengers.error).toBe('Number of passengers does not match');
  });

  it('sends certificates with tau2 ids until they run out', async () => {
    const state = session();
    const ids: unknown[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await call(state, 'send_certificate', { user_id: 'ann_lee_1', amount: 100 })).result,
      );
    expect(ids).toEqual([
      { payment_id: 'certificate_3221322', amount: 100 },
      { payment_id: 'certificate_3221323', amount: 100 },
      { payment_id: 'certificate_3221324', amount: 100 },
    ]);
    expect((await call(state, 'send_certificate', { user_id: 'ann_lee_1', amount: 1 })).error).toBe(
      'Too many certificates',
    );
  });

  it('searches flights and reads records without exposing the live db', async () => {
    const state = session();
    const direct = await call(state, 'search_direct_flight', {
      origin: 'JFK',
      destination: 'ORD',
      date: '2024-05-20',
    });
    expect((direct.result as { flight_number: string }[]).map((f) => f.flight_number)).toEqual([
      'HAT001',
    ]);
    const onestop = await call(state, 'search_onestop_flight', {
      origin: 'JFK',
      destination: 'SFO',
      date: '2024-05-20',
    });
    expect(
      (onestop.result as { flight_number: string; date: string }[][]).map((p) =>
        p.map((f) => `${f.flight_number}@${f.date}`),
      ),
    ).toEqual([['HAT001@2024-05-20', 'HAT002@2024-05-20']]);
    const user = await call(state, 'get_user_details', { user_id: 'ann_lee_1' });
    (user.result as { email: string }).email = 'changed';
    expect(db(state).users.ann_lee_1.email).toBe('ann@example.com');
    expect(
      (await call(state, 'get_flight_status', { flight_number: 'HAT001', date: '2024-05-21' }))
        .result,
    ).toBe('cancelled');
    expect((await call(state, 'get_user_details', { user_id: 'nobody' })).error).toBe(
      'User nobody not found',
    );
    expect(state.actions).toEqual([]);
  });

  it('validates arguments against the schema and records transfers, which end the call', async () => {
    const state = session();
    const bad = await call(state, 'get_reservation_details', {
      reservation_id: 'ABC123',
      extra: 1,
    });
    expect(bad.error).toMatch(/unexpected argument 'extra'/);
    const transfer = await call(state, 'transfer_to_human_agents', { summary: 'needs a human' });
    expect(transfer.result).toEqual({ message: 'Transfer successful' });
    expect(transfer.exitReason).toBe('Transfer complete.');
    expect(state.actions).toEqual([
      {
        action_type: 'transfer_to_human_agents',
        name: 'transfer_to_human_agents',
        arguments: { summary: 'needs a human' },
        result: { message: 'Transfer successful' },
      },
    ]);
  });
});

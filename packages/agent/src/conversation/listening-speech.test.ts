// The listening agent's sentences about tool calls: read-backs and results as a person at a
// service desk says them (no tool syntax, no field names doubled, no system message read out
// with a caller's misheard value in it).
import { describe, expect, it } from 'vitest';
import { sayAction, sayResult } from './listening-speech.js';

const error = (message: string) => JSON.stringify({ error: message });

describe('the listening agent says', () => {
  it.each([
    [
      'update_reservation_flights',
      {
        reservation_id: 'M05KNL',
        cabin: 'economy',
        flights: [
          { flight_number: 'HAT110', date: '2024-05-24' },
          { flight_number: 'HAT172', date: '2024-05-24' },
        ],
        payment_id: 'gift_card_8887175',
      },
      'I will update the flights of reservation M05KNL, with cabin economy, flight 110 on May 24 and flight 172 on May 24, paid with the gift card ending in 7175.',
    ],
    [
      'update_reservation_baggages',
      {
        reservation_id: 'YAX4DR',
        total_baggages: 2,
        nonfree_baggages: 0,
        payment_id: 'credit_card_4938634',
      },
      'I will update the bags of reservation YAX4DR, with 2 free bags, paid with the credit card ending in 8634.',
    ],
    [
      'book_reservation',
      {
        user_id: 'raj_brown_5782',
        payment_methods: [
          { payment_id: 'certificate_3765853', amount: 500 },
          { payment_id: 'credit_card_2198526', amount: 44 },
        ],
        insurance: 'no',
      },
      'I will book a new reservation for user id raj brown 5782, without travel insurance, paid with the certificate ending in 5853 for $500 and the credit card ending in 8526 for $44.',
    ],
    [
      'book_reservation',
      {
        user_id: 'mia_li_3668',
        origin: 'JFK',
        destination: 'SEA',
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [
          { flight_number: 'HAT136', date: '2024-05-20' },
          { flight_number: 'HAT039', date: '2024-05-20' },
        ],
        passengers: [{ first_name: 'Mia', last_name: 'Li', dob: '1990-04-05' }],
        payment_methods: [{ payment_id: 'credit_card_4421486', amount: 5 }],
        total_baggages: 3,
        nonfree_baggages: 1,
        insurance: 'yes',
      },
      'I will book a one way trip from New York JFK to Seattle, in economy, with flight 136 on May 20 and flight 039 on May 20, passenger Mia Li born 1990-04-05, 2 free bags and 1 paid bag, with travel insurance, paid with the credit card ending in 1486 for $5.',
    ],
    [
      'update_reservation_baggages',
      {
        reservation_id: 'YAX4DR',
        total_baggages: 1,
        nonfree_baggages: 1,
        payment_id: 'gift_card_1',
      },
      'I will update the bags of reservation YAX4DR, with 1 paid bag, paid with gift card 1.',
    ],
    [
      'update_reservation_baggages',
      { reservation_id: 'YAX4DR', total_baggages: 0, nonfree_baggages: 0 },
      'I will update the bags of reservation YAX4DR, with no bags.',
    ],
    [
      'update_reservation_baggages',
      { reservation_id: 'YAX4DR', total_baggages: 2 },
      'I will update the bags of reservation YAX4DR, with 2 bags.',
    ],
    [
      'book_reservation',
      { user_id: 'u_1', origin: 'XYZ', destination: 'ATL', round: true },
      'I will book a trip from XYZ to Atlanta, with round yes.',
    ],
    ['cancel_reservation', { reservation_id: 'EHGLP3' }, 'I will cancel reservation EHGLP3.'],
  ])('%s as a read-back', (name, args, sentence) => {
    expect(sayAction(name, args)).toBe(sentence);
  });

  it.each([
    [
      'update_reservation_flights',
      '{"reservation_id": "M05KNL"}',
      'Okay, I have updated the flights of the reservation.',
    ],
    ['cancel_reservation', '{}', 'Okay, I have cancelled the reservation.'],
    ['book_reservation', '{}', 'Okay, I have created the reservation.'],
    [
      'get_reservation_details',
      JSON.stringify({
        reservation_id: 'EHGLP3',
        origin: 'DEN',
        destination: 'BOS',
        flight_type: 'round_trip',
        cabin: 'basic_economy',
        status: 'cancelled',
      }),
      'Your reservation is a round trip from Denver to Boston, in basic economy, status cancelled.',
    ],
    [
      'get_user_details',
      JSON.stringify({ user_id: 'ivan_rossi_1', name: { first_name: 'Ivan', last_name: 'Rossi' } }),
      'I have your account, Ivan Rossi.',
    ],
    [
      'get_order_details',
      JSON.stringify({ order_id: '#W123', status: 'delivered' }),
      'I have the order details: status delivered, order number #W123.',
    ],
    ['send_certificate', '"Certificate sent"', 'Okay, I have sent the certificate.'],
    ['transfer_to_human_agents', '"Transfer successful"', 'I am transferring you now.'],
    ['calculate', '1200.0', 'That comes to 1200.'],
    [
      'get_user_details',
      error('User rdj_sdnchez_7340 not found'),
      "I'm sorry, I could not find an account with that user id.",
    ],
    [
      'get_reservation_details',
      error('Reservation ZZZ999 not found'),
      "I'm sorry, I could not find a reservation with that number.",
    ],
    [
      'book_reservation',
      error('Payment method not found'),
      "I'm sorry, the system says: Payment method not found.",
    ],
    [
      'cancel_reservation',
      error('Cannot cancel a flown flight'),
      "I'm sorry, the system says: Cannot cancel a flown flight.",
    ],
  ])('%s: %s', (name, content, sentence) => {
    expect(sayResult(name, content)).toBe(sentence);
  });
});

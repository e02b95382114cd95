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
      'I will update the flights of reservation M05KNL, with cabin economy, flight 110 on 2024-05-24 and flight 172 on 2024-05-24, paid with the gift card ending in 7175.',
    ],
    [
      'update_reservation_baggages',
      {
        reservation_id: 'YAX4DR',
        total_baggages: 2,
        nonfree_baggages: 0,
        payment_id: 'credit_card_4938634',
      },
      'I will update the bags of reservation YAX4DR, with total bags 2, non-free bags 0, paid with the credit card ending in 8634.',
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
      'I will book a new reservation for user id raj brown 5782, with paid with the certificate ending in 5853 for $500 and the credit card ending in 8526 for $44, insurance no.',
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
    ['book_reservation', '{}', 'Okay, I have booked the reservation.'],
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

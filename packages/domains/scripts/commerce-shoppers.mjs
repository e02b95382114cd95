/** The shoppers of the commerce domain (addresses, payment methods) and their order history. */

/** An address in the US: id, label, two lines (the second may be null), city, state and zip. */
const usAddress = (id, label, line1, line2, city, state, zip) => ({
  id,
  label,
  line1,
  line2,
  city,
  state,
  zip,
  country: 'US',
});

export const USERS = [
  {
    id: 'u_001',
    name: 'Maya Chen',
    email: 'maya.chen@example.com',
    phone: '+1-206-555-0142',
    addresses: [
      usAddress('addr_001_home', 'home', '1420 Pine Street', 'Apt 5B', 'Seattle', 'WA', '98101'),
      usAddress('addr_001_work', 'work', '400 Westlake Ave N', 'Floor 3', 'Seattle', 'WA', '98109'),
    ],
    payment_methods: [
      { id: 'card_001_visa', type: 'card', brand: 'visa', last4: '4242', expiry: '08/27' },
      { id: 'gift_001', type: 'gift_card', balance: 75 },
      { id: 'paypal_001', type: 'paypal', email: 'maya.chen@example.com' },
    ],
  },
  {
    id: 'u_002',
    name: 'James Okafor',
    email: 'james.okafor@example.com',
    phone: '+1-312-555-0177',
    addresses: [
      usAddress('addr_002_home', 'home', '2211 N Halsted St', null, 'Chicago', 'IL', '60614'),
    ],
    payment_methods: [
      { id: 'card_002_mc', type: 'card', brand: 'mastercard', last4: '5100', expiry: '11/26' },
      { id: 'gift_002', type: 'gift_card', balance: 20 },
    ],
  },
  {
    id: 'u_003',
    name: 'Sofia Rossi',
    email: 'sofia.rossi@example.com',
    phone: '+1-917-555-0108',
    addresses: [
      usAddress('addr_003_home', 'home', '88 Bedford Street', 'Apt 2', 'New York', 'NY', '10014'),
      usAddress(
        'addr_003_parents',
        "parents' house",
        '17 Orchard Lane',
        null,
        'Montclair',
        'NJ',
        '07042',
      ),
    ],
    payment_methods: [
      { id: 'paypal_003', type: 'paypal', email: 'sofia.r@example.com' },
      { id: 'card_003_amex', type: 'card', brand: 'amex', last4: '1005', expiry: '02/28' },
    ],
  },
  {
    id: 'u_004',
    name: 'Liam Murphy',
    email: 'liam.murphy@example.com',
    phone: '+1-617-555-0199',
    addresses: [
      usAddress('addr_004_home', 'home', '35 Beacon Hill Rd', null, 'Boston', 'MA', '02108'),
    ],
    payment_methods: [
      { id: 'gift_004', type: 'gift_card', balance: 250 },
      { id: 'card_004_visa', type: 'card', brand: 'visa', last4: '9876', expiry: '05/29' },
    ],
  },
  {
    id: 'u_005',
    name: 'Aisha Rahman',
    email: 'aisha.rahman@example.com',
    phone: '+1-512-555-0163',
    addresses: [
      usAddress('addr_005_home', 'home', '902 E 6th Street', 'Unit 12', 'Austin', 'TX', '78702'),
    ],
    payment_methods: [
      { id: 'card_005_visa', type: 'card', brand: 'visa', last4: '3344', expiry: '12/27' },
      { id: 'paypal_005', type: 'paypal', email: 'aisha.rahman@example.com' },
      { id: 'gift_005', type: 'gift_card', balance: 0 },
    ],
  },
  {
    id: 'u_006',
    name: 'Noah Schmidt',
    email: 'noah.schmidt@example.com',
    phone: '+1-303-555-0121',
    addresses: [
      usAddress('addr_006_home', 'home', '1550 Larimer St', 'Apt 804', 'Denver', 'CO', '80202'),
      usAddress(
        'addr_006_cabin',
        'cabin',
        '12 Aspen Ridge Rd',
        null,
        'Breckenridge',
        'CO',
        '80424',
      ),
    ],
    payment_methods: [
      { id: 'card_006_mc', type: 'card', brand: 'mastercard', last4: '7781', expiry: '03/27' },
    ],
  },
];

/** [user, status, payment method, days before "now"]: the order history, oldest first. */
export const ORDER_PLAN = [
  ['u_001', 'delivered', 'card_001_visa', 140],
  ['u_003', 'delivered', 'paypal_003', 128],
  ['u_002', 'delivered', 'card_002_mc', 117],
  ['u_005', 'cancelled', 'card_005_visa', 109],
  ['u_004', 'delivered', 'card_004_visa', 96],
  ['u_006', 'delivered', 'card_006_mc', 88],
  ['u_001', 'delivered', 'paypal_001', 71],
  ['u_003', 'cancelled', 'card_003_amex', 64],
  ['u_005', 'delivered', 'paypal_005', 52],
  ['u_002', 'delivered', 'card_002_mc', 41],
  ['u_004', 'delivered', 'gift_004', 33],
  ['u_006', 'shipped', 'card_006_mc', 12],
  ['u_001', 'shipped', 'card_001_visa', 9],
  ['u_003', 'shipped', 'paypal_003', 7],
  ['u_005', 'shipped', 'card_005_visa', 6],
  ['u_002', 'processing', 'card_002_mc', 4],
  ['u_004', 'processing', 'gift_004', 3],
  ['u_001', 'processing', 'gift_001', 3],
  ['u_006', 'processing', 'card_006_mc', 2],
  ['u_003', 'pending', 'card_003_amex', 1],
  ['u_005', 'pending', 'paypal_005', 1],
  ['u_004', 'pending', 'card_004_visa', 1],
  ['u_001', 'pending', 'card_001_visa', 0],
  ['u_002', 'cancelled', 'card_002_mc', 0],
];

/**
 * Twenty short user turns in the style of tau2's airline conversations, the
 * corpus the voice tests and the voice benchmark speak (with Flite) to the
 * bot and score its recognizer on.
 */
export const SPOKEN_USER_TURNS: readonly string[] = [
  'Hi, I would like to cancel my reservation.',
  'I am calling about my trip to Chicago.',
  'I booked the flight last week for a family trip.',
  'Can you change my flight to next Friday?',
  'I want to fly from New York to Los Angeles.',
  'Please use the credit card on my account.',
  'I would like a window seat if possible.',
  'How much would it cost to upgrade to business class?',
  'No, I do not want travel insurance.',
  'I need to add one more checked bag.',
  'The reservation number is on my email.',
  'Yes, that is correct.',
  'Could you tell me the status of my flight?',
  'My flight was delayed by three hours.',
  'I would like to get a refund please.',
  'Thank you, that is all I need today.',
  'Can I book a flight for my daughter too?',
  'She is twelve years old.',
  'Please send the confirmation to my phone.',
  'I want the cheapest economy option.',
];

/**
 * Airports as a travel agent names them on the phone: by their city, with the airport's own
 * name where a city has several ("New York LaGuardia"). Letters such as "A, T, L" are what a
 * caller mishears most; city names are what both sides say. A code not in the table is said as
 * it is written (the speech normalizer spells it).
 *
 * @module
 */

/** The spoken name of each airport code the agent may read out. */
const AIRPORT_NAMES: ReadonlyMap<string, string> = new Map([
  ['ATL', 'Atlanta'],
  ['BOS', 'Boston'],
  ['CLT', 'Charlotte'],
  ['DEN', 'Denver'],
  ['DFW', 'Dallas Fort Worth'],
  ['DTW', 'Detroit'],
  ['EWR', 'Newark'],
  ['IAH', 'Houston'],
  ['JFK', 'New York JFK'],
  ['LAS', 'Las Vegas'],
  ['LAX', 'Los Angeles'],
  ['LGA', 'New York LaGuardia'],
  ['MCO', 'Orlando'],
  ['MIA', 'Miami'],
  ['MSP', 'Minneapolis'],
  ['ORD', "Chicago O'Hare"],
  ['PHL', 'Philadelphia'],
  ['PHX', 'Phoenix'],
  ['SEA', 'Seattle'],
  ['SFO', 'San Francisco'],
]);

/** An airport as said aloud: `"ATL"` -> "Atlanta"; an unknown code stays as written. */
export function airportName(code: string): string {
  return AIRPORT_NAMES.get(code.toUpperCase()) ?? code;
}

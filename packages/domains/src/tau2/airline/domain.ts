/**
 * The tau2-bench airline domain: registry module and scenario loader.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent/scenario';
import type { EvalDomain } from '../../scenario.js';
import { createCalculateTool, createTransferTool } from '../common/generic-tools.js';
import { tau2EvalDomain } from '../common/scenario-loader.js';
import {
  getFlightStatus,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
} from './read-tools.js';
import {
  bookReservation,
  cancelReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from './write-tools.js';

/** Registry namespace and scenario-name prefix. */
export const TAU2_AIRLINE = 'tau2_airline';

/** Every tool of the airline agent: tau2's fourteen. */
export const airlineTools: readonly ToolDefinition[] = [
  bookReservation,
  createCalculateTool(),
  cancelReservation,
  getReservationDetails,
  getUserDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
  sendCertificate,
  createTransferTool({ message: 'Transfer successful' }),
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
  getFlightStatus,
];

/** The airline registry module. */
export const airlineModule: DomainModule = { name: TAU2_AIRLINE, tools: airlineTools };

/** tau2-bench airline: 50 voice tasks of the base split, scored by db hash and a clean exit. */
export const tau2Airline: EvalDomain = tau2EvalDomain(airlineModule, {
  source: 'tau2-bench airline',
  stateSignal: 'db_state_match',
  // Judged by the db hash; like the reference harness, its NL assertions are not carried.
  nlAssertions: false,
});

/**
 * The tau2-bench airline domain: registry module and scenario loader.
 *
 * @module
 */
import type { DomainModule, ToolDefinition } from '@scenaro/agent';
import type { EvalDomain, Scenario } from '../../scenario.js';
import {
  createCalculateTool,
  createTransferTool,
  END_CONVERSATION_TOOL,
} from '../common/generic-tools.js';
import { agentPrompt, userPrompt } from '../common/prompts.js';
import {
  loadVoiceBaseTasks,
  readDataText,
  taskToScenario,
  toolMap,
} from '../common/task-loader.js';
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
] as readonly ToolDefinition[];

/** The airline registry module. */
export const airlineModule: DomainModule = { name: TAU2_AIRLINE, tools: airlineTools };

async function loadAirlineScenarios(dataRoot: string): Promise<Scenario[]> {
  const [tasks, policy] = await Promise.all([
    loadVoiceBaseTasks(dataRoot, TAU2_AIRLINE),
    readDataText(dataRoot, TAU2_AIRLINE, 'policy.md'),
  ]);
  const prompt = agentPrompt(policy);
  // The agent also gets the `end_conversation` control tool every bot registers.
  const tools = toolMap([...airlineTools.map((t) => t.name), END_CONVERSATION_TOOL]);
  return tasks.map((task) =>
    taskToScenario(task, {
      name: (t) => `${TAU2_AIRLINE}__${t.id}`,
      domain: TAU2_AIRLINE,
      source: 'tau2-bench airline',
      // Airline is judged by the db hash; like the reference harness, its NL assertions are not carried.
      includeNlAssertions: false,
      successSignals: () => ['db_state_match', 'clean_exit'],
      agent: () => ({
        prompt,
        tools: structuredClone(tools),
        toolDomain: TAU2_AIRLINE,
        sharedStateInit: { db_path: `${TAU2_AIRLINE}/db.json` },
      }),
      user: (_t, instructions) => ({
        prompt: userPrompt(instructions),
        tools: {},
        toolDomain: TAU2_AIRLINE,
        sharedStateInit: {},
      }),
    }),
  );
}

/** tau2-bench airline: 50 voice tasks of the base split, scored by db hash and a clean exit. */
export const tau2Airline: EvalDomain = {
  name: TAU2_AIRLINE,
  module: airlineModule,
  loadScenarios: loadAirlineScenarios,
};

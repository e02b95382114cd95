/**
 * The domains a `scenaro` bot serves and the evaluation harness runs by default.
 *
 * @module
 */
import { commerceEvalDomain } from './commerce/eval-domain.js';
import type { EvalDomain } from './scenario.js';
import { tau2Airline } from './tau2/airline/domain.js';
import { tau2Retail } from './tau2/retail/domain.js';
import { tau2Telecom, tau2TelecomWorkflow } from './tau2/telecom/domain.js';

/**
 * Every built-in eval domain by name, in registration order: `commerce`, `tau2_airline`,
 * `tau2_retail`, `tau2_telecom`, `tau2_telecom_workflow` (the last two share one module; see
 * `registerEvalDomains`). A new map on every call.
 */
export function builtInDomains(): Map<string, EvalDomain> {
  const list = [commerceEvalDomain, tau2Airline, tau2Retail, tau2Telecom, tau2TelecomWorkflow];
  return new Map(list.map((domain) => [domain.name, domain]));
}

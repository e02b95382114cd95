/**
 * The domains a `scenaro` bot serves and the evaluation harness runs by default.
 *
 * @module
 */
import { commerceEvalDomain } from './commerce/eval-domain.js';
import { nemoDefaultSuites } from './nemo/default-suites.js';
import { evaAirline } from './nemo/eva-airline/domain.js';
import type { EvalDomain } from './scenario.js';
import { tau2Airline } from './tau2/airline/domain.js';
import { tau2Retail } from './tau2/retail/domain.js';
import {
  createTau2TelecomDomains,
  tau2Telecom,
  tau2TelecomWorkflow,
} from './tau2/telecom/domain.js';
import type { Tau2TelecomOptions } from './tau2/telecom/domain.js';

/** Options of {@link builtInDomains}. */
export interface BuiltInDomainsOptions {
  /** The telecom domains' options (their clock). @default tau2's fixed date */
  telecom?: Tau2TelecomOptions;
}

/**
 * Every built-in eval domain by name, in registration order: `commerce`, `tau2_airline`,
 * `tau2_retail`, `tau2_telecom`, `tau2_telecom_workflow` (these two share one module; see
 * `registerEvalDomains`), then NeMo's suites: `eva_airline`,
 * `restaurant`, `fastbite`, `customer_service`, `qa`, `simple_qa` (these five share one module). A new map on every call; with `telecom` options, the two telecom
 * domains are built for this call.
 */
export function builtInDomains(options: BuiltInDomainsOptions = {}): Map<string, EvalDomain> {
  const telecom = options.telecom
    ? createTau2TelecomDomains(options.telecom)
    : { telecom: tau2Telecom, workflow: tau2TelecomWorkflow };
  const list = [
    commerceEvalDomain,
    tau2Airline,
    tau2Retail,
    telecom.telecom,
    telecom.workflow,
    evaAirline,
    ...nemoDefaultSuites,
  ];
  return new Map(list.map((domain) => [domain.name, domain]));
}

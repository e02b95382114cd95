/**
 * What a scorer is given for one scenario, and how it finds the db-state predicates of the
 * scenario's domain.
 *
 * @module
 */
import type { DbStatePredicate, DomainRegistry } from '@scenaro/agent/scenario';
import type { Scenario, Side } from '@scenaro/domains';
import type { ScenarioRun } from '../bridge/types.js';
import type { Judge } from './judge.js';
import type { ActionMatchOptions } from './match.js';

/** Finds the db-state predicate an assertion names (`DomainRegistry.predicate` for the scenario's domain). */
export type PredicateLookup = (side: Side, funcName: string) => DbStatePredicate | undefined;

/** A {@link PredicateLookup} over a registry: the scenario domain's predicates, for either side. */
export function registryPredicates(registry: DomainRegistry, domain: string): PredicateLookup {
  return (_side, funcName) => registry.predicate(domain, funcName);
}

/** What a scorer is given for one scenario. */
export interface ScoreInput {
  scenario: Scenario;
  run: ScenarioRun;
  /**
   * Expected end-state dbs (gold replay): the left side of the db diff, and the expected hash
   * (their `getDictHash`) when no hash is given and the scenario publishes none.
   */
  expectedDb?: unknown;
  expectedUserDb?: unknown;
  /**
   * Expected hashes. Precedence: these, then the scenario's published hashes, then the hash of
   * `expectedDb` / `expectedUserDb`. A db whose hash disagrees with the hash used is reported in
   * `scoring_warnings` (its diff may then not explain the mismatch).
   */
  expectedDbHash?: string | null;
  expectedUserDbHash?: string | null;
  /** End-state dbs re-requested with `include_db` when the run's summaries carry none. */
  actualDb?: unknown;
  actualUserDb?: unknown;
  predicates: PredicateLookup;
  /** The LLM judge; off when absent. */
  judge?: Judge;
  /** Call the judge for every scenario, not only those that need it or have NL assertions. @default false */
  judgeAll?: boolean;
  /** Stall rule: fewer agent LLM calls than this force a failure (0 disables). Default 3 (NeMo), 0 (tau2). */
  minAgentTurns?: number;
  /** `--strict-match`: top-level lengths must agree in the action match. @default false */
  strictMatch?: boolean;
  /** String options of the action match (the scenario fields of the reference). */
  matchOptions?: Omit<ActionMatchOptions, 'disallowExtraItems'> & { disallowExtraItems?: boolean };
  /** The reference answer, when it is not `{"actions": scenario.referenceActions}` (e.g. a flat order dict). */
  referenceAnswer?: unknown;
  /** Where the scenario's files go (`scenario_directory`). */
  scenarioDirectory?: string;
  /** Trial number (pass^k). @default 1 */
  trial?: number;
  /** Wall-clock seconds of the whole scenario, when the runner measured it; else the run's. */
  scenarioDurationSeconds?: number;
  /** Aborts a judge call. */
  signal?: AbortSignal;
}

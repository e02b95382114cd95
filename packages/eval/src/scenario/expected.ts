/**
 * Expected end states of a scenario, computed by gold replay (fresh states,
 * initialization, the gold actions through the same tool code the bots use).
 */
import { DomainRegistry, registerControlTools } from '@scenaro/agent/scenario';
import type { DbCache, Db } from '@scenaro/agent/scenario';
import type { EvalDomain, Scenario } from '@scenaro/domains';
import { replayScenario } from '../replay/replay.js';

/** What a correct agent leaves behind. */
export interface ExpectedState {
  dbHash: string | null;
  userDbHash: string | null;
  db?: Db;
  userDb?: Db;
  /** Problems of the replay itself (a broken scenario, not a failing agent). */
  errors: string[];
  /** The actions gold replay recorded (write tools only), as the reference answer records them. */
  recordedActions: unknown[];
}

const registries = new WeakMap<object, DomainRegistry>();

/** One registry per domain module (control tools included), shared by replay and scoring. */
export function registryFor(domain: EvalDomain): DomainRegistry {
  let registry = registries.get(domain.module);
  if (!registry) {
    registry = registerControlTools(new DomainRegistry().register(domain.module));
    registries.set(domain.module, registry);
  }
  return registry;
}

/** Replay the gold actions of `scenario`; published expected hashes win when the scenario has them. */
export async function computeExpected(
  scenario: Scenario,
  domain: EvalDomain,
  source: { dataRoot: string; dbCache: DbCache; extraRoots?: readonly string[] },
): Promise<ExpectedState> {
  const replay = await replayScenario(scenario, {
    registry: registryFor(domain),
    dataSource: {
      dataRoot: source.dataRoot,
      cache: source.dbCache,
      ...(source.extraRoots ? { extraRoots: source.extraRoots } : {}),
    },
    domain,
    includeDb: true,
  });
  const expected: ExpectedState = {
    dbHash: scenario.expectedDbHash ?? replay.db_hash,
    userDbHash: scenario.expectedUserDbHash ?? replay.user_db_hash,
    errors: replay.errors,
    recordedActions: replay.actions,
  };
  if (replay.agentDb) expected.db = replay.agentDb;
  if (replay.userDb) expected.userDb = replay.userDb;
  return expected;
}

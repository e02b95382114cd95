/**
 * Gold replay of a domain's scenarios with its own tools, reported one line per scenario
 * (db hashes and errors) as a table or as JSON lines.
 */
import * as path from 'node:path';
import { DbCache, DomainRegistry, registerControlTools } from '@scenaro/agent/scenario';
import * as domains from '@scenaro/domains';
import type { EvalDomain } from '@scenaro/domains';
import { replayDomain } from '@scenaro/eval';
import type { ReplayResult } from '@scenaro/eval';

/** Options of one replay run. */
export interface ReplayRunOptions {
  domain: string;
  scenarios?: string[];
  dataRoot: string;
  json?: boolean;
  /** Telecom clock override (`YYYY-MM-DD`). */
  today?: string;
}

function resolveDomain(name: string, today: string | undefined): EvalDomain {
  if (
    today !== undefined &&
    (name === domains.TAU2_TELECOM || name === domains.TAU2_TELECOM_WORKFLOW)
  ) {
    const telecom = domains.createTau2TelecomDomains({ today });
    return name === domains.TAU2_TELECOM ? telecom.telecom : telecom.workflow;
  }
  const all = domains.builtInDomains();
  const domain = all.get(name);
  if (!domain)
    throw new Error(`unknown domain '${name}'; known: ${[...all.keys()].sort().join(', ')}`);
  return domain;
}

function short(hash: string | null): string {
  return hash === null ? '-' : hash.slice(0, 16);
}

/**
 * Replay the selected scenarios, writing one line per scenario (JSON lines
 * with `json`, else a table and a summary) through `write`. Returns the
 * results; the caller decides the exit code.
 */
export async function runReplay(
  options: ReplayRunOptions,
  write: (line: string) => void,
): Promise<ReplayResult[]> {
  const domain = resolveDomain(options.domain, options.today);
  const registry = registerControlTools(new DomainRegistry().register(domain.module));
  const started = performance.now();
  if (!options.json) {
    write(`${'scenario'.padEnd(72)} ${'db_hash'.padEnd(16)} ${'user_db_hash'.padEnd(16)} errors`);
  }
  const results = await replayDomain(domain, {
    registry,
    dataRoot: path.resolve(options.dataRoot),
    cache: new DbCache(),
    ...(options.scenarios && options.scenarios.length > 0 ? { scenarios: options.scenarios } : {}),
    onResult: (r) => {
      if (options.json) {
        write(
          JSON.stringify({
            scenario: r.scenario,
            db_hash: r.db_hash,
            user_db_hash: r.user_db_hash,
            errors: r.errors,
          }),
        );
        return;
      }
      write(
        `${r.scenario.padEnd(72)} ${short(r.db_hash).padEnd(16)} ${short(r.user_db_hash).padEnd(16)} ${r.errors.length}`,
      );
      for (const e of r.errors) write(`    error: ${e}`);
      for (const w of r.warnings) write(`    note: ${w}`);
    },
  });
  if (!options.json) {
    const failed = results.filter((r) => r.errors.length > 0).length;
    const refused = results.reduce((n, r) => n + r.warnings.length, 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    write(
      `${results.length} scenarios replayed in ${seconds} s, ${failed} with errors ` +
        `(${refused} gold actions refused by the tools, as in tau2)`,
    );
  }
  return results;
}

/**
 * Registering eval domains into a bot's registry, and the data roots they ship. Domains may
 * share a module (the two telecom variants do); each module is registered once.
 *
 * @module
 */
import type { DomainModule, DomainRegistry } from '@scenaro/agent/scenario';
import type { EvalDomain } from './scenario.js';

/**
 * Register the module of every domain into `registry`, each distinct module object once (both
 * telecom variants carry the same module). Returns the registry.
 */
export function registerEvalDomains(
  registry: DomainRegistry,
  domains: Iterable<EvalDomain>,
): DomainRegistry {
  const seen = new Set<DomainModule>();
  for (const domain of domains) {
    if (seen.has(domain.module)) continue;
    seen.add(domain.module);
    registry.register(domain.module);
  }
  return registry;
}

/** The data roots `domains` ship their own data in (`EvalDomain.dataRoot`), each once, in order. */
export function domainDataRoots(domains: Iterable<EvalDomain>): string[] {
  const roots = new Set<string>();
  for (const domain of domains) if (domain.dataRoot) roots.add(domain.dataRoot);
  return [...roots];
}

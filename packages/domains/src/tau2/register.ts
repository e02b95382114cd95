/**
 * Registering eval domains whose modules may be shared (the telecom
 * variants share one module).
 *
 * @module
 */
import type { DomainModule, DomainRegistry } from '@scenaro/agent';
import type { EvalDomain } from '../scenario.js';

/**
 * Register the module of every domain into `registry`, each distinct module
 * object once (both telecom variants carry the same module). Returns the
 * registry.
 */
export function registerEvalDomains(
  registry: DomainRegistry,
  domains: readonly EvalDomain[],
): DomainRegistry {
  const seen = new Set<DomainModule>();
  for (const domain of domains) {
    if (seen.has(domain.module)) continue;
    seen.add(domain.module);
    registry.register(domain.module);
  }
  return registry;
}

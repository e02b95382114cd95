/**
 * The domains a `scenaro` bot serves by default.
 */
import type { DomainRegistry } from '@scenaro/agent';
import * as domains from '@scenaro/domains';

/** Register every built-in domain module into `registry`. */
export function registerBuiltInDomains(registry: DomainRegistry): DomainRegistry {
  const candidates = Object.values(domains as Record<string, unknown>);
  for (const candidate of candidates) {
    if (isEvalDomain(candidate)) registry.register(candidate.module);
  }
  return registry;
}

function isEvalDomain(value: unknown): value is domains.EvalDomain {
  return (
    value !== null &&
    typeof value === 'object' &&
    'module' in value &&
    'loadScenarios' in value &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}

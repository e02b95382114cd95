/**
 * The domains a `scenaro` bot serves by default.
 */
import type { DomainRegistry } from '@scenaro/agent';
import * as domains from '@scenaro/domains';

/** Every built-in evaluation domain exported by `@scenaro/domains`. */
export function builtInEvalDomains(): domains.EvalDomain[] {
  return Object.values(domains as Record<string, unknown>).filter(isEvalDomain);
}

/** Register every built-in domain module into `registry` (a module shared by two domains, once). */
export function registerBuiltInDomains(registry: DomainRegistry): DomainRegistry {
  const seen = new Set<object>();
  for (const domain of builtInEvalDomains()) {
    if (seen.has(domain.module)) continue;
    seen.add(domain.module);
    registry.register(domain.module);
  }
  return registry;
}

/** Data roots the built-in domains ship (searched after `--data-root`). */
export function builtInDataRoots(): string[] {
  return [...new Set(builtInEvalDomains().flatMap((d) => (d.dataRoot ? [d.dataRoot] : [])))];
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

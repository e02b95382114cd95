/**
 * The built-in evaluation domains, found among the exports of `@scenaro/domains`.
 */
import * as domains from '@scenaro/domains';
import { registerEvalDomains } from '@scenaro/domains';
import type { EvalDomain } from '@scenaro/domains';
import type { DomainRegistry } from '@scenaro/agent';

function isEvalDomain(value: unknown): value is EvalDomain {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { loadScenarios?: unknown }).loadScenarios === 'function' &&
    typeof (value as { module?: unknown }).module === 'object'
  );
}

/** Every built-in domain, by scenario-name prefix. */
export function builtInDomains(): Map<string, EvalDomain> {
  const found = new Map<string, EvalDomain>();
  for (const value of Object.values(domains as Record<string, unknown>)) {
    if (isEvalDomain(value) && !found.has(value.name)) found.set(value.name, value);
  }
  return found;
}

/** Register the registry modules of `domains` (each module once, even when two domains share one). */
export function registerDomains(
  registry: DomainRegistry,
  list: Iterable<EvalDomain>,
): DomainRegistry {
  return registerEvalDomains(registry, [...list]);
}

/**
 * The domains a `scenaro` bot serves by default.
 */
import type { DomainRegistry } from '@scenaro/agent';
import { builtInDomains, registerDomains } from '@scenaro/eval';

/** Register every built-in domain module into `registry` (a module shared by two domains, once). */
export function registerBuiltInDomains(registry: DomainRegistry): DomainRegistry {
  return registerDomains(registry, builtInDomains().values());
}

/** Data roots the built-in domains ship (searched after `--data-root`). */
export function builtInDataRoots(): string[] {
  return [
    ...new Set([...builtInDomains().values()].flatMap((d) => (d.dataRoot ? [d.dataRoot] : []))),
  ];
}

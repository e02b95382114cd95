/**
 * Registries by domain: tools, initialization functions, db-state predicates and
 * sync appliers. A server owns one registry; whoever starts the server registers
 * the domains it wants (the server never imports a domain).
 */
import { DEFAULT_DOMAIN } from '@scenaro/sdk/protocol';
import type {
  DbStatePredicate,
  DomainModule,
  InitializationFunction,
  SyncApplier,
  ToolDefinition,
} from './types.js';

/** Registering a second entry under a taken name. */
export class DuplicateRegistrationError extends Error {
  override readonly name = 'DuplicateRegistrationError';
}

class Buckets<T> {
  private readonly byDomain = new Map<string, Map<string, T>>();
  constructor(private readonly what: string) {}

  add(domain: string, name: string, value: T): void {
    let bucket = this.byDomain.get(domain);
    if (!bucket) {
      bucket = new Map();
      this.byDomain.set(domain, bucket);
    }
    if (bucket.has(name)) {
      throw new DuplicateRegistrationError(
        `${this.what} '${name}' is already registered under domain='${domain}'`,
      );
    }
    bucket.set(name, value);
  }

  get(domain: string, name: string): T | undefined {
    return this.byDomain.get(domain)?.get(name);
  }

  names(domain: string): string[] {
    return [...(this.byDomain.get(domain)?.keys() ?? [])].sort();
  }

  domains(): string[] {
    return [...this.byDomain.keys()].sort();
  }
}

/** The registries one server (or one replay) works with. */
export class DomainRegistry {
  private readonly tools = new Buckets<ToolDefinition>('tool');
  private readonly toolAliases = new Buckets<ToolDefinition>('tool alias');
  private readonly initFunctions = new Buckets<InitializationFunction>('initialization function');
  private readonly predicates = new Buckets<DbStatePredicate>('db-state predicate');
  private readonly syncAppliers = new Map<string, SyncApplier>();

  /** Register everything a domain module provides. */
  register(module: DomainModule): this {
    for (const tool of module.tools ?? []) this.registerTool(module.name, tool);
    for (const [name, fn] of Object.entries(module.initializationFunctions ?? {})) {
      this.registerInitializationFunction(module.name, name, fn);
    }
    for (const [name, fn] of Object.entries(module.predicates ?? {})) {
      this.registerDbStatePredicate(module.name, name, fn);
    }
    if (module.syncApplier) this.registerSyncApplier(module.name, module.syncApplier);
    return this;
  }

  registerTool(domain: string, tool: ToolDefinition): void {
    this.tools.add(domain, tool.name, tool);
    for (const alias of tool.aliases ?? []) this.toolAliases.add(domain, alias, tool);
  }

  registerInitializationFunction(domain: string, name: string, fn: InitializationFunction): void {
    this.initFunctions.add(domain, name, fn);
  }

  registerDbStatePredicate(domain: string, name: string, fn: DbStatePredicate): void {
    this.predicates.add(domain, name, fn);
  }

  registerSyncApplier(domain: string, applier: SyncApplier): void {
    if (this.syncAppliers.has(domain)) {
      throw new DuplicateRegistrationError(
        `a sync applier is already registered for domain='${domain}'`,
      );
    }
    this.syncAppliers.set(domain, applier);
  }

  /**
   * Find a tool by name or alias in `domain`, falling back to `default`.
   * Returns the tool and the domain it was found in.
   */
  findTool(domain: string, name: string): { tool: ToolDefinition; domain: string } | undefined {
    for (const d of domain === DEFAULT_DOMAIN ? [domain] : [domain, DEFAULT_DOMAIN]) {
      const tool = this.tools.get(d, name) ?? this.toolAliases.get(d, name);
      if (tool) return { tool, domain: d };
    }
    return undefined;
  }

  /** Every tool of a domain (without the `default` fallbacks). */
  toolsOf(domain: string): ToolDefinition[] {
    return this.tools.names(domain).map((name) => this.tools.get(domain, name) as ToolDefinition);
  }

  /** Names of the tools a lookup in `domain` can find (domain first, then `default`). */
  availableToolNames(domain: string): string[] {
    const names = new Set(this.tools.names(domain));
    if (domain !== DEFAULT_DOMAIN) for (const n of this.tools.names(DEFAULT_DOMAIN)) names.add(n);
    return [...names].sort();
  }

  initializationFunction(domain: string, name: string): InitializationFunction | undefined {
    return this.initFunctions.get(domain, name);
  }

  initializationFunctionNames(domain: string): string[] {
    return this.initFunctions.names(domain);
  }

  predicate(domain: string, name: string): DbStatePredicate | undefined {
    return this.predicates.get(domain, name);
  }

  predicateNames(domain: string): string[] {
    return this.predicates.names(domain);
  }

  /** The domain's sync applier, if it registered one. */
  syncApplier(domain: string): SyncApplier | undefined {
    return this.syncAppliers.get(domain);
  }

  /** Domains with at least one tool. */
  domains(): string[] {
    return this.tools.domains();
  }
}

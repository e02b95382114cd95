export * from './scenario.js';
export * from './tau2/index.js';
export * from './commerce/index.js';
export * from './nemo/index.js';
export { builtInDomains } from './built-in-domains.js';
export type { BuiltInDomainsOptions } from './built-in-domains.js';
export { domainDataRoots, registerEvalDomains } from './register.js';

export * from './scenario.js';
export * from './tau2/index.js';
export * from './commerce/index.js';

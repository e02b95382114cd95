/**
 * Scoring: the NeMo composite and tau2-style scorers, the LLM judge, run aggregates and the
 * `all_summary.txt` text.
 *
 * @module
 */
export * from './types.js';
export * from './match.js';
export * from './judge.js';
export * from './signals.js';
export * from './nemo.js';
export * from './tau2.js';
export * from './aggregate.js';
export * from './score.js';

/**
 * Scoring: the NeMo composite and tau2-style scorers, the LLM judge, scoring one bridged run, run
 * statistics and aggregates, and the run's scoring files (`all_summary.txt` text included).
 *
 * @module
 */
export * from './types.js';
export * from './match.js';
export * from './judge.js';
export * from './signals.js';
export * from './nemo.js';
export * from './tau2.js';
export * from './statistics.js';
export * from './aggregate.js';
export * from './summary.js';
export * from './score.js';
export * from './run-files.js';
export * from './audio-metrics.js';
export * from './attribution.js';

/**
 * Scoring: the NeMo composite and tau2-style scorers, the LLM judge, scoring one bridged run, run
 * statistics and aggregates, and the `all_summary.txt` text. Scoring imports nothing from the
 * runner, the result files or the report.
 *
 * @module
 */
export * from './types.js';
export * from './match.js';
export * from './judge.js';
export * from './score-input.js';
export * from './signals.js';
export { evaluateAssertion } from './db-signals.js';
export { judgeDependentSignals } from './judge-signals.js';
export * from './nemo.js';
export * from './tau2.js';
export * from './statistics.js';
export * from './aggregate.js';
export * from './summary.js';
export * from './score.js';
export * from './audio-metrics.js';
export * from './audio-aggregate.js';
export * from './attribution.js';

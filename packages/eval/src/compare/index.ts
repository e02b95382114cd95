/**
 * Comparing runs and reporting to CI: `compareRuns` pairs two run folders' scenarios and says
 * whether B moved beyond noise; JUnit XML for a run or a comparison.
 *
 * @module
 */
export { loadRun, CompareError } from './load.js';
export type { LoadedRun } from './load.js';
export { compareRuns, COMPARED_METRICS, failureCause } from './compare.js';
export type {
  ComparedMetric,
  CompareOptions,
  MetricDelta,
  Outcome,
  RunComparison,
  ScenarioComparison,
  Verdict,
} from './compare.js';
export { comparisonLines, renderComparison, verdictText } from './render.js';
export { compareJunit, runJunit, signalMessage } from './junit.js';
export { exactMcNemar, noiseFloor, pairedBootstrap } from './stats.js';
export type { BootstrapInterval, NoiseFloor } from './stats.js';

/**
 * The self-contained HTML report of a run.
 *
 * @module
 */
export { renderReport } from './html.js';
export type { ReportInput } from './html.js';
export { escapeHtml } from './format.js';
export { histogramBins } from './charts.js';

/**
 * The self-contained HTML report of a run.
 *
 * @module
 */
export * from './html.js';

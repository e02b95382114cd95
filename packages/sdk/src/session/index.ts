/**
 * The frontend tool session and its parts: collections, UI activity tracker,
 * composer dictation, feature state.
 */
export * from './types.js';
export * from './scenaro-session.js';
export * from './collections.js';
export * from './activity-tracker.js';
export * from './composer.js';
export * from './feature-store.js';
export { createArgsValidator } from './args-validator.js';
export type { ArgsValidator, ArgsValidation, ArgsIssue } from './args-validator.js';
export { answerDeadlineMs } from './tool-call.js';
export { Emitter } from './emitter.js';
export type { Listener } from './emitter.js';

/**
 * `@scenaro/sdk/util`: small helpers every package of the workspace uses. No I/O and no Node
 * built-ins.
 */
export * from './json-object.js';
export * from './error-message.js';
export * from './edit-distance.js';
export * from './seeded-random.js';

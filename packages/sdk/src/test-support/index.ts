/**
 * `@scenaro/sdk/testing`: test fixtures shared by the workspace's test suites. Read from source
 * (the `@scenaro/source` condition); not part of the built package.
 */
export * from './fake-timers.js';
export * from './recording-logger.js';

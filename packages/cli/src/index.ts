export { createProgram } from './program.js';
export { serve } from './start-server.js';
export type { ServeOptions } from './start-server.js';
export { hashPath } from './hash-path.js';

export { createProgram } from './program.js';
export { serve } from './commands/serve.js';
export { hashPath } from './commands/hash.js';

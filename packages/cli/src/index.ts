export { createProgram } from './program.js';
export { serve } from './commands/serve.js';
export { hashPath } from './commands/hash.js';
export { registerBuiltInDomains } from './domains.js';
export { DEMO_STATIC_DIR, startDemo } from './commands/demo.js';
export type { DemoOptions, DemoRuntimeOptions, DemoServer } from './commands/demo.js';

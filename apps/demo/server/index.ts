/**
 * `@scenaro/demo/server`: the server side of the demo storefront (what `scenaro demo` runs).
 *
 * @module
 */
export { startDemo, SHOP_ASSISTANT } from './start-demo.js';
export type { DemoAssistant, DemoOptions, DemoServer } from './start-demo.js';
export { demoPageDir, PAGE_DIR_IN_PACKAGE } from './page-dir.js';
export { DEMO_SHOPPER_ID } from './store.js';
export { DEMO_METHODS } from '../shared/demo-protocol.js';
export type { DemoAnswer, DemoConfig, DemoVoice } from '../shared/demo-protocol.js';

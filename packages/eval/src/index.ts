export {};
export * from './replay/index.js';

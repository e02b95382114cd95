/**
 * `@scenaro/agent/db`: loading a db from disk and its `get_dict_hash` digest, without the bot
 * server. A small entry point for tools that only hash (the `scenaro hash` command loads this
 * alone, so it starts quickly).
 */
export { getDictHash, getTau2DbHash } from './scenario/db-hash.js';
export { loadDbArtifact } from './scenario/db-loader.js';

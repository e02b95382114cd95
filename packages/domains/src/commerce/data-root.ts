/**
 * The commerce domain's name, and where its shipped data lives.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';

/** Registry namespace, scenario-name prefix and data-root folder of the commerce domain. */
export const COMMERCE_DOMAIN = 'commerce';

/**
 * Absolute path of the data root shipped with `@scenaro/domains` (the package's `data/`
 * folder, which holds `commerce/db.json`, `commerce/policy.md` and `commerce/scenarios/`).
 *
 * Commerce scenarios seed the agent with `{"db_path": "commerce/db.json"}`, which a bot
 * resolves inside *its* data root. A bot serving commerce must therefore run with this data
 * root, or with one that contains a copy of (or a link to) this `commerce/` folder.
 *
 * Computed from this module's URL: `src/commerce/` and `dist/commerce/` are both two levels
 * below the package root, so it is right from the sources and from the build.
 */
export const COMMERCE_DATA_ROOT: string = fileURLToPath(new URL('../../data', import.meta.url));

/** The agent-side `db_path` of every commerce scenario, relative to the data root. */
export const COMMERCE_DB_PATH = `${COMMERCE_DOMAIN}/db.json`;

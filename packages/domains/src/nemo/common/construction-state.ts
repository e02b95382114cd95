/**
 * Shared state NeMo's tools create when they are built. NeMo builds a scenario's tools in the
 * key order of its tools JSON and each does `shared_state.setdefault(key, <its seed>)`, so the
 * first tool in that order that seeds a key decides its value (customer_service's accounts come
 * from `LookupAccountTool`'s kwargs only because it comes first). The port seeds in the tools'
 * `onBind` hooks, which `update_system_prompt` runs in the same order; `shared_state_init`
 * values still win, as NeMo's `update()` after construction makes them.
 *
 * @module
 */
import type { JsonObject, ToolDefinition } from '@scenaro/agent/scenario';

/** The value a tool seeds a key with, from its constructor kwargs. */
export type Seeder = (options: JsonObject) => unknown;

/** `tool`, seeding `shared_state` keys when bound (`setdefault`: an earlier seed stays). */
export function seedsSharedState(
  tool: ToolDefinition,
  seeds: Readonly<Record<string, Seeder>>,
): ToolDefinition {
  return {
    ...tool,
    onBind: (shared, options) => {
      for (const [key, seed] of Object.entries(seeds)) {
        if (!Object.hasOwn(shared, key)) shared[key] = seed(options);
      }
    },
  };
}

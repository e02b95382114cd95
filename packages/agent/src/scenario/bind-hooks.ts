/**
 * What tools set up when a scenario binds them: each bound tool's `onBind` hook, in binding
 * order (the key order of the `update_system_prompt` tools JSON), so a tool bound earlier seeds
 * a shared-state key first.
 *
 * @module
 */
import type { BoundTool, JsonObject } from './types.js';

/** Run the `onBind` hooks of `tools` on `shared`, in order; a hook that throws stops them. */
export function applyBindHooks(shared: JsonObject, tools: Iterable<BoundTool>): void {
  for (const { tool, options } of tools) tool.onBind?.(shared, options);
}

/** Token usage per side, counted as the reference does: one call per token entry of `metrics`. */
import type { TokenMetric } from './bot-events.js';
import type { SideTokenUsage } from './types.js';

export function emptyTokenUsage(): SideTokenUsage {
  return { n_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, models: [] };
}

/** Add one `metrics` event's token entries to a side's usage. */
export function addTokenUsage(usage: SideTokenUsage, tokens: readonly TokenMetric[]): void {
  for (const t of tokens) {
    usage.n_calls += 1;
    usage.prompt_tokens += t.prompt_tokens ?? 0;
    usage.completion_tokens += t.completion_tokens ?? 0;
    usage.total_tokens += t.total_tokens ?? 0;
    if (t.model && !usage.models.includes(t.model)) usage.models.push(t.model);
  }
}

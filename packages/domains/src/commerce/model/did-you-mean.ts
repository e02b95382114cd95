/**
 * "Did you mean" hints for misspelled names in scenario files.
 *
 * @module
 */
import { editDistance } from '@scenaro/sdk/util';

/** `; did you mean 'x'?` when a known name is close to `name`. */
export function suggestion(name: string, known: readonly string[]): string {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (
      distance <= Math.max(2, Math.floor(candidate.length / 4)) &&
      (!best || distance < best.distance)
    ) {
      best = { name: candidate, distance };
    }
  }
  return best ? `; did you mean '${best.name}'?` : '';
}

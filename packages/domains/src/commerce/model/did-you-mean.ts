/**
 * "Did you mean" hints for misspelled names in scenario files.
 *
 * @module
 */

/** Levenshtein distance between two strings. */
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(
        above + 1,
        (row[j - 1] as number) + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

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

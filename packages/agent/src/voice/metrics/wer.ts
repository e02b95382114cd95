/**
 * Word error rate: the word-level Levenshtein distance between a reference
 * and a hypothesis, divided by the number of reference words, after both are
 * normalised (lowercase, punctuation removed, hyphens and slashes split words,
 * apostrophes kept inside words).
 */

/** The edit counts of one comparison (or a sum of several). */
export interface WordErrors {
  substitutions: number;
  deletions: number;
  insertions: number;
  /** Words in the reference. */
  referenceWords: number;
  /** (substitutions + deletions + insertions) / referenceWords (see {@link wordErrors} for an empty reference). */
  wer: number;
}

/** The words of `text`, lowercased, without punctuation. */
export function normalizeWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[-\u2010-\u2015/_]+/g, ' ')
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length > 0);
}

function rate(errors: number, referenceWords: number): number {
  if (referenceWords === 0) return errors === 0 ? 0 : 1;
  return errors / referenceWords;
}

/**
 * The word errors of `hypothesis` against `reference`. With an empty
 * reference the rate is 0 when the hypothesis is empty too, else 1.
 */
export function wordErrors(reference: string, hypothesis: string): WordErrors {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  // dp[j] = [cost, substitutions, deletions, insertions] for ref[0..i) vs hyp[0..j)
  type Cell = [number, number, number, number];
  let prev: Cell[] = hyp.map((_, j): Cell => [j, 0, 0, j]);
  prev.push([hyp.length, 0, 0, hyp.length]);
  for (let i = 1; i <= ref.length; i++) {
    const row: Cell[] = [[i, 0, i, 0]];
    for (let j = 1; j <= hyp.length; j++) {
      const diag = prev[j - 1]!;
      const up = prev[j]!;
      const left = row[j - 1]!;
      const same = ref[i - 1] === hyp[j - 1];
      let best: Cell = same
        ? [diag[0], diag[1], diag[2], diag[3]]
        : [diag[0] + 1, diag[1] + 1, diag[2], diag[3]];
      if (up[0] + 1 < best[0]) best = [up[0] + 1, up[1], up[2] + 1, up[3]];
      if (left[0] + 1 < best[0]) best = [left[0] + 1, left[1], left[2], left[3] + 1];
      row.push(best);
    }
    prev = row;
  }
  const [cost, substitutions, deletions, insertions] = prev[hyp.length]!;
  return {
    substitutions,
    deletions,
    insertions,
    referenceWords: ref.length,
    wer: rate(cost, ref.length),
  };
}

/** The pooled word errors of several (reference, hypothesis) pairs: total edits over total reference words. */
export function corpusWordErrors(
  pairs: ReadonlyArray<{ reference: string; hypothesis: string }>,
): WordErrors {
  let substitutions = 0;
  let deletions = 0;
  let insertions = 0;
  let referenceWords = 0;
  for (const { reference, hypothesis } of pairs) {
    const e = wordErrors(reference, hypothesis);
    substitutions += e.substitutions;
    deletions += e.deletions;
    insertions += e.insertions;
    referenceWords += e.referenceWords;
  }
  return {
    substitutions,
    deletions,
    insertions,
    referenceWords,
    wer: rate(substitutions + deletions + insertions, referenceWords),
  };
}

/** The word error rate of `hypothesis` against `reference` (see {@link wordErrors}). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  return wordErrors(reference, hypothesis).wer;
}

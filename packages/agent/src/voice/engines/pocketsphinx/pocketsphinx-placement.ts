/**
 * Where a segment PocketSphinx printed lies in the session's stream.
 *
 * The adapter keeps its own time base for each recognizer process: `base`,
 * the session sample its first audio was, and `fed`, the samples written to
 * it since. PocketSphinx stamps its words in seconds of its own input, and
 * those stamps are usually right, so a word at `t` is at `base + t × rate`.
 * But they are not trustworthy: after a long leading silence it has stamped a
 * first utterance some 15 s late, which put its words outside the caller's
 * utterance, and they were lost. So a segment is checked against what the
 * adapter knows for sure before its stamps are used:
 *
 * - a recognizer cannot have heard audio it has not been given: a segment
 *   ending after the `fed` samples is stamped late;
 * - a segment leaving a second or more of words outside every utterance
 *   while an ended utterance still waits for its final is stamped off too.
 *
 * Such a segment is moved as a whole (its words keep their spacing: the
 * error is an offset) onto the earliest utterance waiting for its final that
 * is long enough to hold it, centred on it (the caller's VAD pads speech on
 * both sides); one ending past `fed` with no such utterance is moved back to
 * end where the audio fed ends. A segment that passes both checks, or fits no
 * utterance, keeps its stamps. Each segment is checked on its own, so a
 * recognizer that stamps one utterance wrong does not shift the next.
 */
import type { RecognizedSegment } from './pocketsphinx-output.js';
import type { TrackedUtterance } from '../../utterance-session.js';

/** What the adapter knows when a segment arrives, in samples of the session's stream. */
export interface PlacementContext {
  /** Session sample of the recognizer's first input sample. */
  base: number;
  /** Samples written to the recognizer so far. */
  fed: number;
  /** Samples per second. */
  rate: number;
  /** How far outside an utterance a word may lie and still belong to it (samples). */
  margin: number;
  /** Utterances that may still receive words, in stream order. */
  utterances: readonly TrackedUtterance[];
  /** Of those, the ended ones whose final waits, in stream order. */
  awaiting: readonly TrackedUtterance[];
}

/** A segment ending this far past the samples fed is stamped late (frame rounding is less). */
const FED_SLACK_SECONDS = 0.1;
/** Speech left outside every utterance that marks a segment as stamped off (seconds). */
const STRANDED_SECONDS = 1;

/** Session sample of `seconds` in the recognizer's stamps. */
function stamped(seconds: number, context: PlacementContext): number {
  return context.base + Math.round(seconds * context.rate);
}

/** The utterance `sample` belongs to (within the margin, nearest first), if any. */
export function utteranceAt(
  sample: number,
  utterances: readonly TrackedUtterance[],
  margin: number,
): TrackedUtterance | undefined {
  let best: { utterance: TrackedUtterance; distance: number } | undefined;
  for (const utterance of utterances) {
    const end = utterance.endSample ?? Number.POSITIVE_INFINITY;
    const distance =
      sample < utterance.startSample ? utterance.startSample - sample : Math.max(0, sample - end);
    if (distance <= margin && (!best || distance < best.distance)) best = { utterance, distance };
  }
  return best?.utterance;
}

/** Seconds of the segment's words that belong to no utterance at `offset`. */
function strandedSeconds(
  segment: RecognizedSegment,
  context: PlacementContext,
  offset: number,
): number {
  let stranded = 0;
  for (const word of segment.words) {
    const mid = stamped((word.start + word.end) / 2, context) + offset;
    if (!utteranceAt(mid, context.utterances, context.margin)) stranded += word.end - word.start;
  }
  return stranded;
}

/**
 * Samples to add to the stamped times of `segment`'s words and end (0 when
 * its stamps are consistent with what was fed and heard).
 */
export function placeSegment(segment: RecognizedSegment, context: PlacementContext): number {
  const fedEnd = context.base + context.fed;
  const late = stamped(segment.end, context) > fedEnd + FED_SLACK_SECONDS * context.rate;
  const first = segment.words[0];
  const last = segment.words[segment.words.length - 1];
  if (!first || !last) return late ? fedEnd - stamped(segment.end, context) : 0;
  const off =
    late ||
    (context.awaiting.length > 0 && strandedSeconds(segment, context, 0) >= STRANDED_SECONDS);
  if (!off) return 0;
  const span = Math.round((last.end - first.start) * context.rate);
  const target = context.awaiting.find(
    (u) => span <= (u.endSample ?? u.startSample) - u.startSample + 2 * context.margin,
  );
  if (target) {
    const centre = (target.startSample + (target.endSample ?? target.startSample)) / 2;
    return Math.round(centre - stamped((first.start + last.end) / 2, context));
  }
  return late ? fedEnd - stamped(segment.end, context) : 0;
}

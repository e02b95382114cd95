/**
 * What audio mode measures in one scenario, as `metrics.json` stores it under `audio`: the
 * speech segments (who spoke when, what was said, what the other bot heard) with the word error
 * rate of each, the word error rate of each side's speech to text over the scenario (a bot's
 * heard text against the other side's spoken text), raw and after both texts are put in one
 * canonical spoken form, the entity accuracy of each side (values said and heard as said), the
 * clarification turns, barge-ins (agent turns that started before the user's speech ended) and
 * the bots' times to first byte per processor.
 */
import { corpusWordErrors, normalizedWordErrors, wordErrors } from '@scenaro/agent/voice';
import type { AudioRecord, BotRole, SpeechSegment } from '../bridge/types.js';
import { entityAccuracySide } from './audio-entities.js';
import { clarificationTurns } from './clarifications.js';
import { latencyStats } from './signals.js';
import type { AudioMetrics, AudioSegmentMetrics, StoredWordErrors } from './types.js';

export type { AudioMetrics, AudioSegmentMetrics, StoredWordErrors } from './types.js';
export { CLARIFICATION_PHRASES, clarificationKind, clarificationTurns } from './clarifications.js';
export { entityAccuracySide } from './audio-entities.js';

/** File name of the stereo recording. */
export const CONVERSATION_WAV = 'conversation_log.wav';

function stored(errors: ReturnType<typeof wordErrors>): StoredWordErrors {
  return {
    wer: errors.wer,
    substitutions: errors.substitutions,
    deletions: errors.deletions,
    insertions: errors.insertions,
    reference_words: errors.referenceWords,
  };
}

function segmentMetrics(s: SpeechSegment): AudioSegmentMetrics {
  return {
    role: s.role,
    start: s.start,
    end: s.end,
    said: s.said,
    heard: s.heard,
    ...(s.latencyMs !== undefined ? { latency_ms: s.latencyMs } : {}),
    ...(s.interrupted ? { interrupted: true } : {}),
    wer: wordErrors(s.said, s.heard).wer,
  };
}

type SaidHeard = Pick<SpeechSegment, 'role' | 'said' | 'heard'>;

/** The word errors of what `listener` heard, over the other side's segments. */
function sideErrors(segments: readonly SaidHeard[], listener: BotRole): StoredWordErrors {
  const speaker: BotRole = listener === 'agent' ? 'user' : 'agent';
  return stored(
    corpusWordErrors(
      segments
        .filter((s) => s.role === speaker)
        .map((s) => ({ reference: s.said, hypothesis: s.heard })),
    ),
  );
}

/** {@link sideErrors} with both texts in their canonical spoken form, pooled the same way. */
function normalizedSideErrors(segments: readonly SaidHeard[], listener: BotRole): StoredWordErrors {
  const speaker: BotRole = listener === 'agent' ? 'user' : 'agent';
  const sum = { substitutions: 0, deletions: 0, insertions: 0, referenceWords: 0, wer: 0 };
  for (const s of segments.filter((x) => x.role === speaker)) {
    const e = normalizedWordErrors(s.said, s.heard);
    sum.substitutions += e.substitutions;
    sum.deletions += e.deletions;
    sum.insertions += e.insertions;
    sum.referenceWords += e.referenceWords;
  }
  const errors = sum.substitutions + sum.deletions + sum.insertions;
  sum.wer = sum.referenceWords === 0 ? (errors === 0 ? 0 : 1) : errors / sum.referenceWords;
  return stored(sum);
}

/** The figures read from the said and heard texts alone (also for results stored without them). */
export type SpeechFigures = Pick<
  AudioMetrics,
  'normalized_wer' | 'entity_accuracy' | 'clarifications'
>;

/** Normalized word errors, entity accuracy and clarification turns of a scenario's segments. */
export function speechFigures(segments: readonly AudioSegmentMetrics[]): SpeechFigures {
  return {
    normalized_wer: {
      agent_stt: normalizedSideErrors(segments, 'agent'),
      user_stt: normalizedSideErrors(segments, 'user'),
    },
    entity_accuracy: {
      agent_stt: entityAccuracySide(segments, 'user'),
      user_stt: entityAccuracySide(segments, 'agent'),
    },
    clarifications: clarificationTurns(segments),
  };
}

/** The audio metrics of a recorded scenario. */
export function audioMetrics(record: AudioRecord): AudioMetrics {
  const ttfb = (side: BotRole) =>
    Object.fromEntries(
      Object.entries(record.ttfb[side]).map(([processor, values]) => [
        processor,
        latencyStats(values.map((v) => v * 1000)),
      ]),
    );
  const segments = record.segments.map(segmentMetrics);
  return {
    clock: record.clock,
    wav: CONVERSATION_WAV,
    audio_seconds: (record.agentToUser.length * 256) / record.sampleRate,
    segments,
    barge_ins: record.segments.filter((s) => s.latencyMs !== undefined && s.latencyMs < 0).length,
    wer: {
      agent_stt: sideErrors(record.segments, 'agent'),
      user_stt: sideErrors(record.segments, 'user'),
    },
    ...speechFigures(segments),
    ttfb: { agent: ttfb('agent'), user: ttfb('user') },
  };
}

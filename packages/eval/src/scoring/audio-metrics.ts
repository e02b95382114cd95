/**
 * What audio mode measures in one scenario, as `metrics.json` stores it under `audio`: the
 * speech segments (who spoke when, what was said, what the other bot heard) with the word error
 * rate of each, the word error rate of each side's speech to text over the scenario (a bot's
 * heard text against the other side's spoken text), barge-ins (agent turns that started before
 * the user's speech ended) and the bots' times to first byte per processor.
 */
import { corpusWordErrors, wordErrors } from '@scenaro/agent';
import type { AudioRecord, BotRole, SpeechSegment } from '../bridge/types.js';
import { latencyStats } from './signals.js';
import type { AudioMetrics, AudioSegmentMetrics, StoredWordErrors } from './types.js';

export type { AudioMetrics, AudioSegmentMetrics, StoredWordErrors } from './types.js';

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

/** The word errors of what `listener` heard, over the other side's segments. */
function sideErrors(segments: readonly SpeechSegment[], listener: BotRole): StoredWordErrors {
  const speaker: BotRole = listener === 'agent' ? 'user' : 'agent';
  return stored(
    corpusWordErrors(
      segments
        .filter((s) => s.role === speaker)
        .map((s) => ({ reference: s.said, hypothesis: s.heard })),
    ),
  );
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
  return {
    clock: record.clock,
    wav: CONVERSATION_WAV,
    audio_seconds: (record.agentToUser.length * 256) / record.sampleRate,
    segments: record.segments.map(segmentMetrics),
    barge_ins: record.segments.filter((s) => s.latencyMs !== undefined && s.latencyMs < 0).length,
    wer: {
      agent_stt: sideErrors(record.segments, 'agent'),
      user_stt: sideErrors(record.segments, 'user'),
    },
    ttfb: { agent: ttfb('agent'), user: ttfb('user') },
  };
}

/**
 * Run-level audio numbers: entity accuracy and word error rates pooled over the audio-mode
 * scenarios of a run (values and words summed, not rates averaged), clarification turns, and the
 * failures that trace to a misheard entity.
 *
 * @module
 */
import { speechFigures } from './audio-metrics.js';
import type { AudioMetrics, ScenarioMetrics, StoredWordErrors } from './types.js';

/** Entity accuracy pooled over scenarios. */
export interface PooledEntityAccuracy {
  said: number;
  heard_right: number;
  /** `heard_right / said`; null when no value was said. */
  accuracy: number | null;
}

/** Word errors pooled over scenarios. */
export interface PooledWordErrors {
  /** Edits over reference words; null when there were no reference words. */
  wer: number | null;
  errors: number;
  reference_words: number;
}

/** `RunAggregate.audio`: the audio-mode numbers of a run. */
export interface AudioAggregate {
  /** Results that ran in audio mode. */
  scenarios: number;
  /** `agent_stt`: values the user said, as the agent heard them; `user_stt`: the reverse. */
  entity_accuracy: { agent_stt: PooledEntityAccuracy; user_stt: PooledEntityAccuracy };
  clarifications: {
    total: number;
    agent: number;
    user: number;
    /** Mean clarification turns per audio scenario. */
    per_scenario: number;
  };
  /** Word error rates of each side's speech to text, raw and normalized (canonical spoken form). */
  wer: { agent_stt: PooledWordErrors; user_stt: PooledWordErrors };
  normalized_wer: { agent_stt: PooledWordErrors; user_stt: PooledWordErrors };
  barge_ins: number;
  /** Failed scenarios whose `failure_attribution` class is `mishearing`. */
  misheard_failures: number;
}

/** The audio metrics of a result, when it ran in audio mode. */
export function audioOf(m: Pick<ScenarioMetrics, 'audio'>): AudioMetrics | undefined {
  const audio = m.audio;
  return audio && Array.isArray(audio.segments) ? audio : undefined;
}

/**
 * Audio metrics read back from a `metrics.json`, with the figures read from the said and heard
 * texts (normalized WER, entity accuracy, clarifications) computed when it was written without.
 */
export function completeAudio(audio: AudioMetrics): AudioMetrics {
  const partial = audio as Partial<AudioMetrics>;
  if (partial.normalized_wer && partial.entity_accuracy && partial.clarifications) return audio;
  return { ...audio, ...speechFigures(audio.segments) };
}

function pooled(list: readonly StoredWordErrors[]): PooledWordErrors {
  let errors = 0;
  let words = 0;
  for (const w of list) {
    errors += w.substitutions + w.deletions + w.insertions;
    words += w.reference_words;
  }
  return { wer: words === 0 ? null : errors / words, errors, reference_words: words };
}

function pooledAccuracy(list: readonly PooledEntityAccuracy[]): PooledEntityAccuracy {
  const said = list.reduce((n, a) => n + a.said, 0);
  const right = list.reduce((n, a) => n + a.heard_right, 0);
  return { said, heard_right: right, accuracy: said === 0 ? null : right / said };
}

/** The audio numbers of a run; undefined when no result ran in audio mode. */
export function audioAggregate(metrics: readonly ScenarioMetrics[]): AudioAggregate | undefined {
  const runs = metrics.flatMap((m) => {
    const audio = audioOf(m);
    return audio ? [{ m, audio: completeAudio(audio) }] : [];
  });
  if (runs.length === 0) return undefined;
  const audios = runs.map((r) => r.audio);
  const side = <T>(pick: (a: AudioMetrics, side: 'agent_stt' | 'user_stt') => T) => ({
    agent_stt: audios.map((a) => pick(a, 'agent_stt')),
    user_stt: audios.map((a) => pick(a, 'user_stt')),
  });
  const wer = side((a, s) => a.wer[s]);
  const normalized = side((a, s) => a.normalized_wer[s]);
  const entities = side((a, s) => a.entity_accuracy[s]);
  const sum = (pick: (a: AudioMetrics) => number) => audios.reduce((n, a) => n + pick(a), 0);
  const total = sum((a) => a.clarifications.total);
  return {
    scenarios: runs.length,
    entity_accuracy: {
      agent_stt: pooledAccuracy(entities.agent_stt),
      user_stt: pooledAccuracy(entities.user_stt),
    },
    clarifications: {
      total,
      agent: sum((a) => a.clarifications.agent),
      user: sum((a) => a.clarifications.user),
      per_scenario: total / runs.length,
    },
    wer: { agent_stt: pooled(wer.agent_stt), user_stt: pooled(wer.user_stt) },
    normalized_wer: {
      agent_stt: pooled(normalized.agent_stt),
      user_stt: pooled(normalized.user_stt),
    },
    barge_ins: sum((a) => a.barge_ins),
    misheard_failures: runs.filter((r) => r.m.failure_attribution?.class === 'mishearing').length,
  };
}

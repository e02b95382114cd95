/**
 * The timeline of what the caller effects did: one event per injected sound and per effect, so
 * metrics read what happened instead of guessing it from the audio. Times are seconds on the
 * processed stream (what the agent hears), from its first sample; an event still going on when
 * the stream finishes ends there.
 */

/** Details of each kind of event. */
export interface CallerEventDetails {
  /** The looped background sound, for the whole stream. */
  background_noise: { sound: string; snrDb: number; driftDb: number; speed: number };
  /** A one-shot sound from the caller's surroundings. */
  noise_burst: { sound: string; snrDb: number };
  /** Consecutive lost frames (silence). */
  frame_drop: { frames: number; frameMs: number };
  /** The caller's voice low-passed (the times include the fades). */
  muffled_segment: { cutoffHz: number; transitionMs: number; segmentMs: number };
  /** A phrase said to someone else in the room: quieter and muffled. */
  non_directed_phrase: {
    text: string;
    gainDb: number;
    cutoffHz: number;
    /** Spoken by the synthesizer or read from the bank, or wordless murmur. */
    rendering: 'speech' | 'murmur';
    /** Stopped early because the caller started talking. */
    cut: boolean;
  };
  /** A cough, sneeze or sniffle (several, as the tic's tags say). */
  vocal_tic: { text: string; sounds: string[]; cut: boolean };
  /** The 8 kHz mu-law telephone channel, for the whole stream. */
  telephony: {
    codec: 'G.711 mu-law';
    sampleRate: number;
    bandHz: [number, number];
    delayMs: number;
  };
}

export type CallerEventKind = keyof CallerEventDetails;

/** One event of the timeline. */
export type CallerEvent = {
  [K in CallerEventKind]: {
    kind: K;
    /** Seconds on the processed stream. */
    start: number;
    end: number;
    detail: CallerEventDetails[K];
  };
}[CallerEventKind];

/** The events of one kind. */
export function eventsOf<K extends CallerEventKind>(
  events: readonly CallerEvent[],
  kind: K,
): Extract<CallerEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<CallerEvent, { kind: K }> => event.kind === kind);
}

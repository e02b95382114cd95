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

export type CallerEffectEventKind = keyof CallerEventDetails;

/** One event of the timeline. */
export type CallerEffectEvent = {
  [K in CallerEffectEventKind]: {
    kind: K;
    /** Seconds on the processed stream. */
    start: number;
    end: number;
    detail: CallerEventDetails[K];
  };
}[CallerEffectEventKind];

/** The events of one kind. */
export function eventsOf<K extends CallerEffectEventKind>(
  events: readonly CallerEffectEvent[],
  kind: K,
): Extract<CallerEffectEvent, { kind: K }>[] {
  return events.filter(
    (event): event is Extract<CallerEffectEvent, { kind: K }> => event.kind === kind,
  );
}

interface Queued {
  event: CallerEffectEvent;
  endSample: number;
  seq: number;
}

/**
 * Events waiting for the output to reach their end. They are released in order of their end
 * (then of their creation), so the sequence of released events does not depend on where the
 * chunks of a stream begin and end.
 *
 * @internal
 */
export class EventQueue {
  readonly #sampleRate: number;
  #queued: Queued[] = [];
  #seq = 0;

  constructor(sampleRate: number) {
    this.#sampleRate = sampleRate;
  }

  /** Queue an event spanning output samples [start, end). */
  add<K extends CallerEffectEventKind>(
    kind: K,
    start: number,
    end: number,
    detail: CallerEventDetails[K],
  ) {
    const rate = this.#sampleRate;
    const event = { kind, start: start / rate, end: end / rate, detail } as CallerEffectEvent;
    this.#queued.push({ event, endSample: end, seq: this.#seq++ });
  }

  /**
   * The events that end by output sample `position`; with `final`, all of them, cut to end
   * there (those starting after it are dropped).
   */
  release(position: number, final = false): CallerEffectEvent[] {
    const due = final ? this.#queued : this.#queued.filter((q) => q.endSample <= position);
    if (due.length === 0) return [];
    this.#queued = final ? [] : this.#queued.filter((q) => q.endSample > position);
    const end = position / this.#sampleRate;
    return due
      .sort((a, b) => a.endSample - b.endSample || a.seq - b.seq)
      .map((q) => q.event)
      .filter((event) => event.start < end || (event.start === 0 && end === 0))
      .map((event) => (event.end > end ? { ...event, end } : event));
  }
}

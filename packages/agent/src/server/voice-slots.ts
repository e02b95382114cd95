/**
 * How many sessions of one server may listen at once. Each listening session owns a speech
 * recognizer (PocketSphinx: a process of about 100 MB that takes a quarter of a core in real
 * time), so an unbounded count lets a crowd of clients exhaust the machine. A session takes a
 * slot when it starts listening (its first audio after the handshake, or a dictation) and gives
 * it back when it ends; a session that finds none is told and tries again on its next audio.
 */
import { availableParallelism, totalmem } from 'node:os';

/** Memory counted for one listening session (its recognizer and buffers). */
const BYTES_PER_VOICE_SESSION = 128 * 1024 * 1024;
/** Real-time listening sessions one core holds (measured: 8 on 2 cores). */
const VOICE_SESSIONS_PER_CORE = 4;

/**
 * The default cap: four sessions per core, and no more than half the machine's memory holds at
 * 128 MB each (8 on a 2-core machine with 24 GB).
 */
export function defaultMaxVoiceSessions(
  cores = availableParallelism(),
  memoryBytes = totalmem(),
): number {
  const byMemory = Math.floor(memoryBytes / 2 / BYTES_PER_VOICE_SESSION);
  return Math.max(1, Math.min(VOICE_SESSIONS_PER_CORE * cores, byMemory));
}

/** A counted set of listening places. */
export class VoiceSlots {
  readonly max: number;
  #used = 0;

  constructor(max: number = defaultMaxVoiceSessions()) {
    if (!(max >= 1) || (!Number.isInteger(max) && max !== Number.POSITIVE_INFINITY)) {
      throw new RangeError(`maxVoiceSessions must be a whole number >= 1, got ${String(max)}`);
    }
    this.max = max;
  }

  /** Slots taken. */
  get used(): number {
    return this.#used;
  }

  /** A slot, as the function that gives it back (idempotent), or undefined when all are taken. */
  take(): (() => void) | undefined {
    if (this.#used >= this.max) return undefined;
    this.#used++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.#used--;
    };
  }
}

/**
 * The bookkeeping every {@link SttSession} shares: the stream position, the
 * open utterance, listeners, and the order of finals. An adapter supplies
 * what happens to the audio and how an ended utterance becomes text.
 */
import type { SttSession, Transcript } from './stt.js';

const TAKEN: Promise<void> = Promise.resolve();

/** An utterance as a session tracks it. */
export interface TrackedUtterance {
  utterance: number;
  startSample: number;
  /** Set when the caller ends it. */
  endSample?: number;
}

/** Base of the STT sessions: subclasses implement {@link onAudio} and {@link transcribe}. */
export abstract class UtteranceSession implements SttSession {
  private written = 0;
  private count = 0;
  private open: TrackedUtterance | undefined;
  private readonly listeners = new Set<(transcript: Transcript) => void>();
  protected closed = false;

  constructor(readonly sampleRate: number) {}

  get samples(): number {
    return this.written;
  }

  /** The utterance in progress, if any. */
  protected get current(): TrackedUtterance | undefined {
    return this.open;
  }

  /**
   * Feed `pcm` (throws at once when it cannot be taken). The promise resolves when the engine
   * can take more without holding more audio for it; it never rejects.
   */
  write(pcm: Uint8Array): Promise<void> {
    if (this.closed) throw new Error('STT session closed');
    if (pcm.length % 2 !== 0) throw new RangeError('PCM16 chunks must have an even byte length');
    const at = this.written;
    this.written += pcm.length >> 1;
    return this.onAudio(pcm, at) ?? TAKEN;
  }

  startUtterance(sample = this.written): number {
    if (this.closed) throw new Error('STT session closed');
    if (this.open) void this.endUtterance(Math.max(this.open.startSample, sample)).catch(() => {});
    const utterance: TrackedUtterance = { utterance: ++this.count, startSample: sample };
    this.open = utterance;
    this.onStart(utterance);
    return utterance.utterance;
  }

  async endUtterance(sample = this.written): Promise<Transcript> {
    const utterance = this.open;
    if (!utterance) throw new Error('no utterance in progress');
    this.open = undefined;
    utterance.endSample = Math.max(sample, utterance.startSample);
    const text = await this.transcribe(utterance);
    const transcript: Transcript = {
      utterance: utterance.utterance,
      text,
      final: true,
      startSample: utterance.startSample,
      endSample: utterance.endSample,
    };
    this.emit(transcript);
    return transcript;
  }

  onTranscript(listener: (transcript: Transcript) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  abstract close(): Promise<void>;

  /** Emit an interim transcript of `utterance`. */
  protected emitInterim(utterance: TrackedUtterance, text: string): void {
    this.emit({
      utterance: utterance.utterance,
      text,
      final: false,
      startSample: utterance.startSample,
      ...(utterance.endSample === undefined ? {} : { endSample: utterance.endSample }),
    });
  }

  /**
   * `pcm` was written at stream position `atSample`; a returned promise resolves when the engine
   * can take more (and must never reject).
   */
  protected abstract onAudio(pcm: Uint8Array, atSample: number): void | Promise<void>;

  /** An utterance started (default: nothing to do). */
  protected onStart(_utterance: TrackedUtterance): void {}

  /** The final text of an ended utterance. */
  protected abstract transcribe(utterance: TrackedUtterance): Promise<string>;

  private emit(transcript: Transcript): void {
    for (const listener of this.listeners) listener(transcript);
  }
}

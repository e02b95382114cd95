/**
 * Voice activity detection: the {@link Vad} interface, and the segmenter that
 * turns per-frame speech/non-speech decisions into speech-start and
 * speech-stop events. Positions are sample counts of the fed stream, never
 * wall-clock times, so detection is the same in real time and fast.
 */
import { samplesToMs } from './pcm.js';

/** A change between silence and speech in the fed stream. */
export interface VadEvent {
  type: 'speech-start' | 'speech-stop';
  /**
   * Where the change happened, in samples from the start of the stream: the
   * first speech frame of the start window for a start, the end of the last
   * speech frame for a stop.
   */
  sample: number;
  /** Samples fed when the change was decided (`sample` plus the detection delay). */
  detectedAt: number;
}

/** A voice activity detector fed with mono PCM16 at {@link Vad.sampleRate}. */
export interface Vad {
  readonly sampleRate: number;
  /** Samples fed since the start (or the last reset). */
  readonly samples: number;
  /** True between a speech-start and the following speech-stop. */
  readonly speaking: boolean;
  /** Feed PCM16 bytes of any length; returns the events they complete, in order. */
  process(pcm: Uint8Array): VadEvent[];
  /** Forget the stream: back to silence at sample 0. */
  reset(): void;
  /** Release the detector's resources. */
  close(): void;
}

/** Timing of speech segmentation. */
export interface VadTiming {
  /** Window in which speech must dominate before speech starts (default 200 ms). */
  startMs?: number;
  /** Share of speech frames in the start window that starts speech (default 0.8). */
  startRatio?: number;
  /** Continuous non-speech that ends speech (default 800 ms; NeMo's agent uses 1200). */
  stopMs?: number;
}

export const DEFAULT_VAD_START_MS = 200;
export const DEFAULT_VAD_START_RATIO = 0.8;
export const DEFAULT_VAD_STOP_MS = 800;

/** Turns a sequence of per-frame speech decisions into {@link VadEvent}s. */
export class SpeechSegmenter {
  private readonly startFrames: number;
  private readonly startNeeded: number;
  private readonly stopFrames: number;
  private readonly window: boolean[] = [];
  private frames = 0;
  private silentRun = 0;
  private lastSpeechEnd = 0;
  private inSpeech = false;

  constructor(
    readonly frameSamples: number,
    readonly sampleRate: number,
    timing: VadTiming = {},
  ) {
    const startMs = timing.startMs ?? DEFAULT_VAD_START_MS;
    const stopMs = timing.stopMs ?? DEFAULT_VAD_STOP_MS;
    const ratio = timing.startRatio ?? DEFAULT_VAD_START_RATIO;
    if (!(startMs >= 0) || !(stopMs > 0)) {
      throw new RangeError(`VAD windows must be positive (startMs ${startMs}, stopMs ${stopMs})`);
    }
    if (!(ratio > 0 && ratio <= 1))
      throw new RangeError(`startRatio must be in (0, 1], got ${ratio}`);
    const frameMs = samplesToMs(frameSamples, sampleRate);
    this.startFrames = Math.max(1, Math.round(startMs / frameMs));
    this.startNeeded = Math.max(1, Math.ceil(this.startFrames * ratio));
    this.stopFrames = Math.max(1, Math.round(stopMs / frameMs));
  }

  /** Samples covered by the frames pushed so far. */
  get samples(): number {
    return this.frames * this.frameSamples;
  }

  get speaking(): boolean {
    return this.inSpeech;
  }

  /** The decision for the next frame; returns the event it completes, if any. */
  push(speech: boolean): VadEvent | undefined {
    const frameStart = this.frames * this.frameSamples;
    this.frames++;
    const detectedAt = this.frames * this.frameSamples;
    if (!this.inSpeech) {
      this.window.push(speech);
      if (this.window.length > this.startFrames) this.window.shift();
      const voiced = this.window.reduce((n, v) => n + (v ? 1 : 0), 0);
      if (!speech || voiced < this.startNeeded) return undefined;
      const firstVoiced = this.window.indexOf(true);
      const onset = frameStart - (this.window.length - 1 - firstVoiced) * this.frameSamples;
      this.inSpeech = true;
      this.silentRun = 0;
      this.lastSpeechEnd = detectedAt;
      this.window.length = 0;
      return { type: 'speech-start', sample: onset, detectedAt };
    }
    if (speech) {
      this.silentRun = 0;
      this.lastSpeechEnd = detectedAt;
      return undefined;
    }
    this.silentRun++;
    if (this.silentRun < this.stopFrames) return undefined;
    this.inSpeech = false;
    this.silentRun = 0;
    return { type: 'speech-stop', sample: this.lastSpeechEnd, detectedAt };
  }

  reset(): void {
    this.window.length = 0;
    this.frames = 0;
    this.silentRun = 0;
    this.lastSpeechEnd = 0;
    this.inSpeech = false;
  }
}

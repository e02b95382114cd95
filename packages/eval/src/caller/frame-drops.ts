/**
 * Lost packets: a Gilbert-Elliott model with a good state (nothing lost) and a bad state (a frame
 * is lost with probability {@link BAD_STATE_LOSS}). It is stepped once per frame of
 * `frame_drop_duration_ms`; the state changes in continuous time, at rates chosen so the bad
 * state lasts `frame_drop_burst_duration_ms` on average and the long-run fraction of frames lost
 * is `frame_drop_rate`. A lost frame silences `frame_drop_count` frames; consecutive silenced
 * frames make one gap.
 */
import type { ChannelEffectsConfig } from './config.js';
import { Prng } from './prng.js';

/** Probability that a frame is lost in the bad state. */
export const BAD_STATE_LOSS = 0.2;

/** The two-state loss model. */
export class GilbertElliott {
  /** Good-to-bad and bad-to-good transition rates, per second. */
  readonly toBad: number;
  readonly toGood: number;
  #bad = false;

  constructor(
    readonly lossRate: number,
    readonly meanBurstMs: number,
    private readonly rng: Prng,
  ) {
    if (!(lossRate >= 0 && lossRate < BAD_STATE_LOSS)) {
      throw new RangeError(`loss rate must be in [0, ${BAD_STATE_LOSS}), got ${lossRate}`);
    }
    if (!(meanBurstMs > 0)) throw new RangeError(`burst duration must be > 0, got ${meanBurstMs}`);
    this.toGood = 1000 / meanBurstMs;
    // Steady state: P(bad) = toBad / (toBad + toGood), and P(bad) * BAD_STATE_LOSS = lossRate.
    this.toBad = (this.toGood * lossRate) / (BAD_STATE_LOSS - lossRate);
  }

  get bad(): boolean {
    return this.#bad;
  }

  /** Move on by `seconds` and say whether the frame there is lost. */
  step(seconds: number): boolean {
    const rate = this.#bad ? this.toGood : this.toBad;
    if (this.rng.next() < 1 - Math.exp(-rate * seconds)) this.#bad = !this.#bad;
    return this.#bad && this.rng.next() < BAD_STATE_LOSS;
  }
}

/** A silenced stretch, in samples of the stream it was drawn for. */
export interface DropGap {
  start: number;
  end: number;
  /** Frames it is made of. */
  frames: number;
}

/**
 * Decides, frame by frame, which frames of a stream are silenced. Frames are counted from the
 * stream's start, so the decisions do not depend on how the stream is chunked.
 */
export class FrameDropper {
  readonly frameSamples: number;
  readonly #model: GilbertElliott;
  readonly #frameSeconds: number;
  readonly #count: number;
  readonly #onGap: (gap: DropGap) => void;
  #silenceLeft = 0;
  #gap: DropGap | undefined;

  /** `onGap` receives each gap once a kept frame (or {@link finish}) ends it. */
  constructor(
    config: ChannelEffectsConfig,
    sampleRate: number,
    seed: number,
    onGap: (gap: DropGap) => void = () => {},
  ) {
    this.#onGap = onGap;
    this.frameSamples = Math.max(
      1,
      Math.round((config.frame_drop_duration_ms * sampleRate) / 1000),
    );
    this.#frameSeconds = this.frameSamples / sampleRate;
    this.#count = config.frame_drop_count;
    this.#model = new GilbertElliott(
      config.frame_drop_rate,
      config.frame_drop_burst_duration_ms,
      Prng.stream(seed, 'frame-drops'),
    );
  }

  /** Whether the next frame is silenced (call once per frame, in order). */
  nextFrame(): boolean {
    const lost = this.#model.step(this.#frameSeconds);
    if (lost) this.#silenceLeft = Math.max(this.#silenceLeft, this.#count);
    if (this.#silenceLeft > 0) {
      this.#silenceLeft--;
      return true;
    }
    return false;
  }

  /** {@link nextFrame} for the frame at [start, end) of the caller's timeline, tracking gaps. */
  frameAt(start: number, end: number): boolean {
    const lost = this.nextFrame();
    if (!lost) {
      this.finish();
    } else if (this.#gap) {
      this.#gap.end = end;
      this.#gap.frames++;
    } else {
      this.#gap = { start, end, frames: 1 };
    }
    return lost;
  }

  /** End the gap in progress, if any, at `limit` at the latest. */
  finish(limit = Infinity): void {
    const gap = this.#gap;
    this.#gap = undefined;
    if (gap) this.#onGap({ ...gap, end: Math.min(gap.end, limit) });
  }
}

/**
 * Frame drops over a whole buffer (pure): the silenced buffer and its gaps. With the config's
 * drops disabled or at rate 0 nothing is dropped.
 */
export function applyFrameDrops(
  samples: Int16Array,
  sampleRate: number,
  config: ChannelEffectsConfig,
  seed: number,
): { samples: Int16Array; gaps: DropGap[] } {
  const out = samples.slice();
  const gaps: DropGap[] = [];
  if (!config.enable_frame_drops || config.frame_drop_rate <= 0) return { samples: out, gaps };
  const dropper = new FrameDropper(config, sampleRate, seed, (gap) => gaps.push(gap));
  for (let start = 0; start < samples.length; start += dropper.frameSamples) {
    const end = Math.min(samples.length, start + dropper.frameSamples);
    if (dropper.frameAt(start, end)) out.fill(0, start, end);
  }
  dropper.finish();
  return { samples: out, gaps };
}

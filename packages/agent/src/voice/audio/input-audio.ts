/**
 * The user's audio as it arrives in `AudioRawFrame`s, made into the one
 * stream the VAD and the recognizer take: mono PCM16 at 16 kHz. Browsers and
 * NeMo's bridge already send that; other rates are resampled, more channels
 * downmixed, and a WAV header (a Python Pipecat client may send one per
 * chunk) is read instead of being heard as noise.
 */
import { WavFormatError, decodeWav } from './wav.js';
import { INPUT_SAMPLE_RATE, downmixPcm16ToMono } from './pcm.js';
import { Resampler } from './resampler.js';

/** Most channels an input frame may declare. */
export const MAX_INPUT_CHANNELS = 8;
/** Highest input sample rate taken. */
export const MAX_INPUT_SAMPLE_RATE = 192_000;

/** An input frame that cannot be heard; the message says why. */
export class InputAudioError extends Error {
  override readonly name = 'InputAudioError';
}

/** One received audio frame. */
export interface InputAudioFrame {
  audio: Uint8Array;
  sampleRate: number;
  numChannels: number;
}

function startsWithRiff(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 &&
    bytes[0] === 0x52 &&
    bytes[1] === 0x49 &&
    bytes[2] === 0x46 &&
    bytes[3] === 0x46 &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x41 &&
    bytes[10] === 0x56 &&
    bytes[11] === 0x45
  );
}

/**
 * `frame` as raw PCM16 (a WAV-wrapped frame unwrapped), checked: a sample rate from 8 kHz to
 * {@link MAX_INPUT_SAMPLE_RATE}, 1 to {@link MAX_INPUT_CHANNELS} channels, whole samples. Throws
 * {@link InputAudioError} naming what is wrong.
 */
export function checkInputFrame(frame: InputAudioFrame): InputAudioFrame {
  let { audio, sampleRate, numChannels } = frame;
  if (startsWithRiff(audio)) {
    try {
      const wav = decodeWav(audio);
      ({ pcm: audio, sampleRate, channels: numChannels } = wav);
    } catch (err) {
      if (err instanceof WavFormatError) throw new InputAudioError(`audio frame: ${err.message}`);
      throw err;
    }
  }
  if (!Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > MAX_INPUT_SAMPLE_RATE) {
    throw new InputAudioError(
      `audio frame sample_rate must be an integer from 8000 to ${MAX_INPUT_SAMPLE_RATE}, got ${sampleRate}`,
    );
  }
  if (!Number.isInteger(numChannels) || numChannels < 1 || numChannels > MAX_INPUT_CHANNELS) {
    throw new InputAudioError(
      `audio frame num_channels must be 1 to ${MAX_INPUT_CHANNELS}, got ${numChannels}`,
    );
  }
  if (audio.length % (2 * numChannels) !== 0) {
    throw new InputAudioError(
      `audio frame holds ${audio.length} bytes, not a whole number of ${numChannels}-channel 16-bit samples`,
    );
  }
  return audio === frame.audio ? frame : { audio, sampleRate, numChannels };
}

/** Converts received frames into the 16 kHz mono stream, keeping resampler state between frames. */
export class InputAudioNormalizer {
  readonly outputRate: number;
  #resampler: Resampler | undefined;
  #resamplerRate = 0;

  constructor(outputRate = INPUT_SAMPLE_RATE) {
    this.outputRate = outputRate;
  }

  /** The frame's audio as mono PCM16 at {@link outputRate}; throws {@link InputAudioError}. */
  async convert(frame: InputAudioFrame): Promise<Uint8Array> {
    const { audio, sampleRate, numChannels } = checkInputFrame(frame);
    const mono = downmixPcm16ToMono(audio, numChannels);
    if (sampleRate === this.outputRate) {
      this.#dropResampler();
      return mono;
    }
    if (this.#resamplerRate !== sampleRate) {
      this.#dropResampler();
      this.#resampler = await Resampler.create({
        inputRate: sampleRate,
        outputRate: this.outputRate,
      });
      this.#resamplerRate = sampleRate;
    }
    return this.#resampler!.processPcm16(mono);
  }

  /** Release the resampler. */
  close(): void {
    this.#dropResampler();
  }

  #dropResampler(): void {
    this.#resampler?.destroy();
    this.#resampler = undefined;
    this.#resamplerRate = 0;
  }
}

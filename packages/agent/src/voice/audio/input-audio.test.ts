import { describe, expect, it } from 'vitest';
import { InputAudioError, InputAudioNormalizer } from './input-audio.js';
import { int16ToPcm16, pcm16ToInt16 } from './pcm.js';
import { encodeWav } from './wav.js';

/** A 440 Hz tone of `ms` at `rate`, PCM16 mono. */
function tone(ms: number, rate: number): Int16Array {
  const n = Math.round((ms * rate) / 1000);
  return Int16Array.from({ length: n }, (_, i) =>
    Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)),
  );
}

describe('InputAudioNormalizer', () => {
  it('passes 16 kHz mono through unchanged', async () => {
    const pcm = int16ToPcm16(tone(16, 16_000));
    expect(
      await new InputAudioNormalizer().convert({ audio: pcm, sampleRate: 16_000, numChannels: 1 }),
    ).toEqual(pcm);
  });

  it('resamples 48 kHz stereo to 16 kHz mono across frames, keeping the duration', async () => {
    const normalizer = new InputAudioNormalizer();
    const mono = tone(1000, 48_000);
    const stereo = new Int16Array(mono.length * 2);
    mono.forEach((v, i) => {
      stereo[2 * i] = v;
      stereo[2 * i + 1] = -v; // opposite channels average to silence
    });
    let samples = 0;
    let peak = 0;
    for (let i = 0; i < stereo.length; i += 1920) {
      const out = pcm16ToInt16(
        await normalizer.convert({
          audio: int16ToPcm16(stereo.subarray(i, i + 1920)),
          sampleRate: 48_000,
          numChannels: 2,
        }),
      );
      samples += out.length;
      for (const v of out) peak = Math.max(peak, Math.abs(v));
    }
    expect(Math.abs(samples - 16_000)).toBeLessThan(64); // the filter holds back a few samples
    expect(peak).toBeLessThanOrEqual(1);

    const same = tone(1000, 48_000);
    let energy = 0;
    const out = pcm16ToInt16(
      await normalizer.convert({ audio: int16ToPcm16(same), sampleRate: 48_000, numChannels: 1 }),
    );
    for (const v of out) energy += v * v;
    expect(Math.sqrt(energy / out.length)).toBeGreaterThan(4000); // the tone survives (rms 5657)
    normalizer.close();
  });

  it('reads a WAV header instead of hearing it', async () => {
    const pcm = int16ToPcm16(tone(20, 16_000));
    const wav = encodeWav({ pcm, sampleRate: 16_000, channels: 1 });
    // The file's format wins over the frame's fields.
    const out = await new InputAudioNormalizer().convert({
      audio: wav,
      sampleRate: 48_000,
      numChannels: 2,
    });
    expect(out).toEqual(pcm);
  });

  it.each([
    [
      { audio: new Uint8Array(3), sampleRate: 16_000, numChannels: 1 },
      /not a whole number of 1-channel 16-bit samples/,
    ],
    [
      { audio: new Uint8Array(6), sampleRate: 16_000, numChannels: 2 },
      /not a whole number of 2-channel/,
    ],
    [
      { audio: new Uint8Array(4), sampleRate: 0, numChannels: 1 },
      /sample_rate must be an integer from 8000 to 192000, got 0/,
    ],
    [{ audio: new Uint8Array(4), sampleRate: 44_100.5, numChannels: 1 }, /sample_rate/],
    [
      { audio: new Uint8Array(4), sampleRate: 16_000, numChannels: 0 },
      /num_channels must be 1 to 8, got 0/,
    ],
    [{ audio: new Uint8Array(4), sampleRate: 16_000, numChannels: 9 }, /num_channels/],
    [
      {
        audio: new TextEncoder().encode('RIFF\0\0\0\0WAVEjunk'),
        sampleRate: 16_000,
        numChannels: 1,
      },
      /audio frame: WAV file has no fmt chunk/,
    ],
  ])('refuses a frame it cannot hear (%#)', async (frame, message) => {
    const error = await new InputAudioNormalizer().convert(frame).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputAudioError);
    expect((error as Error).message).toMatch(message);
  });
});

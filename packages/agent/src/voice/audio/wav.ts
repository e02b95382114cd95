/**
 * WAV files of 16-bit PCM (mono or stereo): encoding a RIFF/WAVE file and
 * reading one back. Reading walks the chunk list, so `LIST`/`fact` chunks and
 * `WAVE_FORMAT_EXTENSIBLE` headers with a PCM sub-format are accepted; any
 * other encoding or bit depth is refused with a message naming it.
 */
import type { PcmAudio } from './pcm.js';

const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** A WAV file that cannot be read as 16-bit PCM. */
export class WavFormatError extends Error {
  override readonly name = 'WavFormatError';
}

/** A 16-bit PCM WAV file holding `audio` (44-byte canonical header). */
export function encodeWav(audio: PcmAudio): Uint8Array {
  const { pcm, sampleRate, channels } = audio;
  if (!Number.isInteger(channels) || channels < 1 || channels > 2) {
    throw new RangeError(`WAV channels must be 1 or 2, got ${channels}`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`WAV sample rate must be a positive integer, got ${sampleRate}`);
  }
  const blockAlign = channels * 2;
  const dataLength = pcm.length - (pcm.length % blockAlign);
  const out = new Uint8Array(44 + dataLength);
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataLength, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, WAVE_FORMAT_PCM, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * blockAlign, true);
  view.setUint16(32, blockAlign, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataLength, true);
  out.set(pcm.subarray(0, dataLength), 44);
  return out;
}

/** The 16-bit PCM audio of a WAV file. */
export function decodeWav(file: Uint8Array): PcmAudio {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const tag = (offset: number): string => String.fromCharCode(...file.subarray(offset, offset + 4));
  if (file.length < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') {
    throw new WavFormatError('not a RIFF/WAVE file');
  }
  let format: { sampleRate: number; channels: number } | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = tag(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > file.length) throw new WavFormatError('truncated fmt chunk');
      let encoding = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bits = view.getUint16(body + 14, true);
      if (encoding === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= file.length) {
        encoding = view.getUint16(body + 24, true); // first two bytes of the sub-format GUID
      }
      if (encoding !== WAVE_FORMAT_PCM) {
        throw new WavFormatError(`unsupported WAV encoding ${encoding} (only PCM is read)`);
      }
      if (bits !== 16) throw new WavFormatError(`unsupported WAV bit depth ${bits} (only 16)`);
      if (channels < 1 || channels > 2) {
        throw new WavFormatError(`unsupported WAV channel count ${channels} (1 or 2)`);
      }
      if (sampleRate <= 0) throw new WavFormatError('WAV sample rate is 0');
      format = { sampleRate, channels };
    } else if (id === 'data') {
      if (!format) throw new WavFormatError('data chunk before fmt chunk');
      // Streamed writers leave the size at 0 or 0xffffffff: then the data runs to the end.
      const end =
        size === 0 || size === 0xffffffff ? file.length : Math.min(body + size, file.length);
      const blockAlign = format.channels * 2;
      const length = end - body - ((end - body) % blockAlign);
      return { ...format, pcm: file.slice(body, body + length) };
    }
    offset = body + size + (size % 2); // chunks are word-aligned
  }
  throw new WavFormatError(format ? 'WAV file has no data chunk' : 'WAV file has no fmt chunk');
}

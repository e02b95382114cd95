/**
 * G.711 mu-law, the telephone network's 8-bit companding: a 16-bit sample is reduced to 14 bits,
 * biased, and coded as a sign bit, a 3-bit segment (exponent) and a 4-bit step within it, all
 * bits inverted. Decoding gives the segment's step value, so the round trip keeps about 38 dB of
 * signal-to-quantization ratio across a wide range of levels. Code 0xFF is silence.
 */

/** The mu-law code of silence. */
export const MU_LAW_SILENCE = 0xff;

/** Offset added to the 14-bit magnitude before segmenting. */
const BIAS_14 = 33;
/** Largest 14-bit magnitude coded before clipping. */
const CLIP_14 = 8159;

const DECODE_TABLE = (() => {
  const table = new Int16Array(256);
  for (let code = 0; code < 256; code++) {
    const bits = ~code & 0xff;
    const exponent = (bits >> 4) & 0x07;
    const step = ((bits & 0x0f) << 3) + 0x84;
    const magnitude = (step << exponent) - 0x84;
    table[code] = bits & 0x80 ? -magnitude : magnitude;
  }
  return table;
})();

/** The mu-law code of one 16-bit sample. */
export function muLawEncodeSample(sample: number): number {
  let magnitude = sample >> 2;
  let invert = 0xff;
  if (magnitude < 0) {
    magnitude = -magnitude;
    invert = 0x7f;
  }
  magnitude = Math.min(magnitude, CLIP_14) + BIAS_14;
  // Segment: how far the highest set bit lies above bit 5 (magnitudes 33..63 are segment 0).
  const exponent = Math.max(0, 31 - Math.clz32(magnitude) - 5);
  // The clipped maximum lies just past segment 7: it takes that segment's top step.
  if (exponent > 7) return 0x7f ^ invert;
  const step = (magnitude >> (exponent + 1)) & 0x0f;
  return ((exponent << 4) | step) ^ invert;
}

/** The 16-bit sample a mu-law code stands for. */
export function muLawDecodeSample(code: number): number {
  return DECODE_TABLE[code & 0xff]!;
}

/** Mu-law codes of 16-bit samples. */
export function muLawEncode(samples: Int16Array): Uint8Array {
  const out = new Uint8Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = muLawEncodeSample(samples[i]!);
  return out;
}

/** 16-bit samples of mu-law codes. */
export function muLawDecode(codes: Uint8Array): Int16Array {
  const out = new Int16Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = DECODE_TABLE[codes[i]!]!;
  return out;
}

// The fuzz input of bench/voice-fuzz.bench.mjs: one seeded sequence (`random`) draws valid
// audio frames, hostile frames (odd channels, rates, lengths, broken WAVs, random bytes) and
// control requests, so a run's input does not depend on timing.
import { encodeWav } from '@scenaro/agent/voice';
import { clientMessage, encodeFrame, encodeRtviFrame } from '@scenaro/sdk/protocol';

/** A seeded generator of numbers in [0, 1) (mulberry32). */
export function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const random = prng(0x5eed);
export const pick = (items, next = random) => items[Math.floor(next() * items.length)];
export const int = (n, next = random) => Math.floor(next() * n);
/** `bytes` of 16-bit noise at about -20 dBFS, or silence. */
export function pcm(bytes, noise = true) {
  const out = new Uint8Array(bytes);
  if (!noise) return out;
  const view = new DataView(out.buffer);
  for (let i = 0; i + 1 < bytes; i += 2) view.setInt16(i, int(6554) - 3277, true);
  return out;
}
export const audioFrame = (audio, sampleRate = 16_000, numChannels = 1) =>
  encodeFrame({ kind: 'audio', audio, sampleRate, numChannels });
/** Pre-encoded valid 16 ms frames: silence and 15 kinds of noise. */
const VALID = [
  audioFrame(pcm(512, false)),
  ...Array.from({ length: 15 }, () => audioFrame(pcm(512))),
];
export const validFrame = () => (random() < 0.3 ? VALID[0] : pick(VALID));
const CHANNELS = [0, 1, 2, 3, 9, 4096];
const RATES = [0, 1, 7999, 8000, 16_000, 44_100, 48_000, 192_000, 192_001, 2 ** 31, 2 ** 32 - 1];
/** Noise to cut frames of random length from. */
const NOISE = pcm(65_536);

function wavFrame() {
  const kind = int(6);
  const channels = 1 + int(2);
  const rate = pick([8000, 16_000, 48_000]);
  const wav = encodeWav({
    pcm: NOISE.subarray(0, 256 + 2 * int(2048)),
    sampleRate: rate,
    channels,
  });
  const view = new DataView(wav.buffer);
  if (kind === 1) return audioFrame(wav.subarray(0, 12 + int(40))); // truncated header
  if (kind === 2) view.setUint16(34, 8, true); // 8-bit
  if (kind === 3) view.setUint16(22, pick([0, 3, 4096]), true); // channels
  if (kind === 4) view.setUint32(24, pick([0, 1, 7999, 192_001, 2 ** 32 - 1]), true); // rate
  if (kind === 5) view.setUint32(40, 0xfffffff0, true); // data longer than the frame
  return audioFrame(wav, pick([0, 16_000]), pick([0, 1]));
}

/** One fuzzed audio or junk frame. */
export function hostileFrame() {
  const roll = random();
  if (roll < 0.25) return validFrame();
  if (roll < 0.4) return audioFrame(NOISE.subarray(0, 512), 16_000, pick(CHANNELS));
  if (roll < 0.55) return audioFrame(NOISE.subarray(0, 512), pick(RATES));
  if (roll < 0.7) {
    const length = pick([0, 1, 2 * int(2048) + 1, 2 * int(32_769)]);
    return audioFrame(NOISE.subarray(0, length), 16_000, pick([1, 1, 2]));
  }
  if (roll < 0.85) return wavFrame();
  if (roll < 0.95) {
    const length = pick([3, 512, 2 * int(16_384)]);
    return audioFrame(NOISE.subarray(0, length), pick(RATES), pick(CHANNELS));
  }
  return new Uint8Array(Array.from({ length: 1 + int(64) }, () => int(256)));
}

/** A control request that must be answered: [bytes, id]. */
export function controlRequest(id) {
  const t = pick([
    'no_such_handler',
    'no_such_handler',
    'get_scenario_summary',
    'get_context_history',
    'no-such-type',
  ]);
  if (t === 'no-such-type')
    return [encodeRtviFrame({ label: 'rtvi-ai', type: t, id, data: {} }), t];
  return [encodeRtviFrame(clientMessage(id, t, t === 'no_such_handler' ? { x: int(10) } : {})), t];
}
/** `disconnect-bot`: the polite way to leave. */
export const disconnectBot = encodeRtviFrame({
  label: 'rtvi-ai',
  type: 'disconnect-bot',
  id: 'bye',
  data: {},
});

/**
 * The recording of an audio-mode scenario: `conversation_log.wav`, stereo PCM16 at the relay's
 * rate, left what the user bot said to the agent, right what the agent said to the user, on one
 * timeline (NeMo's layout).
 */
import { encodeWav } from '@scenaro/agent/voice';
import type { AudioRecord } from '../bridge/types.js';

/** The stereo WAV of a recording. */
export function conversationWav(record: AudioRecord): Uint8Array {
  const left = record.userToAgent;
  const right = record.agentToUser;
  const steps = Math.max(left.length, right.length);
  let bytes = 0;
  for (let i = 0; i < steps; i++)
    bytes += Math.max(left[i]?.length ?? 0, right[i]?.length ?? 0) * 2;
  const pcm = new Uint8Array(bytes);
  let offset = 0;
  for (let i = 0; i < steps; i++) {
    const l = left[i];
    const r = right[i];
    const samples = Math.max(l?.length ?? 0, r?.length ?? 0) / 2;
    for (let n = 0; n < samples; n++) {
      const at = offset + n * 4;
      if (l && n * 2 < l.length) {
        pcm[at] = l[n * 2] as number;
        pcm[at + 1] = l[n * 2 + 1] as number;
      }
      if (r && n * 2 < r.length) {
        pcm[at + 2] = r[n * 2] as number;
        pcm[at + 3] = r[n * 2 + 1] as number;
      }
    }
    offset += samples * 4;
  }
  return encodeWav({ pcm, sampleRate: record.sampleRate, channels: 2 });
}

/**
 * Encodes outgoing RTVI messages into frames. A reply whose `d` is a frozen object (one the
 * server keeps and hands out again, such as the text of an unchanged context) has its JSON
 * kept: answering the same big result again costs a copy, not another serialization.
 */
import { encodeFrame, encodeRtviFrame } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';

/** Smaller results are serialized every time (keeping their JSON would not pay). */
const KEEP_FROM_CHARS = 16 * 1024;
const PLACEHOLDER = '\u0000scenaro:kept-reply\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

const kept = new WeakMap<object, string>();

/** The frame bytes of `message` (pooled: see `FrameEncodeOptions`). */
export function encodeMessage(message: RTVIMessage, pooled: boolean): Uint8Array {
  const data = message.data as { d?: unknown } | undefined;
  const d = data?.d;
  if (
    message.type !== 'server-response' ||
    d === null ||
    typeof d !== 'object' ||
    !Object.isFrozen(d)
  ) {
    return encodeRtviFrame(message, { pooled });
  }
  let json = kept.get(d);
  if (json === undefined) {
    json = JSON.stringify(d);
    if (json.length < KEEP_FROM_CHARS) return encodeRtviFrame(message, { pooled });
    kept.set(d, json);
  }
  const outer = JSON.stringify({ ...message, data: { ...data, d: PLACEHOLDER } });
  const at = outer.indexOf(PLACEHOLDER_JSON);
  const text = outer.slice(0, at) + json + outer.slice(at + PLACEHOLDER_JSON.length);
  return encodeFrame({ kind: 'message', data: text }, { pooled });
}

/**
 * Encodes outgoing RTVI messages into frames. A reply whose `d` is a frozen object (one the
 * server keeps and hands out again, such as the text of an unchanged context) has its JSON
 * kept as UTF-8 bytes: answering the same big result again costs one copy of those bytes, with
 * no serialization and no big string for the garbage collector.
 */
import { encodeRtviFrame, errorResponse } from '@scenaro/sdk/protocol';
import type { RTVIMessage } from '@scenaro/sdk/protocol';
import type { Logger } from './logger.js';

/** Smaller results are serialized every time (keeping their bytes would not pay). */
const KEEP_FROM_BYTES = 16 * 1024;
const PLACEHOLDER = '\u0000scenaro:kept-reply\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

const kept = new WeakMap<object, Buffer>();

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
    json = Buffer.from(JSON.stringify(d), 'utf8');
    if (json.length < KEEP_FROM_BYTES) return encodeRtviFrame(message, { pooled });
    kept.set(d, json);
  }
  const outer = JSON.stringify({ ...message, data: { ...data, d: PLACEHOLDER } });
  const at = outer.indexOf(PLACEHOLDER_JSON);
  const head = Buffer.from(outer.slice(0, at), 'utf8');
  const tail = Buffer.from(outer.slice(at + PLACEHOLDER_JSON.length), 'utf8');
  return messageFrame([head, json, tail]);
}

/**
 * `Frame { message: MessageFrame { data } }` around the concatenation of `parts` (UTF-8 JSON):
 * `0x22 varint(inner) 0x0a varint(n) data`, as the SDK's encoder writes it for a non-empty
 * string (see `encodeFrame`); the tests compare the bytes.
 */
function messageFrame(parts: Buffer[]): Uint8Array {
  const n = parts.reduce((sum, p) => sum + p.length, 0);
  const dataHeader = [0x0a, ...varint(n)];
  const frameHeader = [0x22, ...varint(dataHeader.length + n)];
  const out = Buffer.allocUnsafeSlow(frameHeader.length + dataHeader.length + n);
  out.set(frameHeader, 0);
  let offset = frameHeader.length;
  out.set(dataHeader, offset);
  offset += dataHeader.length;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Protobuf base-128 varint bytes of a non-negative integer. */
function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/**
 * The frame to send for `message`, within `maxBytes`: a reply that cannot be encoded or is too
 * large becomes an `error-response` saying so; any other such message is dropped (undefined).
 */
export function encodeOutgoing(
  message: RTVIMessage,
  maxBytes: number,
  log: Logger,
): Uint8Array | undefined {
  const isReply = message.type === 'server-response' && message.id !== undefined;
  let bytes: Uint8Array;
  try {
    bytes = encodeMessage(message, true);
  } catch (err) {
    log.error({ err, type: message.type }, 'could not encode an outgoing message');
    if (!isReply) return undefined;
    return encodeRtviFrame(
      errorResponse(message.id!, `Could not encode the reply: ${(err as Error).message}`),
    );
  }
  if (bytes.byteLength <= maxBytes) return bytes;
  const t = (message.data as { t?: unknown } | undefined)?.t;
  log.warn(
    { type: message.type, t, bytes: bytes.byteLength },
    'outgoing message over the size limit',
  );
  if (!isReply) return undefined;
  const hint =
    t === 'get_scenario_summary'
      ? ' Call get_scenario_summary without include_db and compare db_hash instead.'
      : '';
  return encodeRtviFrame(
    errorResponse(
      message.id!,
      `Reply to ${String(t)} is ${bytes.byteLength} bytes, over the ${maxBytes}-byte message limit.${hint}`,
    ),
  );
}

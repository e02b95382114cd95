/**
 * UTF-8 byte measurements, as LiveKit applies its payload and message limits.
 */

const encoder = new TextEncoder();

/** Number of bytes `text` takes in UTF-8. */
export function byteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest prefix of `text` that fits in `maxBytes` UTF-8 bytes, never
 * splitting a code point.
 */
export function truncateBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes || byteLength(text) <= maxBytes) return text;
  const { read } = encoder.encodeInto(text, new Uint8Array(Math.max(0, maxBytes)));
  return text.slice(0, read);
}

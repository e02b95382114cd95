/**
 * `sanitize_context_for_transport`: before a context leaves the bot, inline
 * binary and media payloads are replaced with short placeholder tags.
 *
 * Differences from the reference, on purpose: a string starting with `data:` is
 * replaced only when it looks like a data URL (`data:<mime>;base64,` or
 * `data:<mime>,`), so ordinary text such as "data: the numbers" survives.
 */

const MEDIA_KEYS = ['audio', 'image', 'file'] as const;
type MediaKind = (typeof MEDIA_KEYS)[number];
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(;[\w=.+-]+)*(;base64)?,/i;

function mediaKindOf(key: string): MediaKind | undefined {
  const lower = key.toLowerCase();
  return MEDIA_KEYS.find((m) => lower.includes(m));
}

function tag(kind: MediaKind | undefined): string {
  return kind ? `<${kind}>` : '<binary>';
}

/**
 * Return a sanitized deep copy of `messages`. Binary values (`Uint8Array`,
 * `ArrayBuffer`) and data URLs become tags; under a key naming audio, image or
 * file, `data` fields become tags too; `file_data` and `b64_json` always do.
 */
export function sanitizeContextForTransport<T>(messages: T): T {
  const visit = (
    value: unknown,
    media: MediaKind | undefined,
    key: string | undefined,
  ): unknown => {
    if (value instanceof Uint8Array || value instanceof ArrayBuffer) return tag(media);
    if (typeof value === 'string') {
      if (key === 'file_data' || key === 'b64_json') return tag(media ?? 'file');
      if (key === 'data' && media) return tag(media);
      if (DATA_URL.test(value)) return tag(media);
      return value;
    }
    if (Array.isArray(value)) return value.map((item) => visit(item, media, key));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value)) {
        const childMedia = mediaKindOf(k) ?? media;
        const v = (value as Record<string, unknown>)[k];
        const sanitized =
          (k === 'file_data' || k === 'b64_json') && v !== null && v !== undefined
            ? tag(childMedia ?? 'file')
            : k === 'data' && media && v !== null && typeof v !== 'object'
              ? tag(media)
              : visit(v, childMedia, k);
        Object.defineProperty(out, k, {
          value: sanitized,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  return visit(messages, undefined, undefined) as T;
}

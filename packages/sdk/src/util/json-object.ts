/** A JSON object: string keys, any values. */
export type JsonObject = Record<string, unknown>;

/** Whether `value` is an object and not `null` or an array (parsed JSON's `{...}`). */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

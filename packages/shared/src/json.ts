/** Checking JSON that arrives as `unknown` (an answer, a message) before reading its fields. */
export type JsonObject = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

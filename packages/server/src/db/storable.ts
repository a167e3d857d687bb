/**
 * Text that came from an APK (entry names, manifest values, parser details) may hold what
 * Postgres refuses: NUL in text and JSONB, and unpaired UTF-16 surrogates in JSONB. One such
 * character made a conversion's failure unwritable, leaving it "processing" for good while it
 * held a slot of the queue. Everything the engine says is made storable before it is written.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without NULs, unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A JSON value with every string (keys too) made storable. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => storableJson(v)) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableJson(v)])) as T;
  }
  return value;
}

/**
 * Every `--json` document the CLI prints on stdout: one object whose first fields are
 * `schemaVersion` (the shape's version, docs/cli.md "JSON output") and `ok`. The version changes
 * only when a field is removed or changes meaning; new fields may appear within a version.
 */
export const JSON_SCHEMA_VERSION = 1;

export function jsonDocument(doc: { ok: boolean } & Record<string, unknown>): Record<string, unknown> {
  return { schemaVersion: JSON_SCHEMA_VERSION, ...doc };
}

export function writeJsonDocument(doc: { ok: boolean } & Record<string, unknown>, out: NodeJS.WritableStream = process.stdout): void {
  // JSON leaves DEL, C1 and the Unicode line separators raw; escaped, no terminal or log reader acts on them.
  const text = JSON.stringify(jsonDocument(doc), null, 2).replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  out.write(`${text}\n`);
}

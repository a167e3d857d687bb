/**
 * Deflated sizes as stock zlib gives them. bundletool (Java's zlib) decides from the deflated size
 * whether an APK stores an entry; Node's zlib (Chromium's, faster) finds other matches and its
 * output can be a few percent larger, enough to store what bundletool deflates. pako 2.1, a port
 * of stock zlib, gives bundletool's sizes; it is slow, so it only settles entries close to the
 * threshold. Loaded on first use (the CLI starts without it).
 */
type Pako = typeof import('pako');
let pako: Pako | undefined;

export type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;

export async function stockDeflatedSize(data: Uint8Array, level: DeflateLevel): Promise<number> {
  pako ??= await import('pako');
  return pako.deflateRaw(data, { level }).length;
}

/**
 * A big game's APK, made on the spot (never committed): a corpus APK's own entries, copied as
 * they are, plus `sizeMb` of incompressible assets stored uncompressed under `assets/media/`
 * in 16 MiB files, as a game ships its media. Written through a file descriptor, one part at a
 * time, so making a 300 MB APK holds 16 MiB at most.
 */
import { randomBytes } from 'node:crypto';
import { ZipArchive, ZipWriter } from '../oracle/zip.js';

const SIGNATURE_FILE = /^META-INF\/(MANIFEST\.MF|[^/]+\.(SF|RSA|DSA|EC)|SIG-[^/]*)$/i;
export const MEDIA_PART_BYTES = 16 * 1024 * 1024;

export function writeBigAssetsApk(baseApk: string, out: string, sizeMb: number): { bytes: number; mediaBytes: number } {
  const base = ZipArchive.open(baseApk);
  const w = new ZipWriter(out);
  for (const e of base.byName().values()) {
    if (e.name.endsWith('/') || SIGNATURE_FILE.test(e.name)) continue;
    w.addRaw(e.name, e.method, e.crc, base.raw(e), e.size);
  }
  let media = 0;
  const target = sizeMb * 1024 * 1024;
  for (let i = 0; media < target; i++) {
    const size = Math.min(MEDIA_PART_BYTES, target - media);
    w.add(`assets/media/part_${String(i).padStart(3, '0')}.bin`, randomBytes(size), { method: 'store', align: 4 });
    media += size;
  }
  const bytes = w.bytesWritten;
  w.close();
  return { bytes, mediaBytes: media };
}

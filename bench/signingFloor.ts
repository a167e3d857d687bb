/**
 * The least CPU any signer of an APK must spend on this machine, whatever its design: the work a
 * v1 + v2/v3 signature cannot skip, timed with Node's own zlib and hashes, one thread, the file in
 * the page cache. For each entry: its content inflated (a v1 digest covers the uncompressed
 * bytes) and hashed with SHA-1 (the v1 digest a minSdk below 18 needs) and its CRC-32 checked (a
 * copied entry must be proven whole); then the SHA-256 of the whole file (the v2/v3 chunk digests).
 * Spread perfectly over every core and added to Node's start, that is the floor of a build-apks
 * run: `bench/build-apks.ts` prints it, and the ratio to bundletool it leaves, after its figures.
 *
 *   npx tsx bench/signingFloor.ts path/to/app.apk [--runs 3]
 */
import { availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';
import { crc32, inflateRawSync } from 'node:zlib';
import { ZipReader } from '../packages/converter/src/zip/reader.js';
import { argValue } from './measure.js';

export interface SigningFloor {
  entries: number;
  inflatedBytes: number;
  storedBytes: number;
  inflateMs: number;
  sha1Ms: number;
  crcMs: number;
  sha256Ms: number;
  /** All of it on one thread. */
  cpuMs: number;
  /** cpuMs spread over every core, as if nothing else had to wait. */
  wallFloorMs: number;
  cores: number;
}

const msSince = (t: bigint): number => Number(process.hrtime.bigint() - t) / 1e6;

async function measureOnce(apk: string): Promise<SigningFloor> {
  const zip = await ZipReader.open(apk);
  try {
    const files = zip.entries.filter((e) => !e.isDirectory);
    const raw = files.map((e) => {
      const b = Buffer.allocUnsafe(e.compressedSize);
      zip.readRawSync(e, 0, b, 0, e.compressedSize);
      return b;
    });
    let t = process.hrtime.bigint();
    const contents = files.map((e, i) => (e.method === 8 ? inflateRawSync(raw[i]!) : raw[i]!));
    const inflateMs = msSince(t);
    t = process.hrtime.bigint();
    for (const c of contents) createHash('sha1').update(c).digest();
    const sha1Ms = msSince(t);
    t = process.hrtime.bigint();
    for (const c of contents) crc32(c);
    const crcMs = msSince(t);
    // The v2/v3 digest: SHA-256 of each 1 MiB chunk of the file (entries, central directory, end record).
    const whole = Buffer.concat(raw);
    t = process.hrtime.bigint();
    for (let o = 0; o < whole.length; o += 1 << 20) createHash('sha256').update(whole.subarray(o, Math.min(whole.length, o + (1 << 20)))).digest();
    const sha256Ms = msSince(t);
    const cpuMs = inflateMs + sha1Ms + crcMs + sha256Ms;
    const cores = availableParallelism();
    let inflatedBytes = 0;
    let storedBytes = 0;
    files.forEach((e, i) => (e.method === 8 ? (inflatedBytes += contents[i]!.length) : (storedBytes += contents[i]!.length)));
    return { entries: files.length, inflatedBytes, storedBytes, inflateMs, sha1Ms, crcMs, sha256Ms, cpuMs, wallFloorMs: cpuMs / cores, cores };
  } finally {
    await zip.close();
  }
}

/** The fastest of `runs` measurements (the floor: what the machine can do at best). */
export async function signingFloor(apk: string, runs = 3): Promise<SigningFloor> {
  let best: SigningFloor | undefined;
  for (let r = 0; r < runs; r++) {
    const m = await measureOnce(apk);
    if (!best || m.cpuMs < best.cpuMs) best = m;
  }
  return best!;
}

export function describeFloor(f: SigningFloor): string {
  const mb = (n: number) => (n / 1048576).toFixed(0);
  return (
    `signing floor of this APK on this machine (${f.entries} entries: ${mb(f.inflatedBytes)} MB inflated, ${mb(f.storedBytes)} MB stored): ` +
    `inflate ${f.inflateMs.toFixed(0)} ms + SHA-1 ${f.sha1Ms.toFixed(0)} ms + CRC-32 ${f.crcMs.toFixed(0)} ms + SHA-256 ${f.sha256Ms.toFixed(0)} ms = ` +
    `${f.cpuMs.toFixed(0)} ms of CPU, ${f.wallFloorMs.toFixed(0)} ms of wall on ${f.cores} cores at best (Node's start and the file's reading and writing not included)`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const apk = process.argv[2];
  if (!apk || apk.startsWith('--')) throw new Error('usage: npx tsx bench/signingFloor.ts path/to/app.apk [--runs 3]');
  console.log(describeFloor(await signingFloor(apk, Number(argValue('--runs', '3')))));
}

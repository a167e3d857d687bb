import type { Hash } from 'node:crypto';
import { createInflateRaw } from 'node:zlib';
import { ConverterError, isConverterError } from '../errors.js';
import { METHOD_STORED, type ZipEntry } from './central.js';
import { EntryVerifier, type ZipReader } from './reader.js';

export interface SideVerifier {
  /** Feeds a chunk; returns a promise only when the inflater's backlog must drain first. */
  push(chunk: Buffer): Promise<void> | undefined;
  end(): Promise<void>;
  dispose(): void;
}

/** Inflater output chunk: few, large chunks keep the per-chunk JS work (events, CRC calls) low. */
const VERIFY_CHUNK = 256 * 1024;
/** Compressed bytes queued in the inflater before the copy waits for it (bounds memory). */
const VERIFY_BACKLOG = 8 * 1024 * 1024;

/**
 * Inflates copied bytes on the side (or checksums stored ones) without holding them, feeding
 * `hash` too (the JAR signature's digest of the uncompressed bytes). The
 * inflater runs on the thread pool while the copy goes on: the copy only waits for it when its
 * backlog grows past VERIFY_BACKLOG, and at the end of the entry.
 */
export function sideVerifier(entry: ZipEntry, hash?: Hash): SideVerifier {
  const v = new EntryVerifier(entry);
  if (entry.method === METHOD_STORED) {
    return {
      push: (c) => {
        v.add(c);
        hash?.update(c);
        return undefined;
      },
      end: async () => v.finish(),
      dispose: () => undefined,
    };
  }
  const inflater = createInflateRaw({ chunkSize: VERIFY_CHUNK });
  let failure: unknown;
  inflater.on('data', (c: Buffer) => {
    if (failure) return;
    try {
      v.add(c);
      hash?.update(c);
    } catch (e) {
      failure = e;
      inflater.destroy();
    }
  });
  const ended = new Promise<void>((resolve) => {
    inflater.on('end', resolve);
    inflater.on('close', resolve);
    inflater.on('error', (e) => {
      failure ??= e;
      resolve();
    });
  });
  const rethrow = (): void => {
    if (failure === undefined) return;
    if (isConverterError(failure)) throw failure;
    throw new ConverterError('CORRUPT_ENTRY', `${entry.rawName}: ${(failure as Error).message}`, { cause: failure });
  };
  const drained = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        inflater.off('drain', done);
        inflater.off('close', done);
        resolve();
      };
      inflater.on('drain', done);
      inflater.on('close', done);
    });
  return {
    push(chunk) {
      rethrow();
      if (inflater.destroyed) return undefined;
      inflater.write(chunk);
      return inflater.writableLength > VERIFY_BACKLOG ? drained().then(rethrow) : undefined;
    },
    async end() {
      rethrow();
      inflater.end();
      await ended;
      rethrow();
      v.finish();
    },
    dispose() {
      inflater.destroy();
    },
  };
}

/** Proves one entry's CRC and sizes from its stored bytes (inflating them on the side). */
export async function verifyEntry(reader: ZipReader, entry: ZipEntry, signal?: AbortSignal): Promise<void> {
  const check = sideVerifier(entry);
  try {
    for await (const chunk of reader.rawChunks(entry, { signal })) {
      const backlog = check.push(chunk);
      if (backlog) await backlog;
    }
    await check.end();
  } finally {
    check.dispose();
  }
  reader.markVerified(entry);
}

interface Verdict {
  verified: boolean;
  failure?: unknown;
}

/**
 * Verifies, in the background and in the given order, the entries a conversion will copy raw:
 * their inflating runs on the thread pool while the main thread converts the resources, so by
 * the time the bundle is written their CRCs are already proven. `settle(entry)` waits for one
 * entry's verdict and throws its failure (CORRUPT_ENTRY, SIZE_MISMATCH, ABORTED ...); an entry
 * not covered (or not reached before `cancel`) settles as unverified, and the copy checks it.
 */
export class BackgroundVerifier {
  private readonly verdicts = new Map<number, Promise<Verdict>>();
  private readonly resolvers = new Map<number, (v: Verdict) => void>();
  private readonly stop = new AbortController();
  private readonly running: Promise<void>;

  constructor(
    private readonly reader: ZipReader,
    entries: readonly ZipEntry[],
    private readonly signal?: AbortSignal,
  ) {
    for (const e of entries) {
      if (this.verdicts.has(e.index)) continue;
      this.verdicts.set(e.index, new Promise<Verdict>((resolve) => this.resolvers.set(e.index, resolve)));
    }
    this.running = this.run(entries, signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal);
  }

  private async run(entries: readonly ZipEntry[], signal: AbortSignal): Promise<void> {
    for (const e of entries) {
      const resolve = this.resolvers.get(e.index);
      if (!resolve) continue;
      this.resolvers.delete(e.index);
      if (this.stop.signal.aborted) {
        resolve({ verified: false });
        continue;
      }
      try {
        await verifyEntry(this.reader, e, signal);
        resolve({ verified: true });
      } catch (failure) {
        // Stopped by cancel(), not by the caller's signal: unverified rather than failed.
        const cancelled = this.stop.signal.aborted && !this.signal?.aborted;
        resolve(cancelled ? { verified: false } : { verified: false, failure });
      }
    }
  }

  /** Waits for `entry`'s verdict: true when proven, false when not covered; throws when bad. */
  async settle(entry: ZipEntry): Promise<boolean> {
    const verdict = this.verdicts.get(entry.index);
    if (!verdict) return false;
    const v = await verdict;
    if (v.failure !== undefined) throw v.failure;
    return v.verified;
  }

  /** Stops (the entry in progress is abandoned) and waits until no read is in flight. */
  async cancel(): Promise<void> {
    this.stop.abort();
    await this.running;
  }
}

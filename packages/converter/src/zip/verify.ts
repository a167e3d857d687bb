import { createHash, type Hash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { ConverterError, isConverterError } from '../errors.js';
import { METHOD_STORED, type ZipEntry } from './central.js';
import { EntryVerifier, INFLATE_IN_ONE_JOB, type ZipReader } from './reader.js';
import { inflateSink } from './zlibSink.js';
import { VERIFY_WORKER_FROM, startVerifierThread, type VerifierThreads, type WorkerEntry, type WorkerVerdict } from './verifierThread.js';

export { VERIFY_WORKER_FROM };

export interface SideVerifier {
  /** Feeds a chunk (throws the coded failure once there is one). */
  push(chunk: Buffer): void;
  /** Resolves once every chunk pushed so far has been taken in (their buffers may be reused). */
  idle(): Promise<void>;
  end(): Promise<void>;
  dispose(): void;
}

/**
 * Inflates copied bytes on the side (or checksums stored ones) without holding them, feeding
 * `hash` too (the JAR signature's digest of the uncompressed bytes). The inflating runs on the
 * thread pool, into one reused output buffer (zlibSink.ts), while the copy writes the same chunk;
 * the copy waits for it (`idle`) before reading the next chunk into the same buffer.
 */
export function sideVerifier(entry: ZipEntry, hash?: Hash): SideVerifier {
  const v = new EntryVerifier(entry);
  if (entry.method === METHOD_STORED) {
    return {
      push: (c) => {
        v.add(c);
        hash?.update(c);
      },
      idle: () => Promise.resolve(),
      end: async () => v.finish(),
      dispose: () => undefined,
    };
  }
  const sink = inflateSink((c) => {
    v.add(c);
    hash?.update(c);
  });
  const coded = (failure: unknown): Error =>
    isConverterError(failure) ? failure : new ConverterError('CORRUPT_ENTRY', `${entry.rawName}: ${(failure as Error).message}`, { cause: failure });
  return {
    push(chunk) {
      try {
        // The caller waits with idle() after each chunk: the queue never grows past the backlog.
        void sink.push(chunk);
      } catch (e) {
        throw coded(e);
      }
    },
    async idle() {
      try {
        await sink.idle();
      } catch (e) {
        throw coded(e);
      }
    },
    async end() {
      try {
        await sink.end();
      } catch (e) {
        throw coded(e);
      }
      v.finish();
    },
    dispose() {
      sink.close();
    },
  };
}

/**
 * Entries up to this size (compressed) are proven by one whole read (`ZipReader.read`): a
 * synchronous read, and the inflating synchronous for a small entry (microseconds) or one
 * thread-pool job up to INFLATE_IN_ONE_JOB inflated. A zlib stream per entry costs more in set-up,
 * and each of its chunks waits for a turn of the main thread, which the resource conversion
 * keeps busy: a 1 MB APK's dex was proven only once writing waited for it (~17 ms).
 */
const VERIFY_WHOLE = 1024 * 1024;

/**
 * Proves one entry's CRC and sizes from its stored bytes (inflating them on the side), feeding
 * `hash` the uncompressed bytes when given (then even a proven entry is read again).
 */
export async function verifyEntry(reader: ZipReader, entry: ZipEntry, signal?: AbortSignal, hash?: Hash): Promise<void> {
  if (!hash && reader.isVerified(entry)) return; // read whole meanwhile (the estimate reads a dex whole)
  if (entry.compressedSize <= VERIFY_WHOLE && entry.uncompressedSize <= INFLATE_IN_ONE_JOB) {
    const bytes = await reader.read(entry, { signal }); // verifies and marks the entry
    hash?.update(bytes);
    return;
  }
  await reader.forEachChunk(entry, (bytes) => void hash?.update(bytes), { signal }); // verifies and marks the entry
}

interface Verdict {
  verified: boolean;
  failure?: unknown;
  /** The uncompressed bytes' digest (with the `digest` option). */
  digest?: Buffer;
}

export interface BackgroundVerifierOptions {
  /** Compressed bytes from which a worker thread verifies (default VERIFY_WORKER_FROM). */
  workerFrom?: number;
  /**
   * Also take each entry's digest of its uncompressed bytes (a JAR signature's), on the same
   * pass that proves its CRC: `digest(entry)` hands it out, and the copy needs no inflating.
   */
  digest?: 'sha1' | 'sha256';
  /**
   * Worker threads to spread the entries over, at most (default: the pool's size, else one); one
   * per `workerFrom` bytes to prove, so a thread's start always has enough work to pay for itself.
   */
  threads?: number;
  /** Threads started ahead (VerifierThreads.forInput): taken before any new one is started. */
  pool?: VerifierThreads;
}

/**
 * Verifies, in the background and in the given order, the entries a conversion will copy raw:
 * their inflating runs on the thread pool (or, for many bytes, in worker threads, each entry dealt
 * in order to the one with the least work so far) while the main thread converts the resources,
 * so by the time the bundle is written their CRCs are already proven. `settle(entry)` waits for
 * one entry's verdict and throws its failure (CORRUPT_ENTRY, SIZE_MISMATCH, ABORTED ...); an
 * entry not covered (or not reached before `cancel`) settles as unverified, and the copy checks it.
 */
export class BackgroundVerifier {
  private readonly verdicts = new Map<number, Promise<Verdict>>();
  private readonly resolvers = new Map<number, (v: Verdict) => void>();
  private readonly stop = new AbortController();
  private readonly running: Promise<void>;
  private readonly workers: Worker[] = [];

  private readonly digestAlgorithm: 'sha1' | 'sha256' | undefined;
  private readonly pool: VerifierThreads | undefined;

  constructor(
    private readonly reader: ZipReader,
    entries: readonly ZipEntry[],
    private readonly signal?: AbortSignal,
    options: BackgroundVerifierOptions = {},
  ) {
    this.digestAlgorithm = options.digest;
    this.pool = options.pool;
    for (const e of entries) {
      if (this.verdicts.has(e.index)) continue;
      this.verdicts.set(e.index, new Promise<Verdict>((resolve) => this.resolvers.set(e.index, resolve)));
    }
    const bytes = entries.reduce((n, e) => n + e.compressedSize, 0);
    const workerFrom = options.workerFrom ?? VERIFY_WORKER_FROM;
    this.running =
      bytes >= workerFrom
        ? this.runInWorkers(entries, Math.max(1, Math.min(options.threads ?? options.pool?.size ?? 1, Math.floor(bytes / Math.max(1, workerFrom)) || 1)))
        : this.run(entries, signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal);
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
        const hash = this.digestAlgorithm ? createHash(this.digestAlgorithm) : undefined;
        await verifyEntry(this.reader, e, signal, hash);
        resolve({ verified: true, ...(hash ? { digest: hash.digest() } : {}) });
      } catch (failure) {
        // Stopped by cancel(), not by the caller's signal: unverified rather than failed.
        const cancelled = this.stop.signal.aborted && !this.signal?.aborted;
        resolve(cancelled ? { verified: false } : { verified: false, failure });
      }
    }
  }

  private async runInWorkers(entries: readonly ZipEntry[], threads: number): Promise<void> {
    const lists: WorkerEntry[][] = Array.from({ length: threads }, () => []);
    const load = new Array<number>(threads).fill(0);
    const byIndex = new Map<number, ZipEntry>();
    let fd = -1;
    for (const e of entries) {
      if (!this.resolvers.has(e.index) || byIndex.has(e.index)) continue;
      let range: { fd: number; start: number };
      try {
        range = this.reader.fileRange(e);
      } catch {
        continue; // a bad local header: left unverified, validation reports it
      }
      fd = range.fd;
      byIndex.set(e.index, e);
      // Each entry to the thread with the least work so far (inflated bytes: inflating and hashing
      // cost by them), in the given order: every thread works from the front of the list, where
      // the writing waits.
      let t = 0;
      for (let i = 1; i < threads; i++) if (load[i]! < load[t]!) t = i;
      load[t]! += Math.max(e.uncompressedSize, e.compressedSize) + 4096;
      lists[t]!.push([e.index, e.rawName, e.method, range.start, e.compressedSize, e.uncompressedSize, e.crc32]);
    }
    const settleRest = (): void => {
      for (const resolve of this.resolvers.values()) resolve({ verified: false });
      this.resolvers.clear();
    };
    if (byIndex.size === 0 || this.stop.signal.aborted) return settleRest();
    const onAbort = (): void => void this.cancel();
    this.signal?.addEventListener('abort', onAbort, { once: true });
    await Promise.all(lists.filter((l) => l.length > 0).map((list) => this.runWorker(fd, list, byIndex)));
    this.signal?.removeEventListener('abort', onAbort);
    // Aborted by the caller: what was not reached fails as ABORTED; stopped by cancel(): unverified.
    if (this.signal?.aborted) {
      for (const resolve of this.resolvers.values()) resolve({ verified: false, failure: new ConverterError('ABORTED') });
      this.resolvers.clear();
    }
    settleRest();
  }

  /** One verifier thread over `list`; resolves once it has posted every verdict, failed or been stopped. */
  private async runWorker(fd: number, list: readonly WorkerEntry[], byIndex: ReadonlyMap<number, ZipEntry>): Promise<void> {
    if (this.stop.signal.aborted) return;
    const pooled = this.pool?.take();
    const worker = pooled ?? startVerifierThread();
    this.workers.push(worker);
    if (worker.threadId < 0) return; // a started thread that has died since: its entries stay unverified
    worker.postMessage({ fd, entries: list, digest: this.digestAlgorithm });
    let left = list.length;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        worker.off('message', onVerdict);
        worker.off('error', done);
        worker.off('exit', done);
        resolve();
      };
      const onVerdict = ([index, code, detail, digest]: WorkerVerdict): void => {
        const settle = this.resolvers.get(index);
        this.resolvers.delete(index);
        if (!code) this.reader.markVerified(byIndex.get(index)!);
        const proven: Verdict = { verified: true, ...(digest ? { digest: Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength) } : {}) };
        settle?.(code ? { verified: false, failure: new ConverterError(code, detail) } : proven);
        if (--left > 0) return;
        done();
        // A thread of the pool goes back to it, idle: an APK's chunk hasher may take it next.
        if (pooled && this.pool) {
          this.workers.splice(this.workers.indexOf(worker), 1);
          this.pool.give(worker);
        } else void worker.terminate();
      };
      worker.on('message', onVerdict);
      worker.on('error', done);
      worker.on('exit', done);
    });
  }


  /** Waits for `entry`'s verdict: true when proven, false when not covered; throws when bad. */
  async settle(entry: ZipEntry): Promise<boolean> {
    const verdict = this.verdicts.get(entry.index);
    if (!verdict) return false;
    const v = await verdict;
    if (v.failure !== undefined) throw v.failure;
    return v.verified;
  }

  /**
   * Waits for `entry`'s verdict and, when proven, returns the digest of its uncompressed bytes
   * (with the `digest` option); undefined when not covered (the copy then proves and hashes it).
   * Throws when bad, as `settle`.
   */
  async digest(entry: ZipEntry): Promise<Buffer | undefined> {
    const verdict = this.verdicts.get(entry.index);
    if (!verdict) return undefined;
    const v = await verdict;
    if (v.failure !== undefined) throw v.failure;
    return v.verified ? v.digest : undefined;
  }

  /** Stops (the entry in progress is abandoned) and waits until no read is in flight. */
  async cancel(): Promise<void> {
    this.stop.abort();
    await Promise.all(this.workers.map((w) => w.terminate()));
    await this.running;
  }
}

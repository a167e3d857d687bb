import { createHash, type Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { createInflateRaw } from 'node:zlib';
import { ConverterError, isConverterError } from '../errors.js';
import { keepFlagsAcrossWorkerStart, v8FlagsToReapply } from '../v8flags.js';
import { METHOD_STORED, type ZipEntry } from './central.js';
import { EntryVerifier, INFLATE_IN_ONE_JOB, type ZipReader } from './reader.js';

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
  const check = sideVerifier(entry, hash);
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
  /** The uncompressed bytes' digest (with the `digest` option). */
  digest?: Buffer;
}

/**
 * Above this many compressed bytes to prove, the background verification runs in a worker thread of
 * its own (~30 ms of CPU and ~10 MB to start): on the main thread it only advances between the
 * resource conversion's synchronous stretches (each inflated chunk needs a callback there), so a
 * large APK's raw copies would still be unproven when writing starts. Below it, the main thread
 * keeps up and the worker would cost more than it saves.
 */
export const VERIFY_WORKER_FROM = 16 * 1024 * 1024;

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
 * Verifier threads started ahead (VerifierThreads.forInput): two on a machine with two cores or
 * more when the engine runs on the process's main thread — the CLI building a universal APK,
 * whose writing waits for each copied entry's v1 digest (the 100 MB bundle: ~175 MB to inflate
 * and ~210 MB to hash, 0.5–0.7 s of CPU: one thread would finish after the main thread) —, else
 * one. A server runs conversions in worker threads of its own pool, side by side: there the
 * cores are already shared out between them, and a second verifier thread per conversion would
 * only add its memory.
 */
function defaultThreads(): number {
  const { isMainThread } = process.getBuiltinModule('node:worker_threads');
  return isMainThread ? Math.min(2, availableParallelism()) : 1;
}

/** One entry for the worker: its index, raw name, method, data start in the file, sizes and CRC. */
type WorkerEntry = [index: number, rawName: string, method: number, start: number, csize: number, usize: number, crc: number];
/** What the worker posts per entry: its index, and on failure the error code and detail; else its digest when asked. */
type WorkerVerdict = [index: number, code?: 'CORRUPT_ENTRY' | 'SIZE_MISMATCH' | 'IO_ERROR', detail?: string, digest?: Uint8Array];

/**
 * The worker thread's program, as plain JavaScript text: it runs from the one-file CLI bundle as
 * from the sources, and no transpiler can slip a helper of its own into it (a function's
 * `toString()` under tsx or esbuild's keepNames calls `__name`, undefined in the worker). It waits
 * for its job, posted once (so it can be started before the job is known): a file descriptor (the
 * process's own open file), the entries and the digest algorithm. It reads each entry, inflates it
 * (deflated) or not (stored), checks the size and CRC as EntryVerifier does, with the same
 * messages, and posts one WorkerVerdict per entry, in order.
 *
 * Everything goes through two buffers allocated once: 1 MiB chunks of the entry are read into
 * `input` and inflated, synchronously on this thread (the thread pool stays free for the
 * conversion's own zlib work), into `output`, 256 KiB at a time, by one zlib inflater reset
 * between entries. `inflateRawSync` would allocate an output buffer per entry: 176 MB of fresh
 * memory for the 100 MB APK, which the worker's heap frees only once it counts as external
 * memory pressure (~40 MB of peak RSS, and the kernel zeroing every new page). The inflater is
 * driven through its handle's `writeSync`, what zlib's own sync functions call (same "unexpected
 * end of file" and data errors). A Node version without it gets no verdicts from the worker:
 * the copy then proves every entry itself, as below VERIFY_WORKER_FROM.
 */
const VERIFIER_THREAD = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { readSync } = process.getBuiltinModule('node:fs');
const zlib = process.getBuiltinModule('node:zlib');
const { createHash } = process.getBuiltinModule('node:crypto');
const { Z_NO_FLUSH, Z_FINISH } = zlib.constants;
/** The job, posted once: the file descriptor, the entries and the digest algorithm (or none). */
let fd = -1;
let digest;
// This thread's heap set-up reset some of the process's V8 flags: set again what the conversion asked for.
if (workerData.v8Flags) process.getBuiltinModule('node:v8').setFlagsFromString(workerData.v8Flags);
const CHUNK = 1024 * 1024;
const input = Buffer.allocUnsafe(CHUNK);
const output = Buffer.allocUnsafe(CHUNK / 4);
const fail = (failure, detail) => ({ failure, detail });
const isFailure = (e) => typeof e === 'object' && e !== null && 'failure' in e;
/** Reads \`len\` (at most CHUNK) bytes at \`start\` into \`input\`. */
function read(start, len) {
  for (let got = 0; got < len; ) {
    const n = readSync(fd, input, got, len - got, start + got);
    if (n === 0) throw fail('IO_ERROR', 'leitura além do fim em ' + (start + got));
    got += n;
  }
  return input.subarray(0, len);
}
/** The inflater, reused from entry to entry (reset before each); replaced after an error. */
function newInflater() {
  const z = zlib.createInflateRaw();
  z.on('error', () => undefined); // thrown by inflateChunk below, not an event to handle
  return z;
}
let inflater = newInflater();
const usable = typeof inflater._handle?.writeSync === 'function' && inflater._writeState instanceof Uint32Array;
/** Inflates one chunk of an entry into \`output\`, handing each filled part to \`add\`. */
function inflateChunk(chunk, last, add) {
  const handle = inflater._handle;
  const state = inflater._writeState; // [output space left, input left] after each call
  let at = 0;
  for (;;) {
    handle.writeSync(last ? Z_FINISH : Z_NO_FLUSH, chunk, at, chunk.length - at, output, 0, output.length);
    if (inflater.errored) throw inflater.errored;
    at = chunk.length - state[1];
    if (state[0] < output.length) add(output.subarray(0, output.length - state[0]));
    if (state[0] !== 0) return; // output space left: this chunk is consumed, or the stream ended
  }
}
/** Proves the entry; returns its digest when one is asked for. */
function verify([, name, method, start, csize, usize, crc]) {
  let count = 0;
  let sum = 0;
  const hash = digest ? createHash(digest) : undefined;
  const add = (c) => {
    count += c.length;
    if (count > usize) throw fail('SIZE_MISMATCH', name + ': descompacta além de ' + usize + ' bytes');
    sum = zlib.crc32(c, sum);
    if (hash) hash.update(c);
  };
  if (method === 0) {
    for (let done = 0; done < csize; done += CHUNK) add(read(start + done, Math.min(CHUNK, csize - done)));
  } else {
    try {
      inflater.reset();
      for (let done = 0; done < csize || done === 0; done += CHUNK) {
        const n = Math.min(CHUNK, csize - done);
        inflateChunk(read(start + done, n), done + n >= csize, add);
      }
    } catch (e) {
      if (isFailure(e)) throw e;
      inflater = newInflater();
      throw fail('CORRUPT_ENTRY', name + ': ' + e.message);
    }
  }
  if (count !== usize) throw fail('SIZE_MISMATCH', name + ': ' + count + ' bytes, declarados ' + usize);
  if (sum >>> 0 !== crc) throw fail('CORRUPT_ENTRY', name + ': CRC não confere');
  return hash ? hash.digest() : undefined;
}
parentPort.once('message', (job) => {
  fd = job.fd;
  digest = job.digest;
  if (!usable) process.exit(0);
  for (const e of job.entries) {
    try {
      const d = verify(e);
      parentPort.postMessage(d ? [e[0], undefined, undefined, d] : [e[0]]);
    } catch (err) {
      const f = isFailure(err) ? err : fail('IO_ERROR', e[1] + ': ' + (err && err.message));
      parentPort.postMessage([e[0], f.failure, f.detail]);
    }
  }
});
`;

/** A verifier thread, started: it waits for its job (see VERIFIER_THREAD). */
function startVerifierThread(): Worker {
  // Loaded here, not imported: every CLI command would load it at start otherwise (the bundle hoists imports).
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(VERIFIER_THREAD, { eval: true, workerData: { v8Flags: v8FlagsToReapply() } });
  keepFlagsAcrossWorkerStart(worker);
  return worker;
}

/**
 * Verifier threads started before their work is known: a thread's start (~30 ms of CPU, and up
 * to 0.2 s before it runs on a busy machine) then overlaps the reading of the input instead of
 * delaying the proofs the writing waits for. A BackgroundVerifier given them (`pool`) takes what
 * it needs; `close` ends the ones left idle.
 */
export class VerifierThreads {
  private readonly idle: Worker[] = [];

  private constructor(count: number) {
    for (let i = 0; i < count; i++) {
      const worker = startVerifierThread();
      worker.unref(); // an idle thread never keeps the process alive
      this.idle.push(worker);
    }
  }

  /**
   * The threads a BackgroundVerifier would start for an input of `bytes` (see VERIFY_WORKER_FROM
   * and defaultThreads), started now; undefined when it would start none.
   */
  static forInput(bytes: number): VerifierThreads | undefined {
    const count = Math.min(defaultThreads(), Math.floor(bytes / VERIFY_WORKER_FROM));
    return count > 0 ? new VerifierThreads(count) : undefined;
  }

  get size(): number {
    return this.idle.length;
  }

  /** An idle thread (now counted on by its taker), or undefined when none is left. */
  take(): Worker | undefined {
    const worker = this.idle.shift();
    worker?.ref();
    return worker;
  }

  /** Ends the threads nobody took. */
  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }
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
    const worker = this.pool?.take() ?? startVerifierThread();
    this.workers.push(worker);
    if (worker.threadId < 0) return; // a started thread that has died since: its entries stay unverified
    worker.postMessage({ fd, entries: list, digest: this.digestAlgorithm });
    let left = list.length;
    await new Promise<void>((resolve) => {
      worker.on('message', ([index, code, detail, digest]: WorkerVerdict) => {
        const settle = this.resolvers.get(index);
        this.resolvers.delete(index);
        if (!code) this.reader.markVerified(byIndex.get(index)!);
        const proven: Verdict = { verified: true, ...(digest ? { digest: Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength) } : {}) };
        settle?.(code ? { verified: false, failure: new ConverterError(code, detail) } : proven);
        if (--left === 0) void worker.terminate();
      });
      worker.on('error', () => resolve());
      worker.on('exit', () => resolve());
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

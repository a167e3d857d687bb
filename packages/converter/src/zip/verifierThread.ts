/**
 * The verifier threads: worker threads that prove the CRC of entries copied raw (BackgroundVerifier,
 * verify.ts) and take the chunk digests of an APK's signature as the APK is written (ChunkHasher,
 * sign/apk.ts), both from the files themselves, so the engine's thread only hands out positions.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { keepFlagsAcrossWorkerStart, v8FlagsToReapply } from '../v8flags.js';

/**
 * Above this many compressed bytes to prove, the background verification runs in a worker thread of
 * its own (~30 ms of CPU and ~10 MB to start): on the main thread it only advances between the
 * resource conversion's synchronous stretches (each inflated chunk needs a callback there), so a
 * large APK's raw copies would still be unproven when writing starts. Below it, the main thread
 * keeps up and the worker would cost more than it saves.
 */
export const VERIFY_WORKER_FROM = 16 * 1024 * 1024;

/**
 * Verifier threads started ahead (VerifierThreads.forInput): two on a machine with two cores or
 * more when the engine runs on the process's main thread — the CLI building a universal APK,
 * whose writing waits for each copied entry's v1 digest (the 100 MB bundle: ~175 MB to inflate
 * and ~210 MB to hash, 0.5–0.7 s of CPU: one thread would finish after the main thread) —, else
 * one. A server runs conversions in worker threads of its own pool, side by side: there the
 * cores are already shared out between them, and a second verifier thread per conversion would
 * only add its memory.
 */
export function defaultThreads(): number {
  const { isMainThread } = process.getBuiltinModule('node:worker_threads');
  return isMainThread ? Math.min(2, availableParallelism()) : 1;
}

/** One entry for the worker: its index, raw name, method, data start in the file, sizes and CRC. */
export type WorkerEntry = [index: number, rawName: string, method: number, start: number, csize: number, usize: number, crc: number];
/** What the worker posts per entry: its index, and on failure the error code and detail; else its digest when asked. */
export type WorkerVerdict = [index: number, code?: 'CORRUPT_ENTRY' | 'SIZE_MISMATCH' | 'IO_ERROR', detail?: string, digest?: Uint8Array];

/**
 * The worker thread's program, as plain JavaScript text: it runs from the one-file CLI bundle as
 * from the sources, and no transpiler can slip a helper of its own into it (a function's
 * `toString()` under tsx or esbuild's keepNames calls `__name`, undefined in the worker). It waits
 * for its job (so it can be started before the job is known), of one of two kinds. Verifying:
 * posted once, a file descriptor (the process's own open file), the entries and the digest
 * algorithm; it reads each entry, inflates it (deflated) or not (stored), checks the size and CRC
 * as EntryVerifier does, with the same messages, and posts one WorkerVerdict per entry, in order.
 * Hashing an APK's chunks (`{ chunks }`, ChunkHasher): posted as the APK is written, each with
 * how far the file's bytes are final; it reads and hashes the whole chunks up to there, and posts
 * every chunk's digest when asked (`{ chunkDigests }`), or what failed (`{ failure }`).
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
/** Reads \`len\` (at most CHUNK) bytes at \`start\` of \`from\` (the job's file by default) into \`input\`. */
function read(start, len, from = fd) {
  for (let got = 0; got < len; ) {
    const n = readSync(from, input, got, len - got, start + got);
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
/**
 * The chunk digests job (ChunkHasher): the SHA-256 or SHA-512 of each 1 MiB chunk of the file (the
 * APK Signature Scheme's chunk, prefixed with 0xa5 and its length), whole chunks as their bytes
 * are final; \`from\` drops the digests from that chunk on (its bytes were written again); with
 * \`end\` the last, partial chunk too, and every digest is posted back.
 */
const SIGNING_CHUNK = 1024 * 1024;
let chunkDigests = [];
function chunksJob({ fd: file, algorithm, upTo, from, end }) {
  if (from !== undefined && from < chunkDigests.length) chunkDigests.length = from;
  const limit = end === undefined ? upTo - (upTo % SIGNING_CHUNK) : end;
  for (let at = chunkDigests.length * SIGNING_CHUNK; at < limit; at += SIGNING_CHUNK) {
    const n = Math.min(SIGNING_CHUNK, limit - at);
    const prefix = Buffer.allocUnsafe(5);
    prefix[0] = 0xa5;
    prefix.writeUInt32LE(n, 1);
    chunkDigests.push(createHash(algorithm).update(prefix).update(read(at, n, file)).digest());
  }
  if (end !== undefined) parentPort.postMessage({ chunkDigests: Buffer.concat(chunkDigests) });
}
parentPort.on('message', (job) => {
  if (job.chunks) {
    try {
      chunksJob(job.chunks);
    } catch (err) {
      parentPort.postMessage({ failure: isFailure(err) ? err.detail : String(err && err.message) });
    }
    return;
  }
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
export function startVerifierThread(): Worker {
  // Loaded here, not imported: every CLI command would load it at start otherwise (the bundle hoists imports).
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const worker = new Worker(VERIFIER_THREAD, { eval: true, workerData: { v8Flags: v8FlagsToReapply() } });
  keepFlagsAcrossWorkerStart(worker);
  return worker;
}

const PRESTARTED = Symbol.for('aabify.prestartedVerifierThread');
type HoldsPrestarted = typeof globalThis & { [PRESTARTED]?: Worker };

/**
 * Starts a verifier thread for the conversion this process is about to run, before the engine is
 * even loaded: the release CLI's entry (cli/src/start.ts) calls it first thing for a local
 * conversion or universal APK of a large input, so the thread boots while the CLI's bundle is read
 * and compiled instead of after (the first ~40 ms of such a run, the other core idle). The next
 * VerifierThreads takes it before starting any. Left unused, it never keeps the process alive.
 * Kept on the global object: the entry and the bundle each hold their own copy of this module.
 */
export function prestartVerifierThread(): void {
  const holder = globalThis as HoldsPrestarted;
  if (holder[PRESTARTED]) return;
  const worker = startVerifierThread();
  worker.unref();
  holder[PRESTARTED] = worker;
}

/** The thread `prestartVerifierThread` started, once (then undefined). */
function takePrestartedThread(): Worker | undefined {
  const holder = globalThis as HoldsPrestarted;
  const worker = holder[PRESTARTED];
  holder[PRESTARTED] = undefined;
  return worker;
}

/**
 * Verifier threads started before their work is known: a thread's start (~30 ms of CPU, and up
 * to 0.2 s before it runs on a busy machine) then overlaps the reading of the input instead of
 * delaying the proofs the writing waits for. A BackgroundVerifier given them (`pool`) takes what
 * it needs; `chunkHasher` makes one a ChunkHasher; `close` ends the ones left idle.
 */
export class VerifierThreads {
  private readonly idle: Worker[] = [];
  private closed = false;

  private constructor(
    count: number,
    /** Whether threads given back wait for another job (an APK's chunk hasher), or end. */
    private readonly reuse: boolean,
  ) {
    for (let i = 0; i < count; i++) {
      const worker = takePrestartedThread() ?? startVerifierThread();
      worker.unref(); // an idle thread never keeps the process alive
      this.idle.push(worker);
    }
  }

  /**
   * The threads a BackgroundVerifier would start for an input of `bytes` (see VERIFY_WORKER_FROM
   * and defaultThreads), at most `most`, started now; undefined when it would start none. With
   * `reuse`, a thread given back when its entries are proven stays for an APK's chunk hasher.
   */
  static forInput(bytes: number, most = defaultThreads(), reuse = false): VerifierThreads | undefined {
    const count = Math.min(most, defaultThreads(), Math.floor(bytes / VERIFY_WORKER_FROM));
    return count > 0 ? new VerifierThreads(count, reuse) : undefined;
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

  /** Takes back a thread that has done its job (a BackgroundVerifier's): idle again with `reuse`, else (or after `close`) it ends. */
  give(worker: Worker): void {
    worker.unref();
    if (this.closed || !this.reuse) void worker.terminate();
    else this.idle.push(worker);
  }

  /**
   * The ChunkHasher of the APK open as `fd` for an APK signature's `algorithm`, on a thread of
   * this pool: an idle one, or the first one given back while the APK is written (a verifier
   * thread, once its entries are proven: the writing waits for the last of them, so it comes back
   * before the writing ends).
   */
  chunkHasher(fd: number, algorithm: 'sha256' | 'sha512'): ChunkHasher {
    return new ThreadChunkHasher(() => this.take(), fd, algorithm);
  }

  /** Ends the threads nobody took, and those given back later. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }
}

/**
 * The chunk digests of an APK's v2/v3 content digest (sign/apk.ts), over the entries of the APK
 * being written, taken by a verifier thread from the file itself: ~55–100 ms of hashing for a
 * 100 MB APK that the engine's thread, the longest of a build, no longer does.
 */
export interface ChunkHasher {
  /** The file's bytes [0, upTo) are written and final. */
  advance(upTo: number): void;
  /** Bytes from `position` on were written again: their chunks are hashed again. */
  rewritten(position: number): void;
  /**
   * The digest of every chunk of the file's bytes [0, end), all written (the last chunk may be
   * partial); undefined when the thread could not take them (it died, or a read failed).
   */
  digests(end: number): Promise<Buffer[] | undefined>;
  /** Ends the thread (after `digests`, or when the writing stops). */
  dispose(): void;
}

/** Positions are posted at most this often (bytes): the thread reads and hashes behind the writer. */
const HASH_STEP = 4 * 1024 * 1024;
/** The APK Signature Scheme's chunk (the worker's SIGNING_CHUNK). */
const SIGNING_CHUNK = 1024 * 1024;

class ThreadChunkHasher implements ChunkHasher {
  private worker: Worker | undefined;
  private failed = false;
  private fresh = true;
  private posted = 0;
  private pending: ((digests: Buffer[] | undefined) => void) | undefined;

  constructor(
    /** A thread, when one is free (asked again at each step until one is). */
    private readonly acquire: () => Worker | undefined,
    private readonly fd: number,
    private readonly algorithm: 'sha256' | 'sha512',
  ) {}

  advance(upTo: number): void {
    if (upTo - this.posted >= HASH_STEP) this.post({ upTo });
  }

  rewritten(position: number): void {
    const from = Math.floor(position / SIGNING_CHUNK);
    // Only chunks the thread may have read: a thread that has not started reads them as they are now.
    if (this.worker && from * SIGNING_CHUNK < this.posted) this.post({ upTo: from * SIGNING_CHUNK, from });
  }

  digests(end: number): Promise<Buffer[] | undefined> {
    const answer = new Promise<Buffer[] | undefined>((resolve) => (this.pending = resolve));
    if (!this.post({ upTo: end, end })) this.settle(undefined);
    return answer;
  }

  dispose(): void {
    this.failed = true;
    this.worker?.unref(); // never holds the process: its end is not waited for
    void this.worker?.terminate();
  }

  /** Posts a job to the thread (taking one first); false when there is none, or it failed. */
  private post(job: { upTo: number; from?: number; end?: number }): boolean {
    if (this.failed || !(this.worker ??= this.start())) return false;
    this.posted = job.upTo;
    // The first job starts afresh: a thread may have hashed another APK's chunks before.
    const from = this.fresh ? 0 : job.from;
    this.fresh = false;
    this.worker.postMessage({ chunks: { fd: this.fd, algorithm: this.algorithm, ...job, from } });
    return true;
  }

  private start(): Worker | undefined {
    const worker = this.acquire();
    if (!worker || worker.threadId < 0) {
      // Ended since it was started (threadId -1): its 'exit' has gone by, nothing would answer.
      this.failed = worker !== undefined;
      return undefined;
    }
    worker.on('message', (m: { chunkDigests?: unknown }) => {
      const all = m.chunkDigests;
      if (!(all instanceof Uint8Array)) {
        this.failed = true;
        return this.settle(undefined);
      }
      const size = this.algorithm === 'sha256' ? 32 : 64;
      const bytes = Buffer.from(all.buffer, all.byteOffset, all.byteLength);
      const digests: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += size) digests.push(bytes.subarray(at, at + size));
      this.settle(digests);
    });
    const gone = (): void => {
      this.failed = true;
      this.settle(undefined);
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    return worker;
  }

  private settle(digests: Buffer[] | undefined): void {
    const resolve = this.pending;
    this.pending = undefined;
    resolve?.(digests);
  }
}

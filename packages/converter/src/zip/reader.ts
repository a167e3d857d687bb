import { fstatSync, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { createInflateRaw, inflateRaw } from 'node:zlib';
import { ConverterError, isConverterError } from '../errors.js';
import {
  EOCD_SIZE,
  FLAG_DATA_DESCRIPTOR,
  LOCAL_HEADER_SIZE,
  MAX32,
  METHOD_STORED,
  SIG_LOCAL,
  parseCentralDirectory,
  parseEndRecord,
  type ZipEntry,
} from './central.js';
import { Crc32, crc32 } from './crc32.js';
import { DEFAULT_ZIP_LIMITS, type ZipLimits } from './limits.js';
import { decodeEntryName } from './names.js';
import { inflateRawHead, inflateRawSmall } from './smallZlib.js';
import { inflateSink } from './zlibSink.js';
import { megabyteBuffers } from './bufferPool.js';

const CHUNK = 1024 * 1024;
const SMALL_ENTRY = 1024 * 1024;
/**
 * A deflated entry up to this size (inflated) is inflated in one thread-pool job by `read`: as a
 * stream, each of its chunks waits for a turn of the main thread, which a conversion keeps busy
 * (a 2 MB dex read for the estimate then finished after the AAB was written).
 */
export const INFLATE_IN_ONE_JOB = 8 * 1024 * 1024;
/**
 * A deflated entry up to this size (inflated), and under SMALL_ENTRY compressed, is inflated
 * synchronously by `read` (microseconds); a larger one goes to the thread pool in one job even
 * when its compressed bytes are read synchronously: a 2 MB dex inflated here held the main
 * thread ~8 ms, while the second core was free.
 */
const INFLATE_HERE = 256 * 1024;

/** zlib's failure inflating `entry`, as the coded error a full read gives. */
function inflateError(entry: ZipEntry, e: unknown): ConverterError {
  if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
    return new ConverterError('SIZE_MISMATCH', `${entry.rawName}: descompacta além de ${entry.uncompressedSize} bytes`);
  }
  return new ConverterError('CORRUPT_ENTRY', `${entry.rawName}: ${(e as Error).message}`, { cause: e });
}
/**
 * Reads up to this size are made synchronously (pread on the handle's descriptor): a header or a
 * small entry comes from the page cache in microseconds, while an async read is a thread-pool
 * round trip queued behind the inflating and deflating that run there. The engine runs in the
 * CLI's own process or in a server worker thread, so no event loop that serves requests waits.
 */
const SYNC_READ = SMALL_ENTRY + 64 * 1024;
/** Inflated chunk size of `chunks()`: zlib's default (16 KiB) costs one event and one CRC call per 16 KiB. */
const INFLATE_CHUNK = 256 * 1024;
/** Compressed bytes `readHead` reads first (and multiplies by 4 while the head inflates to less than asked). */
const HEAD_CHUNK = 16 * 1024;
/** Compressed bytes `readHead` reads at most: a head that needs more (deflate that makes nothing) comes back short. */
const MAX_HEAD_COMPRESSED = 4 * 1024 * 1024;
/** Bytes read past a small entry's fixed local header for its name and extra field. */
const HEADER_SLACK = 512;

export interface ReadOptions {
  signal?: AbortSignal;
}

/** A zip stored inside another file (an APK stored uncompressed in an .apks/.xapk): where it lies. */
export interface ZipSlice {
  offset: number;
  length: number;
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ConverterError('ABORTED');
}

/**
 * An APK opened by its central directory. Entries are read on demand through one file handle;
 * nothing is extracted and the archive is never loaded whole.
 */
export class ZipReader {
  readonly entries: readonly ZipEntry[];
  readonly fileSize: number;
  private readonly byName: Map<string, ZipEntry>;
  private readonly dataOffsets = new Map<number, number>();
  private readonly verified = new Set<number>();
  /** Whole entries being inflated on the thread pool (`read`), by index. */
  private readonly inflatingWhole = new Map<number, Promise<Buffer>>();

  private constructor(
    private readonly handle: FileHandle,
    fileSize: number,
    entries: ZipEntry[],
    readonly limits: ZipLimits,
    /** Where the zip starts in the file (0, or a slice's offset): every read is shifted by it. */
    private readonly base: number,
  ) {
    this.fileSize = fileSize;
    this.entries = entries;
    this.byName = new Map(entries.filter((e) => !e.isDirectory).map((e) => [e.name, e]));
  }

  /** Opens `path`, or the zip that `slice` delimits inside it (read in place, never copied). */
  static async open(path: string, limits: Partial<ZipLimits> = {}, slice?: ZipSlice): Promise<ZipReader> {
    const lim: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...limits };
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (e) {
      throw new ConverterError('IO_ERROR', `abrir ${path}: ${(e as Error).message}`, { cause: e });
    }
    try {
      const fileSize = fstatSync(handle.fd).size;
      const base = slice?.offset ?? 0;
      if (slice && (slice.offset < 0 || slice.length < 0 || slice.offset + slice.length > fileSize)) {
        throw new ConverterError('TRUNCATED_ZIP', `${path}: trecho ${slice.offset}+${slice.length} além de ${fileSize} bytes`);
      }
      const size = slice?.length ?? fileSize;
      const readAt = (pos: number, len: number): Promise<Buffer> => readRange(handle, base + pos, len);
      const head = await readAt(0, Math.min(4, size));
      const looksLikeZip = head.length === 4 && head.readUInt32LE(0) === SIG_LOCAL;
      if (size < EOCD_SIZE) throw new ConverterError(looksLikeZip ? 'TRUNCATED_ZIP' : 'NOT_A_ZIP', `${size} bytes`);
      const tailLen = Math.min(size, EOCD_SIZE + 0xffff + 20);
      const end = await parseEndRecord(await readAt(size - tailLen, tailLen), size - tailLen, size, readAt).catch((e: unknown) => {
        if (isConverterError(e) && e.code === 'NOT_A_ZIP' && looksLikeZip) throw new ConverterError('TRUNCATED_ZIP', e.detail);
        throw e;
      });
      if (end.entryCount > lim.maxEntries) throw new ConverterError('TOO_MANY_ENTRIES', `${end.entryCount} entradas`);
      if (end.cdSize > lim.maxCentralDirectoryBytes) throw new ConverterError('TOO_MANY_ENTRIES', `diretório central de ${end.cdSize} bytes`);
      const cd = await readAt(end.cdOffset, end.cdSize);
      return new ZipReader(handle, size, parseCentralDirectory(cd, end, lim), lim, base);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** The open file's descriptor and where the entry's data starts in that file (a slice's offset added), for a reader in another thread. */
  fileRange(entry: ZipEntry): { fd: number; start: number } {
    return { fd: this.handle.fd, start: this.base + this.dataOffsetSync(entry) };
  }

  /** Whether the entry's CRC and sizes were already proven (a full read, or `markVerified`). */
  isVerified(entry: ZipEntry): boolean {
    return this.verified.has(entry.index);
  }

  markVerified(entry: ZipEntry): void {
    this.verified.add(entry.index);
  }

  get(name: string): ZipEntry | undefined {
    return this.byName.get(name);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Checks the local header against the central directory; returns where the data starts. */
  async dataOffset(entry: ZipEntry): Promise<number> {
    return this.dataOffsetSync(entry);
  }

  /** `dataOffset`, read synchronously (a local header is a few dozen bytes). */
  dataOffsetSync(entry: ZipEntry): number {
    const cached = this.dataOffsets.get(entry.index);
    if (cached !== undefined) return cached;
    const head = this.readAtSync(entry.localHeaderOffset, Math.min(LOCAL_HEADER_SIZE + HEADER_SLACK, this.fileSize - entry.localHeaderOffset));
    if (head.length < LOCAL_HEADER_SIZE) throw new ConverterError('TRUNCATED_ZIP', `leitura além do fim em ${entry.localHeaderOffset}`);
    const varLen = head.readUInt16LE(26) + head.readUInt16LE(28);
    const nameAndExtra =
      LOCAL_HEADER_SIZE + varLen <= head.length ? head.subarray(LOCAL_HEADER_SIZE, LOCAL_HEADER_SIZE + varLen) : this.readAtSync(entry.localHeaderOffset + LOCAL_HEADER_SIZE, varLen);
    return this.checkLocalHeader(entry, head.subarray(0, LOCAL_HEADER_SIZE), nameAndExtra);
  }

  /**
   * Copies `length` stored (compressed) bytes of the entry, from `start` within its data, into
   * `target` at `targetOffset`, synchronously: the writer's raw copies go straight from the
   * file into its output buffer, with no Buffer made per chunk.
   */
  readRawSync(entry: ZipEntry, start: number, target: Buffer, targetOffset: number, length: number): void {
    if (start < 0 || length < 0 || start + length > entry.compressedSize) {
      throw new ConverterError('INTERNAL', `${entry.rawName}: faixa ${start}+${length} fora da entrada`);
    }
    readExactlySync(this.handle.fd, target, targetOffset, length, this.base + this.dataOffsetSync(entry) + start);
  }

  /** `dataOffset` for a header already read: `h` its fixed 30 bytes, then its name and extra field. */
  private checkLocalHeader(entry: ZipEntry, h: Buffer, nameAndExtra: Buffer): number {
    const fail = (what: string): never => {
      throw new ConverterError('ENTRY_HEADER_MISMATCH', `${entry.rawName}: ${what}`);
    };
    if (h.readUInt32LE(0) !== SIG_LOCAL) fail('assinatura do cabeçalho local ausente');
    const flags = h.readUInt16LE(6);
    if (h.readUInt16LE(8) !== entry.method) fail('método de compressão diverge');
    if ((flags & 1) !== (entry.flags & 1)) fail('flag de criptografia diverge');
    const nameLen = h.readUInt16LE(26);
    const extraLen = h.readUInt16LE(28);
    const start = entry.localHeaderOffset + LOCAL_HEADER_SIZE + nameLen + extraLen;
    if (decodeEntryName(nameAndExtra.subarray(0, nameLen)) !== entry.rawName) fail('nome diverge');
    if (!(flags & FLAG_DATA_DESCRIPTOR)) {
      if (h.readUInt32LE(14) !== entry.crc32) fail('CRC diverge');
      let csize = h.readUInt32LE(18);
      let usize = h.readUInt32LE(22);
      if (csize === MAX32 || usize === MAX32) {
        const z = zip64LocalSizes(nameAndExtra.subarray(nameLen), usize, csize);
        csize = z.csize;
        usize = z.usize;
      }
      if (csize !== entry.compressedSize || usize !== entry.uncompressedSize) fail('tamanhos divergem');
    }
    if (start + entry.compressedSize > entry.dataLimit) {
      throw new ConverterError('SIZE_MISMATCH', `${entry.rawName}: dados ultrapassam a próxima entrada`);
    }
    this.dataOffsets.set(entry.index, start);
    return start;
  }

  /**
   * A small entry's stored bytes. Its local header, when not checked yet, comes in the same read
   * (one read instead of three); a header whose name and extra field are longer than guessed is
   * read the ordinary way.
   */
  private smallRaw(entry: ZipEntry): Buffer {
    const cached = this.dataOffsets.get(entry.index);
    if (cached !== undefined) return this.readAtSync(cached, entry.compressedSize);
    const span = Math.min(LOCAL_HEADER_SIZE + HEADER_SLACK + entry.compressedSize, this.fileSize - entry.localHeaderOffset);
    if (span >= LOCAL_HEADER_SIZE) {
      const buf = this.readAtSync(entry.localHeaderOffset, span);
      const varLen = buf.readUInt16LE(26) + buf.readUInt16LE(28);
      const at = LOCAL_HEADER_SIZE + varLen;
      if (at + entry.compressedSize <= buf.length) {
        this.checkLocalHeader(entry, buf.subarray(0, LOCAL_HEADER_SIZE), buf.subarray(LOCAL_HEADER_SIZE, at));
        return buf.subarray(at, at + entry.compressedSize);
      }
    }
    return this.readAtSync(this.dataOffsetSync(entry), entry.compressedSize);
  }

  /** `len` bytes at `pos` of the zip (the file, shifted by the slice's offset). */
  private readAt(pos: number, len: number): Promise<Buffer> {
    return readRange(this.handle, this.base + pos, len);
  }

  private readAtSync(pos: number, len: number): Buffer {
    const buf = Buffer.allocUnsafe(len);
    readExactlySync(this.handle.fd, buf, 0, len, this.base + pos);
    return buf;
  }

  /** The entry's stored (compressed) bytes, chunk by chunk, straight from the file. */
  async *rawChunks(entry: ZipEntry, opts: ReadOptions = {}): AsyncGenerator<Buffer> {
    const start = this.dataOffsetSync(entry);
    let done = 0;
    while (done < entry.compressedSize) {
      throwIfAborted(opts.signal);
      const len = Math.min(CHUNK, entry.compressedSize - done);
      yield await this.readAt(start + done, len);
      done += len;
    }
  }

  /**
   * `length` bytes of a stored entry's content from `start`, read where they lie (for sampling:
   * nothing before them is read, and the CRC, which covers the whole entry, is not checked).
   */
  async readStoredRange(entry: ZipEntry, start: number, length: number, opts: ReadOptions = {}): Promise<Buffer> {
    if (entry.method !== METHOD_STORED) throw new ConverterError('INTERNAL', `${entry.rawName}: leitura parcial de entrada comprimida`);
    if (start < 0 || length < 0 || start + length > entry.compressedSize) {
      throw new ConverterError('INTERNAL', `${entry.rawName}: faixa ${start}+${length} fora da entrada`);
    }
    throwIfAborted(opts.signal);
    return this.readAt(this.dataOffsetSync(entry) + start, length);
  }

  /**
   * The first `length` bytes of an entry's content (fewer when it is shorter), reading no more of
   * it than that takes: a stored entry's range, or a deflated entry's compressed head inflated as
   * far as it goes (read in growing steps, up to MAX_HEAD_COMPRESSED). Not checked against the CRC, which covers the
   * whole entry (checked when the entry is copied or read whole). For headers: ELF, images.
   */
  async readHead(entry: ZipEntry, length: number, opts: ReadOptions = {}): Promise<Buffer> {
    const want = Math.max(0, Math.min(length, entry.uncompressedSize));
    if (entry.method === METHOD_STORED) return this.readStoredRange(entry, 0, Math.min(want, entry.compressedSize), opts);
    const start = this.dataOffsetSync(entry);
    let take = Math.min(entry.compressedSize, HEAD_CHUNK);
    for (;;) {
      throwIfAborted(opts.signal);
      let out: Buffer;
      try {
        out = inflateRawHead(this.readAtSync(start, take), want);
      } catch (e) {
        throw inflateError(entry, e);
      }
      if (out.length >= want || take >= Math.min(entry.compressedSize, MAX_HEAD_COMPRESSED)) return out;
      take = Math.min(entry.compressedSize, MAX_HEAD_COMPRESSED, take * 4);
    }
  }

  /**
   * The entry's content, inflated and verified: never more bytes than declared (counted while
   * inflating, so a lying size cannot become a bomb), and the CRC must match.
   */
  async *chunks(entry: ZipEntry, opts: ReadOptions = {}): AsyncGenerator<Buffer> {
    const verifier = new EntryVerifier(entry);
    if (entry.method === METHOD_STORED) {
      for await (const c of this.rawChunks(entry, opts)) {
        verifier.add(c);
        yield c;
      }
      verifier.finish();
      this.verified.add(entry.index);
      return;
    }
    const source = Readable.from(this.rawChunks(entry, opts));
    const inflater = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    source.on('error', (e) => inflater.destroy(e));
    source.pipe(inflater);
    try {
      for await (const c of inflater as AsyncIterable<Buffer>) {
        verifier.add(c);
        yield c;
      }
    } catch (e) {
      throw isConverterError(e) ? e : new ConverterError('CORRUPT_ENTRY', `${entry.rawName}: ${(e as Error).message}`, { cause: e });
    } finally {
      source.destroy();
      inflater.destroy();
    }
    verifier.finish();
    this.verified.add(entry.index);
  }

  /**
   * The entry's stored (compressed) bytes a chunk at a time, read into one pooled buffer: `onRaw`
   * may use each chunk until the promise it returns settles (the buffer is read into again next),
   * and returns false to stop. No Buffer is made per chunk, none for V8 to free later (a server's
   * engine thread converts one APK after another). When `onRaw` fails, the buffer is left to the
   * GC instead of the pool: a zlib call may still be reading it.
   */
  async forEachRawChunk(entry: ZipEntry, onRaw: (bytes: Buffer) => Promise<boolean | void> | boolean | void, opts: ReadOptions = {}): Promise<void> {
    const input = megabyteBuffers.take();
    for (let done = 0; done < entry.compressedSize; ) {
      throwIfAborted(opts.signal);
      const n = Math.min(input.length, entry.compressedSize - done);
      this.readRawSync(entry, done, input, 0, n);
      done += n;
      if ((await onRaw(input.subarray(0, n))) === false) break;
    }
    megabyteBuffers.give(input);
  }

  /**
   * The entry's content handed to `onBytes` chunk by chunk, for a caller that only looks at the
   * bytes (copies some out, counts them): each chunk is valid only during the call. Inflated and
   * verified as `chunks` does, but read with `forEachRawChunk` and inflated into a reused buffer
   * (zlibSink.ts), a chunk at a time. `onBytes` returns false to stop early (the entry is then
   * not proven).
   */
  async forEachChunk(entry: ZipEntry, onBytes: (bytes: Buffer) => boolean | void, opts: ReadOptions = {}): Promise<void> {
    const verifier = new EntryVerifier(entry);
    let stopped = false;
    const look = (c: Buffer): void => {
      if (stopped) return;
      verifier.add(c);
      if (onBytes(c) === false) stopped = true;
    };
    const sink = entry.method === METHOD_STORED ? undefined : inflateSink(look);
    try {
      await this.forEachRawChunk(
        entry,
        async (bytes) => {
          if (!sink) look(bytes);
          else {
            void sink.push(bytes); // one chunk at most queued: never past the backlog
            await sink.idle(); // zlib must be done with the buffer before it is read into again
          }
          return !stopped;
        },
        opts,
      );
      if (sink && !stopped) await sink.end();
    } catch (e) {
      throw isConverterError(e) ? e : new ConverterError('CORRUPT_ENTRY', `${entry.rawName}: ${(e as Error).message}`, { cause: e });
    } finally {
      sink?.close();
    }
    if (stopped) return;
    verifier.finish();
    this.verified.add(entry.index);
  }

  /** Reads a whole entry into memory (manifest, table, XML); bounded by maxBufferedEntryBytes. */
  async read(entry: ZipEntry, opts: ReadOptions = {}): Promise<Buffer> {
    if (entry.uncompressedSize > this.limits.maxBufferedEntryBytes) {
      throw new ConverterError('INFLATED_TOO_LARGE', `${entry.rawName}: ${entry.uncompressedSize} bytes`);
    }
    throwIfAborted(opts.signal);
    const deflated = entry.method !== METHOD_STORED;
    let out: Buffer;
    if (entry.compressedSize <= SMALL_ENTRY && (!deflated || entry.uncompressedSize <= INFLATE_HERE)) {
      const raw = this.smallRaw(entry);
      try {
        out = deflated ? inflateRawSmall(raw, entry.uncompressedSize) : raw;
      } catch (e) {
        throw inflateError(entry, e);
      }
    } else if (deflated && entry.uncompressedSize <= INFLATE_IN_ONE_JOB) {
      // Two readers of one entry at once (the background verifier and the estimate, of a dex)
      // share one inflating; the bytes are read-only to every caller.
      let inflating = this.inflatingWhole.get(entry.index);
      if (!inflating) {
        inflating = this.inflateWhole(entry, opts).finally(() => this.inflatingWhole.delete(entry.index));
        this.inflatingWhole.set(entry.index, inflating);
      }
      return inflating;
    } else {
      const parts: Buffer[] = [];
      for await (const c of this.chunks(entry, opts)) parts.push(c);
      return Buffer.concat(parts);
    }
    return this.proven(entry, out);
  }

  /** An entry's bytes, checked against its declared size and CRC (a coded error if not), and marked proven. */
  private proven(entry: ZipEntry, out: Buffer): Buffer {
    const v = new EntryVerifier(entry);
    v.add(out);
    v.finish();
    this.verified.add(entry.index);
    return out;
  }

  private async inflateWhole(entry: ZipEntry, opts: ReadOptions): Promise<Buffer> {
    const raw: Buffer[] = [];
    if (entry.compressedSize <= SMALL_ENTRY) raw.push(this.smallRaw(entry));
    else for await (const c of this.rawChunks(entry, opts)) raw.push(c);
    const options = { chunkSize: Math.max(entry.uncompressedSize + 1024, 16 * 1024), maxOutputLength: entry.uncompressedSize + 1 };
    const out = await new Promise<Buffer>((resolve, reject) => {
      inflateRaw(raw.length === 1 ? raw[0]! : Buffer.concat(raw), options, (err, data) => (err ? reject(inflateError(entry, err)) : resolve(data)));
    });
    return this.proven(entry, out);
  }
}

/** Counts and checksums an entry's inflated bytes against what the directory declared. */
export class EntryVerifier {
  private readonly crc = new Crc32();
  private count = 0;
  constructor(private readonly entry: ZipEntry) {}
  add(c: Uint8Array): void {
    this.count += c.length;
    if (this.count > this.entry.uncompressedSize) {
      throw new ConverterError('SIZE_MISMATCH', `${this.entry.rawName}: descompacta além de ${this.entry.uncompressedSize} bytes`);
    }
    this.crc.update(c);
  }
  finish(): void {
    if (this.count !== this.entry.uncompressedSize) {
      throw new ConverterError('SIZE_MISMATCH', `${this.entry.rawName}: ${this.count} bytes, declarados ${this.entry.uncompressedSize}`);
    }
    if (this.crc.digest() !== this.entry.crc32) throw new ConverterError('CORRUPT_ENTRY', `${this.entry.rawName}: CRC não confere`);
  }
}

export { crc32 };

function zip64LocalSizes(extra: Buffer, usize: number, csize: number): { usize: number; csize: number } {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (id === 0x0001 && len >= 16 && p + 20 <= extra.length) {
      return { usize: Number(extra.readBigUInt64LE(p + 4)), csize: Number(extra.readBigUInt64LE(p + 12)) };
    }
    p += 4 + len;
  }
  return { usize, csize };
}

/**
 * `len` bytes at `pos` of the file: up to SYNC_READ synchronously (microseconds from the page
 * cache, where a thread-pool round trip could wait behind the conversion's zlib jobs: reopening
 * the written AAB to check it took ~50 ms so), larger reads on the thread pool.
 */
function readRange(handle: FileHandle, pos: number, len: number): Promise<Buffer> {
  if (len > SYNC_READ) return readExactly(handle, pos, len);
  const buf = Buffer.allocUnsafe(len);
  readExactlySync(handle.fd, buf, 0, len, pos);
  return Promise.resolve(buf);
}

async function readExactly(handle: FileHandle, pos: number, len: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await handle.read(buf, got, len - got, pos + got);
    if (bytesRead === 0) throw new ConverterError('TRUNCATED_ZIP', `leitura além do fim em ${pos + got}`);
    got += bytesRead;
  }
  return buf;
}

function readExactlySync(fd: number, buf: Buffer, offset: number, len: number, pos: number): void {
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, offset + got, len - got, pos + got);
    if (n === 0) throw new ConverterError('TRUNCATED_ZIP', `leitura além do fim em ${pos + got}`);
    got += n;
  }
}

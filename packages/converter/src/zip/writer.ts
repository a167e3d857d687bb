import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { deflateRaw } from 'node:zlib';
import { promisify } from 'node:util';
import { ConverterError } from '../errors.js';
import {
  FLAG_UTF8,
  MAX16,
  MAX32,
  METHOD_DEFLATED,
  METHOD_STORED,
  SIG_CENTRAL,
  SIG_EOCD,
  SIG_EOCD64,
  SIG_EOCD64_LOCATOR,
  SIG_LOCAL,
  type ZipEntry,
} from './central.js';
import { Crc32, crc32 } from './crc32.js';
import { checkEntryNameLength } from './names.js';
import { deflateRawSmall } from './smallZlib.js';
import { EntryVerifier, type ZipReader } from './reader.js';
import { sideVerifier } from './verify.js';

const deflateRawAsync = promisify(deflateRaw);
/** The output buffer: small entries and headers gather in it, raw copies are read into it. */
const OUT_BUFFER = 1024 * 1024;
/** Generated entries up to this size are deflated synchronously (see prepareBuffer). */
const DEFLATE_HERE = 16 * 1024;
/** A long copy lets the event loop run this often (abort signals, progress). */
const YIELD_EVERY = 8 * 1024 * 1024;

/** 1981-01-01 00:00:00, as bundletool and AGP stamp every entry: output bytes never depend on the clock. */
export const FIXED_DOS_TIME = 0;
export const FIXED_DOS_DATE = (1 << 9) | (1 << 5) | 1;

interface WrittenEntry {
  nameBytes: Buffer;
  flags: number;
  method: number;
  crc: number;
  csize: number;
  usize: number;
  offset: number;
}

export interface AddBufferOptions {
  /** Deflate the bytes (default true); stored anyway when deflating would not make them smaller. */
  compress?: boolean;
  /** The entry as `prepareBuffer(data, opts)` made it ahead of time (its deflating overlapped other work). */
  prepared?: Promise<PreparedBuffer>;
}

/** A buffer ready to be written: its CRC, and its body deflated or stored. */
export interface PreparedBuffer {
  crc: number;
  method: number;
  body: Uint8Array;
}

/**
 * What `addBuffer` writes for `data`, computed on its own: the caller can start it for the next
 * entries while one is written (deflating runs on the thread pool). Same bytes either way.
 */
export async function prepareBuffer(data: Uint8Array, opts: AddBufferOptions = {}): Promise<PreparedBuffer> {
  const crc = crc32(data);
  if (opts.compress !== false && data.length > 0) {
    // Small entries (a converted res/ XML: most generated files) are deflated here, in tens of
    // microseconds: as thread-pool jobs they queued behind the estimate's, and each next job
    // waited for a main-thread callback the raw copies' loop delayed (the 100 MB APK's 546
    // generated files held the writing up ~0.13 s for ~20 ms of deflating). Larger ones get
    // output space for the whole result in one go: zlib then deflates the entry in one thread-pool
    // job, without a main-thread callback per 16 KiB. The bytes are the same either way.
    const deflated =
      data.length <= DEFLATE_HERE
        ? deflateRawSmall(data)
        : await deflateRawAsync(data, { level: 6, chunkSize: Math.min(Math.max(data.length + 1024, 16 * 1024), 8 * 1024 * 1024) });
    if (deflated.length < data.length) return { crc, method: METHOD_DEFLATED, body: deflated };
  }
  return { crc, method: METHOD_STORED, body: data };
}

export interface AddRawOptions {
  signal?: AbortSignal;
  /** Inflate alongside the copy to prove the declared CRC and size (default true). */
  verify?: boolean;
  onBytes?(n: number): void;
}

export interface ZipWriterOptions {
  /** Write Zip64 records even for a small archive (tests). */
  forceZip64?: boolean;
  /**
   * Compute each entry's SHA-256 (of its uncompressed bytes) while writing it, for the JAR
   * signature: raw copies are hashed from the same side inflation that verifies their CRC.
   */
  digest?: boolean;
}

/**
 * Writes a zip front to back: local header, data, and at the end the central directory. Sizes
 * are known before each entry, so no data descriptors are needed. Bytes go through one reused
 * output buffer written with pwrite (synchronously: the engine runs in the CLI's process or a
 * server worker thread, and a write to the page cache costs less than a thread-pool round trip);
 * raw copies are read from the source straight into that buffer, so copying an entry makes no
 * Buffer per chunk. The SHA-256 of the archive is taken from the same buffer as it is written.
 */
export class ZipWriter {
  private offset = 0;
  private readonly written: WrittenEntry[] = [];
  private readonly names = new Set<string>();
  private readonly digestsByName = new Map<string, Buffer>();
  /** Local headers written before their CRC was known (whole files streamed in): patched at the end. */
  private readonly crcPatches: WrittenEntry[] = [];
  private readonly buffer = Buffer.allocUnsafe(OUT_BUFFER);
  private buffered = 0;
  /** Where the buffer's bytes go in the file (everything before is written). */
  private flushedTo = 0;
  /** The archive's SHA-256, over the bytes written so far (`hashed` of them: see `finish`). */
  private readonly archiveHash = createHash('sha256');
  private hashed = 0;
  private sinceYield = 0;
  private closed = false;

  private constructor(
    /** The archive's file descriptor: opened, written and closed synchronously (see the class). */
    private readonly out: number,
    private readonly options: ZipWriterOptions,
    private readonly path: string,
  ) {}

  /**
   * Creates `path`; fails if it exists (`wx`), so a concurrent writer is never clobbered. Opened
   * for reading too: `finish` reads back what it could not hash on the way (after a CRC patch).
   * Opened synchronously, like every write: as a thread-pool job the open waited behind the
   * deflates queued there (10–20 ms of a 1 MB conversion's ~0.2 s).
   */
  static async create(path: string, options: ZipWriterOptions = {}): Promise<ZipWriter> {
    try {
      return new ZipWriter(openSync(path, 'wx+'), options, path);
    } catch (e) {
      throw new ConverterError('IO_ERROR', `criar ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Compressed size of each entry written so far (what it weighs in the archive). */
  compressedSizes(): Map<string, number> {
    return new Map(this.written.map((w) => [w.nameBytes.toString('utf8'), w.csize]));
  }

  /**
   * Copies a whole file as a stored entry, read once: its CRC is computed on the way and written
   * into the local header when the archive is finished (the central directory has it anyway).
   */
  async addFile(name: string, path: string, size: number, opts: { signal?: AbortSignal; onBytes?(n: number): void } = {}): Promise<void> {
    this.writeLocalHeader(name, METHOD_STORED, 0, size, size);
    const entry = this.written[this.written.length - 1];
    this.crcPatches.push(entry);
    const crc = new Crc32();
    const hash = this.options.digest ? createHash('sha256') : undefined;
    const changed = (count: number): ConverterError =>
      new ConverterError('IO_ERROR', `${path}: o arquivo mudou de tamanho durante a conversão (${size} → ${count} bytes)`);
    let input: FileHandle;
    try {
      input = await open(path, 'r');
    } catch (e) {
      throw new ConverterError('IO_ERROR', `abrir ${path}: ${(e as Error).message}`, { cause: e });
    }
    try {
      // Read straight into the output buffer, like a raw copy.
      for (let done = 0; done < size; ) {
        if (opts.signal?.aborted) throw new ConverterError('ABORTED');
        if (this.buffered === OUT_BUFFER) this.flush();
        const got = readSync(input.fd, this.buffer, this.buffered, Math.min(size - done, OUT_BUFFER - this.buffered), done);
        if (got === 0) throw changed(done);
        const bytes = this.buffer.subarray(this.buffered, this.buffered + got);
        crc.update(bytes);
        hash?.update(bytes);
        this.buffered += got;
        this.offset += got;
        done += got;
        opts.onBytes?.(got);
        await this.yieldNow(got);
      }
      if (readSync(input.fd, Buffer.alloc(1), 0, 1, size) !== 0) throw changed((await input.stat()).size);
    } finally {
      await input.close();
    }
    entry.crc = crc.digest();
    if (hash) this.digestsByName.set(name, hash.digest());
  }

  get bytesWritten(): number {
    return this.offset;
  }

  get entryCount(): number {
    return this.written.length;
  }

  /** SHA-256 of each entry written so far, in write order (only with the `digest` option). */
  get digests(): ReadonlyMap<string, Buffer> {
    return this.digestsByName;
  }

  async addBuffer(name: string, data: Uint8Array, opts: AddBufferOptions = {}): Promise<void> {
    const { crc, method, body } = await (opts.prepared ?? prepareBuffer(data, opts));
    this.writeLocalHeader(name, method, crc, body.length, data.length);
    this.write(body);
    if (this.options.digest) this.digestsByName.set(name, createHash('sha256').update(data).digest());
  }

  /**
   * Copies an entry of `source` as its compressed bytes: same method, CRC and sizes. With
   * `verify`, the bytes are also checked: a stored entry's CRC taken as it is copied, a deflated
   * one inflated on the side (never re-deflated).
   */
  async addRaw(name: string, source: ZipReader, entry: ZipEntry, opts: AddRawOptions = {}): Promise<void> {
    const hash = this.options.digest ? createHash('sha256') : undefined;
    const verify = opts.verify !== false || hash !== undefined;
    source.dataOffsetSync(entry); // the local header is checked before anything is written
    this.writeLocalHeader(name, entry.method, entry.crc32, entry.compressedSize, entry.uncompressedSize);
    if (!verify || entry.method === METHOD_STORED) {
      // Straight from the source file into the output buffer; a stored entry is checksummed
      // there on the way (its bytes are its content: nothing to inflate).
      const check = verify ? new EntryVerifier(entry) : undefined;
      for (let done = 0; done < entry.compressedSize; ) {
        if (opts.signal?.aborted) throw new ConverterError('ABORTED');
        if (this.buffered === OUT_BUFFER) this.flush();
        const n = Math.min(entry.compressedSize - done, OUT_BUFFER - this.buffered);
        source.readRawSync(entry, done, this.buffer, this.buffered, n);
        if (check) {
          const bytes = this.buffer.subarray(this.buffered, this.buffered + n);
          check.add(bytes);
          hash?.update(bytes);
        }
        this.buffered += n;
        this.offset += n;
        done += n;
        opts.onBytes?.(n);
        await this.yieldNow(n);
      }
      check?.finish();
      if (hash) this.digestsByName.set(name, hash.digest());
      return;
    }
    const check = sideVerifier(entry, hash);
    try {
      for await (const chunk of source.rawChunks(entry, { signal: opts.signal })) {
        const backlog = check.push(chunk);
        this.write(chunk);
        if (backlog) await backlog;
        opts.onBytes?.(chunk.length);
      }
      await check.end();
    } finally {
      check.dispose();
    }
    if (hash) this.digestsByName.set(name, hash.digest());
  }

  /**
   * Writes the central directory and end records, then closes the file. Returns the archive's
   * size and SHA-256.
   */
  async finish(): Promise<{ size: number; sha256: string }> {
    const cdStart = this.offset;
    for (const w of this.written) this.write(centralHeader(w));
    const cdSize = this.offset - cdStart;
    const count = this.written.length;
    const zip64 = this.options.forceZip64 === true || count >= MAX16 || cdStart >= MAX32 || cdSize >= MAX32;
    if (zip64) {
      const recStart = this.offset;
      const rec = Buffer.alloc(56);
      rec.writeUInt32LE(SIG_EOCD64, 0);
      rec.writeBigUInt64LE(44n, 4);
      rec.writeUInt16LE(45, 12);
      rec.writeUInt16LE(45, 14);
      rec.writeBigUInt64LE(BigInt(count), 24);
      rec.writeBigUInt64LE(BigInt(count), 32);
      rec.writeBigUInt64LE(BigInt(cdSize), 40);
      rec.writeBigUInt64LE(BigInt(cdStart), 48);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(SIG_EOCD64_LOCATOR, 0);
      loc.writeBigUInt64LE(BigInt(recStart), 8);
      loc.writeUInt32LE(1, 16);
      this.write(Buffer.concat([rec, loc]));
    }
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(SIG_EOCD, 0);
    eocd.writeUInt16LE(zip64 ? MAX16 : count, 8);
    eocd.writeUInt16LE(zip64 ? MAX16 : count, 10);
    eocd.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
    eocd.writeUInt32LE(zip64 ? MAX32 : cdStart, 16);
    this.write(eocd);
    this.flush();
    for (const e of this.crcPatches) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(e.crc >>> 0, 0);
      this.pwrite(b, 0, 4, e.offset + 14);
    }
    // Bytes after the first patched header were not hashed as they went by: read back once.
    for (let at = this.hashed; at < this.offset; ) {
      const n = Math.min(OUT_BUFFER, this.offset - at);
      const got = readSync(this.out, this.buffer, 0, n, at);
      if (got === 0) throw new ConverterError('IO_ERROR', `${this.path}: arquivo gravado menor que ${this.offset} bytes`);
      this.archiveHash.update(this.buffer.subarray(0, got));
      at += got;
    }
    this.closed = true;
    try {
      closeSync(this.out);
    } catch (e) {
      throw new ConverterError('IO_ERROR', (e as Error).message, { cause: e });
    }
    return { size: this.offset, sha256: this.archiveHash.digest('hex') };
  }

  /** Stops writing and closes the file (the caller removes it). */
  async destroy(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.out);
    } catch {
      // already failing: the caller removes the file
    }
  }

  private writeLocalHeader(name: string, method: number, crc: number, csize: number, usize: number): void {
    if (this.names.has(name)) throw new ConverterError('INTERNAL', `entrada duplicada na saída: ${name}`);
    checkEntryNameLength(name); // planBundle refuses these first; never a RangeError from writeUInt16LE
    this.names.add(name);
    const nameBytes = Buffer.from(name, 'utf8');
    const flags = /^[\x20-\x7e]*$/.test(name) ? 0 : FLAG_UTF8;
    const zip64 = csize >= MAX32 || usize >= MAX32;
    const h = Buffer.alloc(30 + nameBytes.length + (zip64 ? 20 : 0));
    h.writeUInt32LE(SIG_LOCAL, 0);
    h.writeUInt16LE(zip64 ? 45 : 20, 4);
    h.writeUInt16LE(flags, 6);
    h.writeUInt16LE(method, 8);
    h.writeUInt16LE(FIXED_DOS_TIME, 10);
    h.writeUInt16LE(FIXED_DOS_DATE, 12);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(zip64 ? MAX32 : csize, 18);
    h.writeUInt32LE(zip64 ? MAX32 : usize, 22);
    h.writeUInt16LE(nameBytes.length, 26);
    h.writeUInt16LE(zip64 ? 20 : 0, 28);
    nameBytes.copy(h, 30);
    if (zip64) {
      const x = 30 + nameBytes.length;
      h.writeUInt16LE(0x0001, x);
      h.writeUInt16LE(16, x + 2);
      h.writeBigUInt64LE(BigInt(usize), x + 4);
      h.writeBigUInt64LE(BigInt(csize), x + 12);
    }
    this.written.push({ nameBytes, flags, method, crc, csize, usize, offset: this.offset });
    this.write(h);
  }

  /** Appends bytes: into the output buffer, or (a large chunk, the buffer flushed first) straight to the file. */
  private write(buf: Uint8Array): void {
    if (this.closed) throw new ConverterError('IO_ERROR', `${this.path}: arquivo já fechado`);
    if (this.buffered + buf.length > OUT_BUFFER) {
      this.flush();
      if (buf.length >= OUT_BUFFER / 2) {
        this.pwrite(buf, 0, buf.length, this.flushedTo);
        this.hash(buf);
        this.flushedTo += buf.length;
        this.offset += buf.length;
        return;
      }
    }
    this.buffer.set(buf, this.buffered);
    this.buffered += buf.length;
    this.offset += buf.length;
  }

  private flush(): void {
    if (this.buffered === 0) return;
    const bytes = this.buffer.subarray(0, this.buffered);
    this.pwrite(bytes, 0, bytes.length, this.flushedTo);
    this.hash(bytes);
    this.flushedTo += bytes.length;
    this.buffered = 0;
  }

  /** Hashes bytes as they reach the file, until a header waits for its CRC (then `finish` reads the rest back). */
  private hash(bytes: Uint8Array): void {
    if (this.crcPatches.length > 0 || this.hashed !== this.flushedTo) return;
    this.archiveHash.update(bytes);
    this.hashed += bytes.length;
  }

  private pwrite(buf: Uint8Array, offset: number, length: number, position: number): void {
    try {
      for (let done = 0; done < length; ) done += writeSync(this.out, buf, offset + done, length - done, position + done);
    } catch (e) {
      throw new ConverterError('IO_ERROR', `${this.path}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** Lets the event loop run (abort signals, progress) every few MiB of a long copy. */
  private async yieldNow(bytes: number): Promise<void> {
    this.sinceYield += bytes;
    if (this.sinceYield < YIELD_EVERY) return;
    this.sinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function centralHeader(w: WrittenEntry): Buffer {
  const big = { usize: w.usize >= MAX32, csize: w.csize >= MAX32, offset: w.offset >= MAX32 };
  const extraLen = (big.usize ? 8 : 0) + (big.csize ? 8 : 0) + (big.offset ? 8 : 0);
  const zip64 = extraLen > 0;
  const h = Buffer.alloc(46 + w.nameBytes.length + (zip64 ? 4 + extraLen : 0));
  h.writeUInt32LE(SIG_CENTRAL, 0);
  h.writeUInt16LE(zip64 ? 45 : 20, 4);
  h.writeUInt16LE(zip64 ? 45 : 20, 6);
  h.writeUInt16LE(w.flags, 8);
  h.writeUInt16LE(w.method, 10);
  h.writeUInt16LE(FIXED_DOS_TIME, 12);
  h.writeUInt16LE(FIXED_DOS_DATE, 14);
  h.writeUInt32LE(w.crc, 16);
  h.writeUInt32LE(big.csize ? MAX32 : w.csize, 20);
  h.writeUInt32LE(big.usize ? MAX32 : w.usize, 24);
  h.writeUInt16LE(w.nameBytes.length, 28);
  h.writeUInt16LE(zip64 ? 4 + extraLen : 0, 30);
  h.writeUInt32LE(big.offset ? MAX32 : w.offset, 42);
  w.nameBytes.copy(h, 46);
  if (zip64) {
    let x = 46 + w.nameBytes.length;
    h.writeUInt16LE(0x0001, x);
    h.writeUInt16LE(extraLen, x + 2);
    x += 4;
    for (const [on, v] of [[big.usize, w.usize], [big.csize, w.csize], [big.offset, w.offset]] as const) {
      if (on) {
        h.writeBigUInt64LE(BigInt(v), x);
        x += 8;
      }
    }
  }
  return h;
}

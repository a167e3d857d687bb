import { createHash, type Hash } from 'node:crypto';
import { closeSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
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
import { deflateSink } from './zlibSink.js';
import { megabyteBuffers } from './bufferPool.js';
import { EntryVerifier, type ZipReader } from './reader.js';
import { sideVerifier } from './verify.js';

const deflateRawAsync = promisify(deflateRaw);
/** The output buffer: small entries and headers gather in it, raw copies are read into it. */
const OUT_BUFFER = megabyteBuffers.size;
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
  /** Align a stored entry's data to this many bytes (an APK's zipalign; padding in the local header's extra field). */
  align?: number;
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
  /** Align a stored entry's data (see AddBufferOptions.align). */
  align?: number;
  /**
   * The entry's digest (the `digest` option's), taken where its CRC was proven: with `verify:
   * false` the bytes are then copied as they are, neither inflated nor hashed again.
   */
  digest?: Buffer;
}

/** The zip's tail as written without anything between the entries and the central directory. */
export interface ZipTail {
  /** Where the entries end (and the central directory would start). */
  entriesEnd: number;
  centralDirectory: Buffer;
  /** The end record as it would be with the central directory at `entriesEnd`. */
  endRecord: Buffer;
}

export interface FinishOptions {
  /**
   * Bytes to place between the entries and the central directory (an APK Signing Block), made
   * from what was written: the file is complete up to `entriesEnd` when this is called.
   */
  beforeCentralDirectory?(tail: ZipTail): Promise<Uint8Array> | Uint8Array;
}

/** The extra field id zipalign and apksigner use for alignment padding. */
const ALIGNMENT_EXTRA_ID = 0xd935;

export interface ZipWriterOptions {
  /** Write Zip64 records even for a small archive (tests). */
  forceZip64?: boolean;
  /**
   * Compute each entry's SHA-256 (of its uncompressed bytes) while writing it, for the JAR
   * signature: raw copies are hashed from the same side inflation that verifies their CRC.
   */
  digest?: boolean;
  /** The digest algorithm of `digest` (default sha256; an APK for old Android signs with sha1). */
  digestAlgorithm?: 'sha1' | 'sha256';
  /** Take the archive's SHA-256 (default true); without it `finish` reports ''. */
  hash?: boolean;
  /** Refuse what needs Zip64 (an APK: Android does not install one). */
  noZip64?: boolean;
  /** Sees every write, with its position in the file (an APK signature's digest taken on the way). */
  onWrite?(bytes: Uint8Array, position: number): void;
  /** Told the archive's file descriptor once it is open (a verifier thread reads the file by it). */
  onOpen?(fd: number): void;
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
  /** From a pool: a server's engine thread writes an archive per task (bufferPool.ts). */
  private buffer: Buffer = megabyteBuffers.take();
  private buffered = 0;
  /** Where the buffer's bytes go in the file (everything before is written). */
  private flushedTo = 0;
  /** The archive's SHA-256, over the bytes written so far (`hashed` of them: see `finish`). */
  private archiveHash = createHash('sha256');
  private hashed = 0;
  /** Bytes were rewritten: the archive is hashed from the file in `finish`. */
  private hashFromFile = false;
  /** An entry was dropped and written over: the file is truncated to its end in `finish`. */
  private rewound = false;
  private sinceYield = 0;
  private closed = false;

  private constructor(
    /** The archive's file descriptor: opened, written and closed synchronously (see the class). */
    private readonly out: number,
    private readonly options: ZipWriterOptions,
    private readonly path: string,
  ) {
    options.onOpen?.(out);
  }

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
    const hash = this.entryHash();
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
    this.writeLocalHeader(name, method, crc, body.length, data.length, method === METHOD_STORED ? opts.align : undefined);
    this.write(body);
    if (this.options.digest) this.digestsByName.set(name, (this.entryHash() as Hash).update(data).digest());
  }

  /**
   * Copies an entry of `source` as its compressed bytes: same method, CRC and sizes. With
   * `verify`, the bytes are also checked: a stored entry's CRC taken as it is copied, a deflated
   * one inflated on the side (never re-deflated).
   */
  async addRaw(name: string, source: ZipReader, entry: ZipEntry, opts: AddRawOptions = {}): Promise<void> {
    const hash = opts.digest ? undefined : this.entryHash();
    const verify = opts.verify !== false || hash !== undefined;
    source.dataOffsetSync(entry); // the local header is checked before anything is written
    this.writeLocalHeader(name, entry.method, entry.crc32, entry.compressedSize, entry.uncompressedSize, entry.method === METHOD_STORED ? opts.align : undefined);
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
      else if (opts.digest && this.options.digest) this.digestsByName.set(name, opts.digest);
      return;
    }
    // Each chunk copied and inflated on the side from the reader's pooled buffer.
    const check = sideVerifier(entry, hash);
    try {
      await source.forEachRawChunk(
        entry,
        async (bytes) => {
          check.push(bytes);
          this.write(bytes);
          await check.idle(); // the buffer is read into again next
          opts.onBytes?.(bytes.length);
        },
        { signal: opts.signal },
      );
      await check.end();
    } finally {
      check.dispose();
    }
    if (hash) this.digestsByName.set(name, hash.digest());
    else if (opts.digest && this.options.digest) this.digestsByName.set(name, opts.digest);
  }

  /**
   * Writes the central directory and end records, then closes the file. Returns the archive's
   * size and SHA-256 ('' when the writer was made with `hash: false`).
   */
  async finish(options: FinishOptions = {}): Promise<{ size: number; sha256: string }> {
    const entriesEnd = this.offset;
    const centralDirectory = Buffer.concat(this.written.map(centralHeader));
    const count = this.written.length;
    const zip64 = this.options.forceZip64 === true || count >= MAX16 || entriesEnd >= MAX32 || centralDirectory.length >= MAX32;
    if (zip64 && this.options.noZip64) throw new ConverterError('UNSUPPORTED_AAB', `${count} entradas ou ${entriesEnd} bytes: o APK precisaria de Zip64`);
    let inserted: Uint8Array = new Uint8Array(0);
    if (options.beforeCentralDirectory) {
      this.flush();
      inserted = await options.beforeCentralDirectory({ entriesEnd, centralDirectory, endRecord: endRecord(count, centralDirectory.length, entriesEnd, false) });
      this.write(inserted);
    }
    const cdStart = entriesEnd + inserted.length;
    this.write(centralDirectory);
    if (zip64) {
      const recStart = this.offset;
      const rec = Buffer.alloc(56);
      rec.writeUInt32LE(SIG_EOCD64, 0);
      rec.writeBigUInt64LE(44n, 4);
      rec.writeUInt16LE(45, 12);
      rec.writeUInt16LE(45, 14);
      rec.writeBigUInt64LE(BigInt(count), 24);
      rec.writeBigUInt64LE(BigInt(count), 32);
      rec.writeBigUInt64LE(BigInt(centralDirectory.length), 40);
      rec.writeBigUInt64LE(BigInt(cdStart), 48);
      const loc = Buffer.alloc(20);
      loc.writeUInt32LE(SIG_EOCD64_LOCATOR, 0);
      loc.writeBigUInt64LE(BigInt(recStart), 8);
      loc.writeUInt32LE(1, 16);
      this.write(Buffer.concat([rec, loc]));
    }
    this.write(endRecord(count, centralDirectory.length, cdStart, zip64));
    this.flush();
    for (const e of this.crcPatches) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(e.crc >>> 0, 0);
      this.pwrite(b, 0, 4, e.offset + 14);
    }
    if (this.rewound) {
      try {
        ftruncateSync(this.out, this.offset);
      } catch (e) {
        throw new ConverterError('IO_ERROR', `${this.path}: ${(e as Error).message}`, { cause: e });
      }
    }
    // Bytes after the first patched header were not hashed as they went by: read back once.
    for (let at = this.hashed; this.options.hash !== false && at < this.offset; ) {
      const n = Math.min(OUT_BUFFER, this.offset - at);
      const got = readSync(this.out, this.buffer, 0, n, at);
      if (got === 0) throw new ConverterError('IO_ERROR', `${this.path}: arquivo gravado menor que ${this.offset} bytes`);
      this.archiveHash.update(this.buffer.subarray(0, got));
      at += got;
    }
    this.close();
    return { size: this.offset, sha256: this.options.hash === false ? '' : this.archiveHash.digest('hex') };
  }

  /**
   * Writes a deflated entry of `source` stored: inflated on the way (its CRC and size proven), the
   * data aligned as `align` asks.
   */
  async addInflated(name: string, source: ZipReader, entry: ZipEntry, opts: AddRawOptions = {}): Promise<void> {
    const hash = this.entryHash();
    this.writeLocalHeader(name, METHOD_STORED, entry.crc32, entry.uncompressedSize, entry.uncompressedSize, opts.align);
    for await (const chunk of source.chunks(entry, { signal: opts.signal })) {
      this.write(chunk);
      hash?.update(chunk);
      opts.onBytes?.(chunk.length);
    }
    if (hash) this.digestsByName.set(name, hash.digest());
  }

  /**
   * Writes a stored entry of `source` deflated at `level`, streamed; then asks `keep(compressed,
   * uncompressed)` and, when deflating did not pay, writes it again stored (aligned as `align`
   * asks). Returns whether the entry ended up deflated.
   */
  async addDeflated(
    name: string,
    source: ZipReader,
    entry: ZipEntry,
    level: number,
    keep: (compressedSize: number, uncompressedSize: number) => boolean,
    opts: AddRawOptions = {},
  ): Promise<boolean> {
    if (entry.method !== METHOD_STORED) throw new ConverterError('INTERNAL', `${entry.rawName}: addDeflated de entrada comprimida`);
    const start = this.offset;
    const hash = this.entryHash();
    this.writeLocalHeader(name, METHOD_DEFLATED, entry.crc32, 0, entry.uncompressedSize);
    const header = this.written[this.written.length - 1];
    let csize = 0;
    const deflater = deflateSink(level, (c) => {
      csize += c.length;
      this.write(c);
    });
    const check = new EntryVerifier(entry);
    try {
      await source.forEachRawChunk(
        entry,
        async (bytes) => {
          check.add(bytes);
          hash?.update(bytes);
          void deflater.push(bytes); // one chunk at most queued: never past the backlog
          await deflater.idle(); // the buffer is read into again next
        },
        { signal: opts.signal },
      );
      await deflater.end();
    } finally {
      deflater.close();
    }
    check.finish();
    if (!keep(csize, entry.uncompressedSize)) {
      this.rewind(start);
      await this.addRaw(name, source, entry, { ...opts, verify: false });
      return false;
    }
    header.csize = csize;
    this.flush();
    const b = Buffer.alloc(4);
    b.writeUInt32LE(csize, 0);
    this.pwrite(b, 0, 4, header.offset + 18);
    this.invalidateHash();
    if (hash) this.digestsByName.set(name, hash.digest());
    return true;
  }

  /** Drops the last entry (its header started at `start`): the next bytes are written over it. */
  private rewind(start: number): void {
    const last = this.written.pop();
    if (!last || last.offset !== start) throw new ConverterError('INTERNAL', `${this.path}: rewind fora do último registro`);
    this.names.delete(last.nameBytes.toString('utf8'));
    this.digestsByName.delete(last.nameBytes.toString('utf8'));
    if (start >= this.flushedTo) {
      this.buffered = start - this.flushedTo;
    } else {
      this.buffered = 0;
      this.flushedTo = start;
    }
    this.offset = start;
    this.rewound = true;
    this.invalidateHash();
  }

  /** Bytes already written changed: the archive hash is taken again from the file at the end. */
  private invalidateHash(): void {
    if (this.options.hash === false || this.hashed === 0) return;
    this.archiveHash = createHash('sha256');
    this.hashed = 0;
    this.hashFromFile = true;
  }

  /** The hash an entry's digest is taken with, when digests are asked for. */
  private entryHash(): Hash | undefined {
    return this.options.digest ? createHash(this.options.digestAlgorithm ?? 'sha256') : undefined;
  }

  /** Stops writing and closes the file (the caller removes it). */
  async destroy(): Promise<void> {
    if (this.closed) return;
    try {
      this.close();
    } catch {
      // already failing: the caller removes the file
    }
  }

  /**
   * Closes the file; the output buffer goes to the next writer. A copy still under way here (a
   * writer destroyed mid-entry) then fails on an empty buffer instead of writing into that one.
   */
  private close(): void {
    this.closed = true;
    megabyteBuffers.give(this.buffer);
    this.buffer = Buffer.alloc(0);
    try {
      closeSync(this.out);
    } catch (e) {
      throw new ConverterError('IO_ERROR', (e as Error).message, { cause: e });
    }
  }

  private writeLocalHeader(name: string, method: number, crc: number, csize: number, usize: number, align?: number): void {
    if (this.names.has(name)) throw new ConverterError('INTERNAL', `entrada duplicada na saída: ${name}`);
    checkEntryNameLength(name); // planBundle refuses these first; never a RangeError from writeUInt16LE
    this.names.add(name);
    const nameBytes = Buffer.from(name, 'utf8');
    const flags = /^[\x20-\x7e]*$/.test(name) ? 0 : FLAG_UTF8;
    const zip64 = csize >= MAX32 || usize >= MAX32;
    if (zip64 && this.options.noZip64) throw new ConverterError('UNSUPPORTED_AAB', `${name}: arquivo de 4 GiB ou mais (o APK precisaria de Zip64)`);
    // zipalign's padding: an extra field (id, size, alignment) whose zeros put the data on the boundary.
    let padding = 0;
    if (align !== undefined && align > 1 && !zip64) {
      const dataAt = this.offset + 30 + nameBytes.length + 6;
      padding = 6 + ((align - (dataAt % align)) % align);
    }
    const h = Buffer.alloc(30 + nameBytes.length + (zip64 ? 20 : padding));
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
    h.writeUInt16LE(zip64 ? 20 : padding, 28);
    nameBytes.copy(h, 30);
    if (padding > 0) {
      const x = 30 + nameBytes.length;
      h.writeUInt16LE(ALIGNMENT_EXTRA_ID, x);
      h.writeUInt16LE(padding - 4, x + 2);
      h.writeUInt16LE(align as number, x + 4);
    }
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
    if (this.options.hash === false || this.hashFromFile || this.crcPatches.length > 0 || this.hashed !== this.flushedTo) return;
    this.archiveHash.update(bytes);
    this.hashed += bytes.length;
  }

  private pwrite(buf: Uint8Array, offset: number, length: number, position: number): void {
    try {
      for (let done = 0; done < length; ) done += writeSync(this.out, buf, offset + done, length - done, position + done);
    } catch (e) {
      throw new ConverterError('IO_ERROR', `${this.path}: ${(e as Error).message}`, { cause: e });
    }
    this.options.onWrite?.(buf.subarray(offset, offset + length), position);
  }

  /** Lets the event loop run (abort signals, progress) every few MiB of a long copy. */
  private async yieldNow(bytes: number): Promise<void> {
    this.sinceYield += bytes;
    if (this.sinceYield < YIELD_EVERY) return;
    this.sinceYield = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function endRecord(count: number, cdSize: number, cdStart: number, zip64: boolean): Buffer {
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(SIG_EOCD, 0);
  eocd.writeUInt16LE(zip64 ? MAX16 : count, 8);
  eocd.writeUInt16LE(zip64 ? MAX16 : count, 10);
  eocd.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
  eocd.writeUInt32LE(zip64 ? MAX32 : cdStart, 16);
  return eocd;
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

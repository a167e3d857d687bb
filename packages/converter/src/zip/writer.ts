import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { once } from 'node:events';
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
import { type ZipReader } from './reader.js';
import { sideVerifier } from './verify.js';

const deflateRawAsync = promisify(deflateRaw);
/** Bytes the file stream buffers before a write waits for it: reads and writes overlap. */
const WRITE_HIGH_WATER = 4 * 1024 * 1024;

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
    const deflated = await deflateRawAsync(data, { level: 6 });
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
 * Writes a zip front to back through a file stream: local header, data, and at the end the
 * central directory. Sizes are known before each entry, so no data descriptors are needed.
 */
export class ZipWriter {
  private offset = 0;
  private readonly written: WrittenEntry[] = [];
  private readonly names = new Set<string>();
  private readonly digestsByName = new Map<string, Buffer>();
  /** Local headers written before their CRC was known (whole files streamed in): patched at the end. */
  private readonly crcPatches: WrittenEntry[] = [];
  private failure: Error | undefined;


  private constructor(
    private readonly out: WriteStream,
    private readonly options: ZipWriterOptions,
    private readonly path: string,
  ) {
    out.on('error', (e) => {
      this.failure = e;
    });
  }

  /** Creates `path`; fails if it exists (`wx`), so a concurrent writer is never clobbered. */
  static async create(path: string, options: ZipWriterOptions = {}): Promise<ZipWriter> {
    const out = createWriteStream(path, { flags: 'wx', highWaterMark: WRITE_HIGH_WATER });
    try {
      await once(out, 'open');
    } catch (e) {
      throw new ConverterError('IO_ERROR', `criar ${path}: ${(e as Error).message}`, { cause: e });
    }
    return new ZipWriter(out, options, path);
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
    await this.writeLocalHeader(name, METHOD_STORED, 0, size, size);
    const entry = this.written[this.written.length - 1];
    const crc = new Crc32();
    const hash = this.options.digest ? createHash('sha256') : undefined;
    let count = 0;
    for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
      if (opts.signal?.aborted) throw new ConverterError('ABORTED');
      count += chunk.length;
      if (count > size) break;
      crc.update(chunk);
      hash?.update(chunk);
      await this.write(chunk);
      opts.onBytes?.(chunk.length);
    }
    if (count !== size) throw new ConverterError('IO_ERROR', `${path}: o arquivo mudou de tamanho durante a conversão (${size} → ${count} bytes)`);
    entry.crc = crc.digest();
    this.crcPatches.push(entry);
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
    await this.writeLocalHeader(name, method, crc, body.length, data.length);
    await this.write(body);
    if (this.options.digest) this.digestsByName.set(name, createHash('sha256').update(data).digest());
  }

  /**
   * Copies an entry of `source` as its compressed bytes: same method, CRC and sizes. With
   * `verify`, the bytes are also inflated on the side and checked, never re-deflated.
   */
  async addRaw(name: string, source: ZipReader, entry: ZipEntry, opts: AddRawOptions = {}): Promise<void> {
    const hash = this.options.digest ? createHash('sha256') : undefined;
    const verify = opts.verify !== false || hash !== undefined;
    await this.writeLocalHeader(name, entry.method, entry.crc32, entry.compressedSize, entry.uncompressedSize);
    const check = verify ? sideVerifier(entry, hash) : undefined;
    try {
      for await (const chunk of source.rawChunks(entry, { signal: opts.signal })) {
        const backlog = check?.push(chunk);
        await this.write(chunk);
        if (backlog) await backlog;
        opts.onBytes?.(chunk.length);
      }
      await check?.end();
    } finally {
      check?.dispose();
    }
    if (hash) this.digestsByName.set(name, hash.digest());
  }

  /** Writes the central directory and end records, then closes the file. Returns the archive size. */
  async finish(): Promise<number> {
    const cdStart = this.offset;
    for (const w of this.written) await this.write(centralHeader(w));
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
      await this.write(Buffer.concat([rec, loc]));
    }
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(SIG_EOCD, 0);
    eocd.writeUInt16LE(zip64 ? MAX16 : count, 8);
    eocd.writeUInt16LE(zip64 ? MAX16 : count, 10);
    eocd.writeUInt32LE(zip64 ? MAX32 : cdSize, 12);
    eocd.writeUInt32LE(zip64 ? MAX32 : cdStart, 16);
    await this.write(eocd);
    this.out.end();
    await once(this.out, 'close').catch((e: unknown) => {
      this.failure ??= e as Error;
    });
    if (this.failure) throw new ConverterError('IO_ERROR', this.failure.message, { cause: this.failure });
    if (this.crcPatches.length > 0) {
      const h = await open(this.path, 'r+');
      try {
        for (const e of this.crcPatches) {
          const b = Buffer.alloc(4);
          b.writeUInt32LE(e.crc >>> 0, 0);
          await h.write(b, 0, 4, e.offset + 14);
        }
      } finally {
        await h.close();
      }
    }
    return this.offset;
  }

  /** Stops writing and closes the file (the caller removes it). */
  async destroy(): Promise<void> {
    if (this.out.closed) return;
    const closed = once(this.out, 'close').catch(() => undefined);
    this.out.destroy();
    await closed;
  }

  private async writeLocalHeader(name: string, method: number, crc: number, csize: number, usize: number): Promise<void> {
    if (this.names.has(name)) throw new ConverterError('INTERNAL', `entrada duplicada na saída: ${name}`);
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
    await this.write(h);
  }

  private async write(buf: Uint8Array): Promise<void> {
    if (this.failure) throw new ConverterError('IO_ERROR', this.failure.message, { cause: this.failure });
    this.offset += buf.length;
    if (!this.out.write(buf)) {
      try {
        await once(this.out, 'drain');
      } catch (e) {
        throw new ConverterError('IO_ERROR', (e as Error).message, { cause: e });
      }
    }
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

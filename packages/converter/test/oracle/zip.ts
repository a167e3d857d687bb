/**
 * A small, independent zip reader and writer for the test harness and the benchmarks. It is
 * deliberately not the engine's zip module: an oracle must not share code with what it checks.
 * Reads the whole archive into memory (test inputs are a few MB); writes through a file
 * descriptor so the benchmark can produce a 100 MB APK without holding it.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

export class ZipArchive {
  readonly entries: ZipEntry[];
  private readonly data: Buffer;

  constructor(data: Buffer) {
    this.data = data;
    this.entries = readCentralDirectory(data);
  }

  static open(path: string): ZipArchive {
    return new ZipArchive(readFileSync(path));
  }

  /** Entries by name; for duplicate names the one the central directory lists last wins. */
  byName(): Map<string, ZipEntry> {
    const map = new Map<string, ZipEntry>();
    for (const e of this.entries) map.set(e.name, e);
    return map;
  }

  /** The entry's bytes as stored (still compressed when deflated). */
  raw(entry: ZipEntry): Buffer {
    const at = entry.localHeaderOffset;
    if (this.data.readUInt32LE(at) !== 0x04034b50) throw new Error(`bad local header for ${entry.name}`);
    const start = at + 30 + this.data.readUInt16LE(at + 26) + this.data.readUInt16LE(at + 28);
    return this.data.subarray(start, start + entry.compressedSize);
  }

  /** The entry's content, inflated. */
  read(entry: ZipEntry): Buffer {
    const raw = this.raw(entry);
    if (entry.method === 0) return raw;
    if (entry.method === 8) return inflateRawSync(raw);
    throw new Error(`unsupported compression method ${entry.method} for ${entry.name}`);
  }
}

function readCentralDirectory(data: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 22 - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip: no end of central directory record');
  let count = data.readUInt16LE(eocd + 10);
  let cdOffset = data.readUInt32LE(eocd + 16);
  const locator = eocd - 20;
  if (locator >= 0 && data.readUInt32LE(locator) === 0x07064b50) {
    const z64 = Number(data.readBigUInt64LE(locator + 8));
    count = Number(data.readBigUInt64LE(z64 + 32));
    cdOffset = Number(data.readBigUInt64LE(z64 + 48));
  }
  const entries: ZipEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory header #${i}`);
    const nameLen = data.readUInt16LE(p + 28);
    const extraLen = data.readUInt16LE(p + 30);
    const commentLen = data.readUInt16LE(p + 32);
    const entry: ZipEntry = {
      name: data.toString('utf8', p + 46, p + 46 + nameLen),
      method: data.readUInt16LE(p + 10),
      crc: data.readUInt32LE(p + 16),
      compressedSize: data.readUInt32LE(p + 20),
      size: data.readUInt32LE(p + 24),
      localHeaderOffset: data.readUInt32LE(p + 42),
    };
    applyZip64Extra(entry, data.subarray(p + 46 + nameLen, p + 46 + nameLen + extraLen));
    entries.push(entry);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function applyZip64Extra(entry: ZipEntry, extra: Buffer): void {
  for (let q = 0; q + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(q);
    const len = extra.readUInt16LE(q + 2);
    if (id === 0x0001) {
      let r = q + 4;
      const next = (): number => {
        const v = Number(extra.readBigUInt64LE(r));
        r += 8;
        return v;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
    }
    q += 4 + len;
  }
}

export interface AddOptions {
  /** 'store' keeps bytes as they are; 'deflate' compresses them. */
  method: 'store' | 'deflate';
  /** Align a stored entry's data to this many bytes (4 like zipalign, 4096 for .so files). */
  align?: number;
}

/** Writes a zip sequentially (no zip64: every offset and size must stay under 4 GiB). */
export class ZipWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly central: Buffer[] = [];
  private count = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  /** Bytes written so far (the archive's size before the central directory). */
  get bytesWritten(): number {
    return this.offset;
  }

  add(name: string, content: Buffer, options: AddOptions): void {
    const method = options.method === 'deflate' ? 8 : 0;
    const data = method === 8 ? deflateRawSync(content, { level: 6 }) : content;
    this.addRaw(name, method, crc32(content), data, content.length, method === 0 ? options.align : undefined);
  }

  /** Adds already compressed bytes, e.g. copied from another archive. */
  addRaw(name: string, method: number, crc: number, data: Buffer, size: number, align?: number): void {
    const nameBytes = Buffer.from(name, 'utf8');
    let extra = Buffer.alloc(0);
    if (align && align > 1) {
      const dataStart = this.offset + 30 + nameBytes.length;
      const pad = (align - (dataStart % align)) % align;
      extra = Buffer.alloc(pad);
    }
    const flags = /[^\x20-\x7e]/.test(name) ? 0x0800 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const headerOffset = this.offset;
    this.write(local);
    this.write(nameBytes);
    this.write(extra);
    this.write(data);

    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(flags, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt16LE(0, 12);
    cd.writeUInt16LE(0x21, 14);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(data.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(nameBytes.length, 28);
    cd.writeUInt32LE(headerOffset, 42);
    this.central.push(cd, nameBytes);
    this.count++;
  }

  close(): void {
    const cdStart = this.offset;
    for (const b of this.central) this.write(b);
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(this.count, 8);
    eocd.writeUInt16LE(this.count, 10);
    eocd.writeUInt32LE(this.offset - cdStart, 12);
    eocd.writeUInt32LE(cdStart, 16);
    this.write(eocd);
    closeSync(this.fd);
  }

  private write(b: Buffer): void {
    let done = 0;
    while (done < b.length) done += writeSync(this.fd, b, done, b.length - done);
    this.offset += b.length;
  }
}

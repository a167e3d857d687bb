/**
 * Builds small zips in memory for tests, with knobs to make every kind of broken archive:
 * lying sizes, disagreeing local headers, encryption flags, Zip64 records.
 */
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from '../../src/zip/crc32.js';

export interface HeaderOverrides {
  name?: string;
  method?: number;
  flags?: number;
  crc?: number;
  csize?: number;
  usize?: number;
  offset?: number;
}

export interface BuildEntry {
  name: string;
  data?: Uint8Array | string;
  method?: 0 | 8;
  /** Bytes to store as the entry's data instead of the (deflated) content. */
  body?: Uint8Array;
  local?: HeaderOverrides;
  cd?: HeaderOverrides;
}

export interface BuildOptions {
  zip64?: boolean;
  comment?: string;
  /** Entry count written to the end record(s). */
  declaredCount?: number;
  /** Bytes placed between the last entry and the central directory (like an APK signing block). */
  gap?: Uint8Array;
}

export function bytes(s: string | Uint8Array): Buffer {
  return typeof s === 'string' ? Buffer.from(s, 'utf8') : Buffer.from(s);
}

export function buildZip(entries: BuildEntry[], opts: BuildOptions = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const content = bytes(e.data ?? '');
    const method = e.method ?? 8;
    const body = e.body ? Buffer.from(e.body) : method === 8 ? deflateRawSync(content) : content;
    const base = { name: e.name, method, flags: 0, crc: crc32(content), csize: body.length, usize: content.length, offset };
    const loc = { ...base, ...e.local };
    const cen = { ...base, ...e.cd };
    const lname = Buffer.from(loc.name, 'utf8');
    const lz64 = opts.zip64 === true;
    const lh = Buffer.alloc(30 + lname.length + (lz64 ? 20 : 0));
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(lz64 ? 45 : 20, 4);
    lh.writeUInt16LE(loc.flags, 6);
    lh.writeUInt16LE(loc.method, 8);
    lh.writeUInt16LE(0x21, 12);
    lh.writeUInt32LE(loc.crc >>> 0, 14);
    lh.writeUInt32LE(lz64 ? 0xffffffff : loc.csize, 18);
    lh.writeUInt32LE(lz64 ? 0xffffffff : loc.usize, 22);
    lh.writeUInt16LE(lname.length, 26);
    lh.writeUInt16LE(lz64 ? 20 : 0, 28);
    lname.copy(lh, 30);
    if (lz64) {
      lh.writeUInt16LE(1, 30 + lname.length);
      lh.writeUInt16LE(16, 32 + lname.length);
      lh.writeBigUInt64LE(BigInt(loc.usize), 34 + lname.length);
      lh.writeBigUInt64LE(BigInt(loc.csize), 42 + lname.length);
    }
    parts.push(lh, body);
    offset += lh.length + body.length;
    const cname = Buffer.from(cen.name, 'utf8');
    const ch = Buffer.alloc(46 + cname.length + (lz64 ? 28 : 0));
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(lz64 ? 45 : 20, 6);
    ch.writeUInt16LE(cen.flags, 8);
    ch.writeUInt16LE(cen.method, 10);
    ch.writeUInt16LE(0x21, 14);
    ch.writeUInt32LE(cen.crc >>> 0, 16);
    ch.writeUInt32LE(lz64 ? 0xffffffff : cen.csize, 20);
    ch.writeUInt32LE(lz64 ? 0xffffffff : cen.usize, 24);
    ch.writeUInt16LE(cname.length, 28);
    ch.writeUInt16LE(lz64 ? 28 : 0, 30);
    ch.writeUInt32LE(lz64 ? 0xffffffff : cen.offset, 42);
    cname.copy(ch, 46);
    if (lz64) {
      const x = 46 + cname.length;
      ch.writeUInt16LE(1, x);
      ch.writeUInt16LE(24, x + 2);
      ch.writeBigUInt64LE(BigInt(cen.usize), x + 4);
      ch.writeBigUInt64LE(BigInt(cen.csize), x + 12);
      ch.writeBigUInt64LE(BigInt(cen.offset), x + 20);
    }
    central.push(ch);
  }
  if (opts.gap) {
    parts.push(Buffer.from(opts.gap));
    offset += opts.gap.length;
  }
  const cd = Buffer.concat(central);
  const count = opts.declaredCount ?? entries.length;
  const tail: Buffer[] = [cd];
  if (opts.zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE(45, 12);
    rec.writeUInt16LE(45, 14);
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(cd.length), 40);
    rec.writeBigUInt64LE(BigInt(offset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeBigUInt64LE(BigInt(offset + cd.length), 8);
    loc.writeUInt32LE(1, 16);
    tail.push(rec, loc);
  }
  const comment = Buffer.from(opts.comment ?? '', 'utf8');
  const eocd = Buffer.alloc(22 + comment.length);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(opts.zip64 ? 0xffff : count, 8);
  eocd.writeUInt16LE(opts.zip64 ? 0xffff : count, 10);
  eocd.writeUInt32LE(opts.zip64 ? 0xffffffff : cd.length, 12);
  eocd.writeUInt32LE(opts.zip64 ? 0xffffffff : offset, 16);
  eocd.writeUInt16LE(comment.length, 20);
  comment.copy(eocd, 22);
  tail.push(eocd);
  return Buffer.concat([...parts, ...tail]);
}

/** A scratch directory removed by `cleanup()`. */
export class TempDir {
  readonly path = mkdtempSync(join(tmpdir(), 'aabify-test-'));
  file(name: string, content?: Uint8Array): string {
    const p = join(this.path, name);
    if (content) writeFileSync(p, content);
    return p;
  }
  cleanup(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

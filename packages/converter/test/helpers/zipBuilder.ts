/**
 * Builds small zips in memory for tests, with knobs to make every kind of broken archive:
 * lying sizes, disagreeing local headers, encryption flags, Zip64 records.
 */
import { deflateRawSync } from 'node:zlib';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from '../../src/zip/crc32.js';
import { elfLibrary } from './elf.js';
import { NONE, packageChunk, stringPool, tableChunk, typeChunk, typeSpecChunk, xmlDoc, xmlEndEl, xmlEndNs, xmlStartEl, xmlStartNs } from './chunks.js';

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

// ---- a tiny but complete APK, built from the resource chunk helpers ---------------------------

const ANDROID = 'http://schemas.android.com/apk/res/android';

export interface TinyManifest {
  versionCode?: number;
  minSdk?: number;
  split?: string;
  debuggable?: boolean;
  packageName?: string;
}

/** A binary AndroidManifest.xml: <manifest package versionCode [split]><uses-sdk minSdkVersion/><application [debuggable]/></manifest>. */
export function tinyManifest(m: TinyManifest = {}): Uint8Array {
  const strings = ['versionCode', 'minSdkVersion', 'debuggable', ANDROID, 'android', 'manifest', 'package', m.packageName ?? 'com.example.tiny', 'uses-sdk', 'application', 'split', m.split ?? ''];
  const attrs = [];
  if (m.versionCode !== undefined) attrs.push({ ns: 3, name: 0, type: 0x10, data: m.versionCode });
  attrs.push({ name: 6, raw: 7, type: 3, data: 7 });
  if (m.split !== undefined) attrs.push({ name: 10, raw: 11, type: 3, data: 11 });
  const appAttrs = m.debuggable ? [{ ns: 3, name: 2, type: 0x12, data: 0xffffffff }] : [];
  return xmlDoc(strings, [0x0101021b, 0x0101020c, 0x0101000f], [
    xmlStartNs(1, 4, 3),
    xmlStartEl(1, NONE, 5, attrs),
    xmlStartEl(2, NONE, 8, [{ ns: 3, name: 1, type: 0x10, data: m.minSdk ?? 21 }]),
    xmlEndEl(2, NONE, 8),
    xmlStartEl(3, NONE, 9, appAttrs),
    xmlEndEl(3, NONE, 9),
    xmlEndEl(4, NONE, 5),
    xmlEndNs(4, 4, 3),
  ]);
}

/** resources.arsc with layout/main → res/layout/main.xml and string/hello = "Hello". */
export function tinyTable(): Uint8Array {
  const pkg = packageChunk({
    id: 0x7f,
    name: 'com.example.tiny',
    types: ['layout', 'string'],
    keys: ['main', 'hello'],
    chunks: [
      typeSpecChunk(1, [0]),
      typeChunk({ id: 1, entryCount: 1, entries: [{ index: 0, key: 0, value: [3, 0] }] }),
      typeSpecChunk(2, [0]),
      typeChunk({ id: 2, entryCount: 1, entries: [{ index: 0, key: 1, value: [3, 1] }] }),
    ],
  });
  return tableChunk(stringPool(['res/layout/main.xml', 'Hello'], { utf8: true }), [pkg]);
}

export function tinyLayout(): Uint8Array {
  return xmlDoc(['LinearLayout'], [], [xmlStartEl(1, NONE, 0), xmlEndEl(1, NONE, 0)]);
}

/** Entries of a small APK that exercises every mapping rule. */
export function tinyApkEntries(manifest: TinyManifest = { versionCode: 1 }): BuildEntry[] {
  const so = elfLibrary(); // arm64, 16 KB-aligned: nothing for the pre-publication checks to report
  return [
    { name: 'AndroidManifest.xml', data: tinyManifest(manifest) },
    { name: 'resources.arsc', data: tinyTable(), method: 0 },
    { name: 'classes.dex', data: Buffer.concat([Buffer.from('dex\n035\0'), randomish(20_000)]) },
    { name: 'classes3.dex', data: 'gap' },
    { name: 'res/layout/main.xml', data: tinyLayout() },
    { name: 'res/drawable/unused.png', data: 'png', method: 0 },
    { name: 'assets/', data: '', method: 0 },
    { name: 'assets/sound.mp3', data: 'mp3-bytes', method: 0 },
    { name: 'assets/data/x.json', data: '{"a":1}' },
    { name: 'lib/arm64-v8a/libfoo.so', data: so, method: 0 },
    { name: 'lib/arm64-v8a/notes.txt', data: 'not a library' },
    { name: 'META-INF/MANIFEST.MF', data: 'Manifest-Version: 1.0\r\n' },
    { name: 'META-INF/CERT.SF', data: 'sf' },
    { name: 'META-INF/CERT.RSA', data: 'rsa' },
    { name: 'META-INF/services/com.example.Service', data: 'com.example.Impl' },
    { name: 'kotlin/collections/x.kotlin_builtins', data: 'k' },
    { name: 'stamp-cert-sha256', data: 'stamp' },
  ];
}

/** Deterministic pseudo-random bytes (incompressible enough to exercise streaming). */
export function randomish(n: number, seed = 1): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

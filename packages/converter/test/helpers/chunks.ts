// In-memory builders of ResourceTypes.h chunks (tables and binary XML) for unit tests.

export class Out {
  private readonly parts: number[] = [];
  u8(v: number): this {
    this.parts.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v).u8(v >>> 8);
  }
  u32(v: number): this {
    return this.u16(v & 0xffff).u16(v >>> 16);
  }
  bytes(b: ArrayLike<number>): this {
    for (let i = 0; i < b.length; i++) this.parts.push(b[i] & 0xff);
    return this;
  }
  utf16Fixed(s: string, units: number): this {
    for (let i = 0; i < units; i++) this.u16(i < s.length ? s.charCodeAt(i) : 0);
    return this;
  }
  pad4(): this {
    while (this.parts.length % 4) this.parts.push(0);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  finish(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** A chunk: common header + `header` (the rest of the fixed header) + `body`. */
export function chunk(type: number, header: Uint8Array, body: Uint8Array = new Uint8Array(0)): Uint8Array {
  const headerSize = 8 + header.length;
  return concat(new Out().u16(type).u16(headerSize).u32(headerSize + body.length).finish(), header, body);
}

export interface SpanSpec {
  name: number;
  first: number;
  last: number;
}

export function stringPool(strings: string[], opts: { utf8?: boolean; styles?: SpanSpec[][]; sorted?: boolean } = {}): Uint8Array {
  const utf8 = opts.utf8 ?? true;
  const styles = opts.styles ?? [];
  const data = new Out();
  const offsets: number[] = [];
  for (const s of strings) {
    offsets.push(data.length);
    if (utf8) {
      const b = Buffer.from(s, 'utf8');
      const len = (n: number): void => {
        if (n > 0x7f) data.u8(0x80 | (n >> 8)).u8(n & 0xff);
        else data.u8(n);
      };
      len(s.length);
      len(b.length);
      data.bytes(b).u8(0);
    } else {
      if (s.length > 0x7fff) data.u16(0x8000 | (s.length >>> 16)).u16(s.length & 0xffff);
      else data.u16(s.length);
      for (let i = 0; i < s.length; i++) data.u16(s.charCodeAt(i));
      data.u16(0);
    }
  }
  data.pad4();
  const styleData = new Out();
  const styleOffsets: number[] = [];
  for (const spans of styles) {
    styleOffsets.push(styleData.length);
    for (const sp of spans) styleData.u32(sp.name).u32(sp.first).u32(sp.last);
    styleData.u32(0xffffffff);
  }
  if (styles.length) styleData.u32(0xffffffff).u32(0xffffffff);
  const headerSize = 28;
  const indexSize = (strings.length + styles.length) * 4;
  const stringsStart = headerSize + indexSize;
  const stylesStart = styles.length ? stringsStart + data.length : 0;
  const header = new Out()
    .u32(strings.length)
    .u32(styles.length)
    .u32((utf8 ? 0x100 : 0) | (opts.sorted ? 1 : 0))
    .u32(strings.length ? stringsStart : 0)
    .u32(stylesStart)
    .finish();
  const index = new Out();
  for (const o of offsets) index.u32(o);
  for (const o of styleOffsets) index.u32(o);
  return chunk(0x0001, header, concat(index.finish(), data.finish(), styleData.finish()));
}

/** ResTable_config bytes from named fields (offsets of ResourceTypes.h); `size` may be short. */
export function configBytes(fields: Record<string, number | number[]> = {}, size = 64): Uint8Array {
  const b = new Uint8Array(Math.max(size, 64));
  const v = new DataView(b.buffer);
  v.setUint32(0, size, true);
  const layout: Record<string, [number, 1 | 2 | 0]> = {
    mcc: [4, 2], mnc: [6, 2], language: [8, 0], country: [10, 0], orientation: [12, 1], touchscreen: [13, 1],
    density: [14, 2], keyboard: [16, 1], navigation: [17, 1], inputFlags: [18, 1], grammaticalInflection: [19, 1],
    screenWidth: [20, 2], screenHeight: [22, 2], sdkVersion: [24, 2], minorVersion: [26, 2], screenLayout: [28, 1],
    uiMode: [29, 1], smallestScreenWidthDp: [30, 2], screenWidthDp: [32, 2], screenHeightDp: [34, 2],
    localeScript: [36, 0], localeVariant: [40, 0], screenLayout2: [48, 1], colorMode: [49, 1],
    localeScriptWasComputed: [52, 1], localeNumberingSystem: [53, 0],
  };
  for (const [k, val] of Object.entries(fields)) {
    const [off, width] = layout[k];
    if (Array.isArray(val)) b.set(val, off);
    else if (width === 1) v.setUint8(off, val);
    else v.setUint16(off, val, true);
  }
  return b.subarray(0, size);
}

export function ascii(s: string, len: number): number[] {
  return Array.from({ length: len }, (_, i) => (i < s.length ? s.charCodeAt(i) : 0));
}

export interface EntrySpec {
  index: number;
  key: number;
  flags?: number;
  /** [dataType, data] of a simple entry. */
  value?: [number, number];
  map?: { parent: number; items: [number, number, number][] };
  compact?: boolean;
}

function entryBytes(e: EntrySpec): Uint8Array {
  const o = new Out();
  if (e.compact) {
    const [t, d] = e.value ?? [0, 0];
    return o.u16(e.key).u16(((e.flags ?? 0) | 0x8) | (t << 8)).u32(d).finish();
  }
  if (e.map) {
    o.u16(16).u16((e.flags ?? 0) | 0x1).u32(e.key).u32(e.map.parent).u32(e.map.items.length);
    for (const [name, t, d] of e.map.items) o.u32(name).u16(8).u8(0).u8(t).u32(d);
    return o.finish();
  }
  const [t, d] = e.value ?? [0, 0];
  return o.u16(8).u16(e.flags ?? 0).u32(e.key).u16(8).u8(0).u8(t).u32(d).finish();
}

export function typeChunk(opts: {
  id: number;
  entryCount: number;
  entries: EntrySpec[];
  mode?: 'dense' | 'sparse' | 'offset16';
  config?: Uint8Array;
  extraFlags?: number;
}): Uint8Array {
  const mode = opts.mode ?? 'dense';
  const config = opts.config ?? configBytes();
  const bodies = new Out();
  const offsets = new Map<number, number>();
  for (const e of opts.entries) {
    offsets.set(e.index, bodies.length);
    bodies.bytes(entryBytes(e)).pad4();
  }
  const index = new Out();
  if (mode === 'sparse') {
    for (const e of [...opts.entries].sort((a, b) => a.index - b.index)) index.u16(e.index).u16(offsets.get(e.index)! / 4);
  } else {
    for (let i = 0; i < opts.entryCount; i++) {
      const off = offsets.get(i);
      if (mode === 'offset16') index.u16(off === undefined ? 0xffff : off / 4);
      else index.u32(off === undefined ? 0xffffffff : off);
    }
  }
  index.pad4();
  const flags = (mode === 'sparse' ? 1 : mode === 'offset16' ? 2 : 0) | (opts.extraFlags ?? 0);
  const slots = mode === 'sparse' ? opts.entries.length : opts.entryCount;
  const headerSize = 20 + config.length;
  const header = new Out().u8(opts.id).u8(flags).u16(0).u32(slots).u32(headerSize + index.length).bytes(config).finish();
  return chunk(0x0201, header, concat(index.finish(), bodies.finish()));
}

/**
 * A dense type chunk of `slots` entries whose index points every slot at the same entry, as
 * aapt2's entry-value deduplication does for equal simple entries (a hostile file for a map).
 */
export function typeChunkSharingOneEntry(id: number, slots: number, entry: EntrySpec): Uint8Array {
  const config = configBytes();
  const index = new Out();
  for (let i = 0; i < slots; i++) index.u32(0);
  const headerSize = 20 + config.length;
  const header = new Out().u8(id).u8(0).u16(0).u32(slots).u32(headerSize + index.length).bytes(config).finish();
  return chunk(0x0201, header, concat(index.finish(), entryBytes(entry)));
}

export function typeSpecChunk(id: number, flags: number[]): Uint8Array {
  const body = new Out();
  for (const f of flags) body.u32(f);
  return chunk(0x0202, new Out().u8(id).u8(0).u16(1).u32(flags.length).finish(), body.finish());
}

export function libraryChunk(entries: [number, string][]): Uint8Array {
  const body = new Out();
  for (const [id, name] of entries) body.u32(id).utf16Fixed(name, 128);
  return chunk(0x0203, new Out().u32(entries.length).finish(), body.finish());
}

export function overlayableChunk(name: string, actor: string, policies: [number, number[]][]): Uint8Array {
  const header = new Out().utf16Fixed(name, 256).utf16Fixed(actor, 256).finish();
  const children = policies.map(([flags, ids]) => {
    const body = new Out();
    for (const id of ids) body.u32(id);
    return chunk(0x0205, new Out().u32(flags).u32(ids.length).finish(), body.finish());
  });
  return chunk(0x0204, header, concat(...children));
}

export function stagedAliasChunk(pairs: [number, number][]): Uint8Array {
  const body = new Out();
  for (const [staged, finalized] of pairs) body.u32(staged).u32(finalized);
  return chunk(0x0206, new Out().u32(pairs.length).finish(), body.finish());
}

export function packageChunk(opts: {
  id: number;
  name: string;
  types: string[];
  keys: string[];
  chunks: Uint8Array[];
  typeIdOffset?: number;
  oldHeader?: boolean;
}): Uint8Array {
  const headerSize = opts.oldHeader ? 284 : 288;
  const typePool = stringPool(opts.types, { utf8: false });
  const keyPool = stringPool(opts.keys, { utf8: true });
  const header = new Out()
    .u32(opts.id)
    .utf16Fixed(opts.name, 128)
    .u32(headerSize)
    .u32(opts.types.length)
    .u32(headerSize + typePool.length)
    .u32(opts.keys.length);
  if (!opts.oldHeader) header.u32(opts.typeIdOffset ?? 0);
  return chunk(0x0200, header.finish(), concat(typePool, keyPool, ...opts.chunks));
}

export function tableChunk(valuePool: Uint8Array, packages: Uint8Array[]): Uint8Array {
  return chunk(0x0002, new Out().u32(packages.length).finish(), concat(valuePool, ...packages));
}

// ---- binary XML ------------------------------------------------------------------------------

export const NONE = 0xffffffff;

export interface AttrSpec {
  ns?: number;
  name: number;
  raw?: number;
  type: number;
  data: number;
}

function node(type: number, line: number, ext: Uint8Array, comment = NONE): Uint8Array {
  return chunk(type, new Out().u32(line).u32(comment).finish(), ext);
}

export function xmlStartNs(line: number, prefix: number, uri: number): Uint8Array {
  return node(0x0100, line, new Out().u32(prefix).u32(uri).finish());
}

export function xmlEndNs(line: number, prefix: number, uri: number): Uint8Array {
  return node(0x0101, line, new Out().u32(prefix).u32(uri).finish());
}

export function xmlStartEl(line: number, ns: number, name: number, attrs: AttrSpec[] = [], opts: { attrSize?: number; comment?: number } = {}): Uint8Array {
  const size = opts.attrSize ?? 20;
  const ext = new Out().u32(ns).u32(name).u16(20).u16(size).u16(attrs.length).u16(0).u16(0).u16(0);
  for (const a of attrs) {
    ext.u32(a.ns ?? NONE).u32(a.name).u32(a.raw ?? NONE).u16(8).u8(0).u8(a.type).u32(a.data);
    for (let i = 20; i < size; i++) ext.u8(0);
  }
  return node(0x0102, line, ext.finish(), opts.comment);
}

export function xmlEndEl(line: number, ns: number, name: number): Uint8Array {
  return node(0x0103, line, new Out().u32(ns).u32(name).finish());
}

export function xmlCdata(line: number, data: number): Uint8Array {
  return node(0x0104, line, new Out().u32(data).u16(8).u8(0).u8(0).u32(0).finish());
}

export function resourceMap(ids: number[]): Uint8Array {
  const body = new Out();
  for (const id of ids) body.u32(id);
  return chunk(0x0180, new Uint8Array(0), body.finish());
}

export function xmlDoc(strings: string[], ids: number[], nodes: Uint8Array[], utf8 = false): Uint8Array {
  const parts = [stringPool(strings, { utf8 }), ...(ids.length ? [resourceMap(ids)] : []), ...nodes];
  return chunk(0x0003, new Uint8Array(0), concat(...parts));
}

// ---- crafted string pools (hostile inputs) ---------------------------------------------------

/** A string pool whose index is `offsets` into `data` as given: shared or overlapping starts. */
export function craftedStringPool(data: Uint8Array, offsets: ArrayLike<number>, utf8: boolean): Uint8Array {
  const index = Buffer.alloc(offsets.length * 4);
  for (let i = 0; i < offsets.length; i++) index.writeUInt32LE(offsets[i], i * 4);
  const padded = Buffer.concat([Buffer.from(data), Buffer.alloc((4 - (data.length % 4)) % 4)]);
  const header = new Out().u32(offsets.length).u32(0).u32(utf8 ? 0x100 : 0).u32(28 + index.length).u32(0).finish();
  return chunk(0x0001, header, concat(index, padded));
}

/** One UTF-16 string of `units` code units (with the two-word length), every index pointing at it. */
export function poolOfOneLongString(units: number, refs: number): Uint8Array {
  const data = Buffer.alloc(4 + units * 2 + 2, 0x41);
  data.writeUInt16LE(0x8000 | (units >>> 16), 0);
  data.writeUInt16LE(units & 0xffff, 2);
  data.writeUInt16LE(0, 4 + units * 2);
  return craftedStringPool(data, new Uint32Array(refs), false);
}

/**
 * UTF-16 data where every code unit reads as a length of 0x7fff, and `refs` indices start two
 * bytes apart: each string overlaps the next, so each decodes ~32,767 units of the same bytes.
 */
export function poolOfOverlappingStrings(refs: number): Uint8Array {
  const units = refs + 0x7fff + 1;
  const data = Buffer.alloc(units * 2);
  for (let i = 0; i < units; i++) data.writeUInt16LE(0x7fff, i * 2);
  return craftedStringPool(data, Uint32Array.from({ length: refs }, (_, i) => i * 2), false);
}

/** A binary XML document around a crafted pool: one element named by string 0. */
export function xmlWithPool(pool: Uint8Array): Uint8Array {
  return chunk(0x0003, new Uint8Array(0), concat(pool, xmlStartEl(1, NONE, 0), xmlEndEl(1, NONE, 0)));
}

/**
 * A resource table whose value pool has one UTF-8 string of 32,767 bytes under `refs` indices,
 * and `refs` string resources each naming a different index (old readers decoded each one).
 */
export function tableReferencingOneLongString(refs: number): Uint8Array {
  const data = Buffer.alloc(4 + 0x7fff + 1, 0x61);
  data.set([0xff, 0xff, 0xff, 0xff], 0); // UTF-16 length, then byte length: 0x7fff each
  data[4 + 0x7fff] = 0;
  const pool = craftedStringPool(data, new Uint32Array(refs), true);
  const entries: EntrySpec[] = Array.from({ length: refs }, (_, i) => ({ index: i, key: 0, value: [0x03, i] as [number, number] }));
  const pkg = packageChunk({
    id: 0x7f,
    name: 'com.example.tiny',
    types: ['string'],
    keys: ['k'],
    chunks: [typeSpecChunk(1, new Array<number>(refs).fill(0)), typeChunk({ id: 1, entryCount: refs, entries })],
  });
  return tableChunk(pool, [pkg]);
}

/**
 * A UTF-8 pool of one string ("b", the span tag) and `styleOffsets.length` styles whose index
 * is `styleOffsets` into `styleData` as given: shared or overlapping starts.
 */
export function craftedStylePool(styleData: Uint8Array, styleOffsets: ArrayLike<number>): Uint8Array {
  const strings = Buffer.from([1, 1, 0x62, 0]); // "b"
  const index = Buffer.alloc((1 + styleOffsets.length) * 4);
  for (let i = 0; i < styleOffsets.length; i++) index.writeUInt32LE(styleOffsets[i], (1 + i) * 4);
  const stringsStart = 28 + index.length;
  const header = new Out().u32(1).u32(styleOffsets.length).u32(0x100).u32(stringsStart).u32(stringsStart + strings.length).finish();
  return chunk(0x0001, header, concat(index, strings, styleData));
}

/** Style data: one style of `spans` spans (tag string 0, chars 0..0), its END, then the pool's closing ENDs. */
export function oneStyleOfSpans(spans: number): Uint8Array {
  const b = Buffer.alloc(spans * 12 + 12);
  for (let i = 0; i < spans; i++) b.writeUInt32LE(0, i * 12);
  b.fill(0xff, spans * 12);
  return b;
}

import { type ByteReader, hex } from './bytes.js';
import { type ChunkHeader, requireHeader } from './chunk.js';
import { parseConfig } from './config.js';
import { type EntryValue, type ResEntry, type ResMapItem, type ResTypeChunk, type ResTypeSpec } from './model.js';
import { type StringPool } from './stringPool.js';
import { EntryFlag, NO_ENTRY, NO_ENTRY_OFFSET16, TypeFlag } from './values.js';

/** Fixed part of ResTable_type before its config (20) plus the config's own size field. */
export const TYPE_HEADER_MIN_SIZE = 24;
export const TYPE_SPEC_HEADER_SIZE = 16;
/** Entry ids are 16-bit, so a type holds at most this many entry slots. */
export const MAX_ENTRIES_PER_TYPE = 0x10000;
const ENTRY_HEADER_SIZE = 8;
const MAP_ENTRY_HEADER_SIZE = 16;
const MAP_ITEM_SIZE = 12;

/**
 * Items map entries beyond the table's own bytes may hand out (see MapItemBudget): room for a
 * tool that would share a few small maps between slots, far below what hurts (~64 Ki objects).
 */
export const MAP_ITEM_SHARING_SLACK = 64 * 1024;

/**
 * Map items a table may hand out, counted per entry slot. Slots may share an entry's offset
 * (aapt2's entry-value deduplication shares simple entries; it writes every map entry on its
 * own), so a shared map hands its items out once per slot: 65,536 slots on one map of a million
 * items made 65 billion items from a few MB. Without shared maps each item handed out has its
 * own 12 bytes (one ResTable_map) in the file, so an honest table never hands out more than its
 * bytes / 12; the budget is that plus MAP_ITEM_SHARING_SLACK.
 */
export interface MapItemBudget {
  left: number;
  readonly total: number;
}

export function mapItemBudget(tableBytes: number): MapItemBudget {
  const total = Math.floor(tableBytes / MAP_ITEM_SIZE) + MAP_ITEM_SHARING_SLACK;
  return { left: total, total };
}

export function parseTypeSpec(r: ByteReader, h: ChunkHeader, typeName: (id: number) => string): ResTypeSpec {
  requireHeader(r, h, TYPE_SPEC_HEADER_SIZE, 'ResTable_typeSpec');
  const at = `ResTable_typeSpec at offset ${h.offset}`;
  const id = r.u8(h.offset + 8);
  if (id === 0) r.fail(`${at}: type id 0`);
  const typesCount = r.u16(h.offset + 10);
  const entryCount = r.u32(h.offset + 12);
  if (entryCount >= MAX_ENTRIES_PER_TYPE) r.fail(`${at}: ${entryCount} entries (max ${MAX_ENTRIES_PER_TYPE - 1})`);
  if (h.headerSize + entryCount * 4 > h.size) r.fail(`${at}: ${entryCount} flags do not fit in ${h.size} bytes`);
  const flags: number[] = [];
  for (let i = 0; i < entryCount; i++) flags.push(r.u32(h.offset + h.headerSize + i * 4));
  return { id, name: typeName(id), typesCount, flags };
}

/** Parses a ResTable_type chunk: dense, OFFSET16 or SPARSE index; full or compact entries. */
export function parseTypeChunk(
  r: ByteReader,
  h: ChunkHeader,
  typeName: (id: number) => string,
  keys: StringPool,
  budget: MapItemBudget = mapItemBudget(h.size),
): ResTypeChunk {
  requireHeader(r, h, TYPE_HEADER_MIN_SIZE, 'ResTable_type');
  const at = `ResTable_type at offset ${h.offset}`;
  const id = r.u8(h.offset + 8);
  if (id === 0) r.fail(`${at}: type id 0`);
  const flags = r.u8(h.offset + 9);
  const entryCount = r.u32(h.offset + 12);
  const entriesStart = r.u32(h.offset + 16);
  const config = parseConfig(r, h.offset + 20, h.headerSize - 20);
  const sparse = (flags & TypeFlag.SPARSE) !== 0;
  const offset16 = !sparse && (flags & TypeFlag.OFFSET16) !== 0;
  const slotSize = offset16 ? 2 : 4;
  if (entryCount > MAX_ENTRIES_PER_TYPE) r.fail(`${at}: ${entryCount} entries (max ${MAX_ENTRIES_PER_TYPE})`);
  if (h.headerSize + entryCount * slotSize > h.size) {
    r.fail(`${at}: index of ${entryCount} entries does not fit in ${h.size} bytes`);
  }
  if (entriesStart > h.size) r.fail(`${at}: entriesStart ${entriesStart} past chunk size ${h.size}`);
  const chunkEnd = h.offset + h.size;
  const indexAt = h.offset + h.headerSize;
  const entries: ResEntry[] = [];
  for (let slot = 0; slot < entryCount; slot++) {
    let index: number;
    let offset: number;
    if (sparse) {
      index = r.u16(indexAt + slot * 4);
      offset = r.u16(indexAt + slot * 4 + 2) * 4;
    } else if (offset16) {
      index = slot;
      const o = r.u16(indexAt + slot * 2);
      if (o === NO_ENTRY_OFFSET16) continue;
      offset = o * 4;
    } else {
      index = slot;
      const o = r.u32(indexAt + slot * 4);
      if (o === NO_ENTRY) continue;
      offset = o;
    }
    const base = h.offset + entriesStart + offset;
    entries.push(parseEntry(r, base, chunkEnd, index, keys, at, budget));
  }
  entries.sort((a, b) => a.index - b.index);
  return { id, name: typeName(id), flags, entryCount, config, entries, offset: h.offset };
}

function parseEntry(r: ByteReader, base: number, end: number, index: number, keys: StringPool, chunkAt: string, budget: MapItemBudget): ResEntry {
  // Only an error message needs it: built then, not for every entry.
  const at = (): string => `${chunkAt}, entry ${index}`;
  if (base + ENTRY_HEADER_SIZE > end) r.fail(`${at()}: entry at offset ${base} runs past the chunk end ${end}`);
  const flagsWord = r.u16(base + 2);
  if (flagsWord & EntryFlag.COMPACT) {
    // Compact form: u16 key, u16 flags (data type in the high byte), u32 data.
    const keyIndex = r.u16(base);
    return {
      index,
      keyIndex,
      name: keys.get(keyIndex),
      flags: flagsWord & 0xff,
      value: { kind: 'simple', value: { dataType: flagsWord >>> 8, data: r.u32(base + 4) } },
    };
  }
  const size = r.u16(base);
  const keyIndex = r.u32(base + 4);
  if (size < ENTRY_HEADER_SIZE) r.fail(`${at()}: entry at offset ${base} has size ${size} < 8`);
  let value: EntryValue;
  if (flagsWord & EntryFlag.COMPLEX) {
    if (size < MAP_ENTRY_HEADER_SIZE) r.fail(`${at()}: map entry at offset ${base} has size ${size} < 16`);
    if (base + MAP_ENTRY_HEADER_SIZE > end) r.fail(`${at()}: map entry at offset ${base} is truncated`);
    const parent = r.u32(base + 8);
    const count = r.u32(base + 12);
    const itemsAt = base + size;
    if (itemsAt > end || count > (end - itemsAt) / MAP_ITEM_SIZE) {
      r.fail(`${at()}: map entry at offset ${base} declares ${count} items past the chunk end ${end}`);
    }
    if (count > budget.left) {
      r.fail(`${at()}: map entry at offset ${base} (${count} items): the table's entries hand out more than ${budget.total} map items (map entries shared by slots)`);
    }
    budget.left -= count;
    const items: ResMapItem[] = [];
    for (let i = 0; i < count; i++) {
      const p = itemsAt + i * MAP_ITEM_SIZE;
      items.push({ name: r.u32(p), value: { dataType: r.u8(p + 7), data: r.u32(p + 8) } });
    }
    value = { kind: 'map', parent, items };
  } else {
    const valueAt = base + size;
    if (valueAt + 8 > end) r.fail(`${at()}: value of entry at offset ${base} (${hex(valueAt)}) runs past the chunk end`);
    value = { kind: 'simple', value: { dataType: r.u8(valueAt + 3), data: r.u32(valueAt + 4) } };
  }
  return { index, keyIndex, name: keys.get(keyIndex), flags: flagsWord, value };
}

import { ConverterError } from '../errors.js';
import { ByteReader, hex } from './bytes.js';
import { type ChunkHeader, ChunkType, childChunks, readChunkHeader, requireHeader } from './chunk.js';
import {
  type LibraryEntry,
  type Overlayable,
  type OverlayablePolicy,
  type ResPackage,
  type ResourceTable,
  type ResTypeChunk,
  type ResTypeSpec,
  type StagedAlias,
} from './model.js';
import { emptyStringPool, parseStringPool, type StringPool } from './stringPool.js';
import { mapItemBudget, parseTypeChunk, parseTypeSpec, type MapItemBudget } from './typeChunk.js';

export const TABLE_HEADER_SIZE = 12;
/** ResTable_package without typeIdOffset (old files) and with it. */
export const PACKAGE_HEADER_MIN_SIZE = 284;
export const PACKAGE_HEADER_SIZE = 288;
export const LIBRARY_HEADER_SIZE = 12;
export const LIBRARY_ENTRY_SIZE = 260;
export const OVERLAYABLE_HEADER_SIZE = 1032;
export const OVERLAYABLE_POLICY_HEADER_SIZE = 16;
export const STAGED_ALIAS_HEADER_SIZE = 12;
/** More packages than this in one table is refused (a package id is one byte). */
export const MAX_PACKAGES = 256;
/**
 * Larger tables are refused (INFLATED_TOO_LARGE): the largest real apps ship tables of a few
 * tens of MB, and the parsed model costs several times its bytes in memory.
 */
export const MAX_TABLE_BYTES = 96 * 1024 * 1024;

/** Parses a whole resources.arsc. Throws ConverterError('BAD_RESOURCE_TABLE') on any corruption. */
export function parseResourceTable(buf: Uint8Array): ResourceTable {
  if (buf.byteLength > MAX_TABLE_BYTES) throw new ConverterError('INFLATED_TOO_LARGE', `resources.arsc: ${buf.byteLength} bytes (max ${MAX_TABLE_BYTES})`);
  const r: ByteReader = new ByteReader(buf, 'BAD_RESOURCE_TABLE');
  const h = readChunkHeader(r, 0, buf.byteLength, 'resources.arsc');
  if (h.type !== ChunkType.TABLE) r.fail(`resources.arsc: first chunk type ${hex(h.type, 4)} is not RES_TABLE_TYPE`);
  requireHeader(r, h, TABLE_HEADER_SIZE, 'ResTable_header');
  let valuePool: StringPool | undefined;
  const packages: ResPackage[] = [];
  const mapItems = mapItemBudget(buf.byteLength);
  for (const c of childChunks(r, h.offset + h.headerSize, h.offset + h.size, 'ResTable')) {
    if (c.type === ChunkType.STRING_POOL) {
      // aapt2 keeps the first pool and ignores (warns about) any other.
      valuePool ??= parseStringPool(r, c);
    } else if (c.type === ChunkType.TABLE_PACKAGE) {
      if (packages.length >= MAX_PACKAGES) r.fail(`ResTable: more than ${MAX_PACKAGES} packages`);
      packages.push(parsePackage(r, c, mapItems));
    }
  }
  return { valuePool: valuePool ?? emptyStringPool(), packages };
}

function parsePackage(r: ByteReader, h: ChunkHeader, mapItems: MapItemBudget): ResPackage {
  requireHeader(r, h, PACKAGE_HEADER_MIN_SIZE, 'ResTable_package');
  const at = `ResTable_package at offset ${h.offset}`;
  const id = r.u32(h.offset + 8);
  if (id > 0xff) r.fail(`${at}: package id ${id} > 255`);
  const name = r.utf16Fixed(h.offset + 12, 128, `${at} name`);
  const typeStringsOffset = r.u32(h.offset + 268);
  const lastPublicType = r.u32(h.offset + 272);
  const keyStringsOffset = r.u32(h.offset + 276);
  const lastPublicKey = r.u32(h.offset + 280);
  const typeIdOffset = h.headerSize >= PACKAGE_HEADER_SIZE ? r.u32(h.offset + 284) : 0;
  const children = childChunks(r, h.offset + h.headerSize, h.offset + h.size, at);

  // The header's offsets name the type and key pools; aapt2 simply takes the first two pools.
  const pools = children.filter((c) => c.type === ChunkType.STRING_POOL);
  const byOffset = (rel: number): ChunkHeader | undefined => pools.find((c) => c.offset === h.offset + rel);
  const typePoolChunk = byOffset(typeStringsOffset) ?? pools[0];
  const keyPoolChunk = byOffset(keyStringsOffset) ?? pools.find((c) => c !== typePoolChunk);
  const typeStrings = typePoolChunk ? parseStringPool(r, typePoolChunk) : emptyStringPool();
  const keyStrings = keyPoolChunk ? parseStringPool(r, keyPoolChunk) : emptyStringPool();
  const typeName = (typeId: number): string => typeStrings.get(typeId - 1 - typeIdOffset);

  const typeSpecs: ResTypeSpec[] = [];
  const types: ResTypeChunk[] = [];
  const libraries: LibraryEntry[] = [];
  const overlayables: Overlayable[] = [];
  const stagedAliases: StagedAlias[] = [];
  for (const c of children) {
    switch (c.type) {
      case ChunkType.TABLE_TYPE_SPEC:
        if (!typePoolChunk) r.fail(`${at}: typeSpec chunk at offset ${c.offset} before any type string pool`);
        typeSpecs.push(parseTypeSpec(r, c, typeName));
        break;
      case ChunkType.TABLE_TYPE:
        if (!typePoolChunk || !keyPoolChunk) r.fail(`${at}: type chunk at offset ${c.offset} without type/key pools`);
        types.push(parseTypeChunk(r, c, typeName, keyStrings, mapItems));
        break;
      case ChunkType.TABLE_LIBRARY:
        libraries.push(...parseLibrary(r, c));
        break;
      case ChunkType.TABLE_OVERLAYABLE:
        overlayables.push(parseOverlayable(r, c));
        break;
      case ChunkType.TABLE_STAGED_ALIAS:
        stagedAliases.push(...parseStagedAliases(r, c));
        break;
      default:
        break; // string pools handled above; unknown chunks are skipped, as aapt2 does
    }
  }
  return {
    id,
    name,
    typeIdOffset,
    lastPublicType,
    lastPublicKey,
    typeStrings,
    keyStrings,
    typeSpecs,
    types,
    libraries,
    overlayables,
    stagedAliases,
  };
}

function parseLibrary(r: ByteReader, h: ChunkHeader): LibraryEntry[] {
  requireHeader(r, h, LIBRARY_HEADER_SIZE, 'ResTable_lib_header');
  const count = r.u32(h.offset + 8);
  if (count > (h.size - h.headerSize) / LIBRARY_ENTRY_SIZE) {
    r.fail(`library chunk at offset ${h.offset}: ${count} entries do not fit in ${h.size} bytes`);
  }
  const out: LibraryEntry[] = [];
  for (let i = 0; i < count; i++) {
    const p = h.offset + h.headerSize + i * LIBRARY_ENTRY_SIZE;
    out.push({ packageId: r.u32(p), packageName: r.utf16Fixed(p + 4, 128, 'library package name') });
  }
  return out;
}

function parseOverlayable(r: ByteReader, h: ChunkHeader): Overlayable {
  requireHeader(r, h, OVERLAYABLE_HEADER_SIZE, 'ResTable_overlayable_header');
  const at = `overlayable chunk at offset ${h.offset}`;
  const name = r.utf16Fixed(h.offset + 8, 256, `${at} name`);
  const actor = r.utf16Fixed(h.offset + 520, 256, `${at} actor`);
  const policies: OverlayablePolicy[] = [];
  for (const c of childChunks(r, h.offset + h.headerSize, h.offset + h.size, at)) {
    if (c.type !== ChunkType.TABLE_OVERLAYABLE_POLICY) continue;
    requireHeader(r, c, OVERLAYABLE_POLICY_HEADER_SIZE, 'ResTable_overlayable_policy_header');
    const flags = r.u32(c.offset + 8);
    const count = r.u32(c.offset + 12);
    if (count > (c.size - c.headerSize) / 4) {
      r.fail(`overlayable policy chunk at offset ${c.offset}: ${count} ids do not fit in ${c.size} bytes`);
    }
    const resourceIds: number[] = [];
    for (let i = 0; i < count; i++) resourceIds.push(r.u32(c.offset + c.headerSize + i * 4));
    policies.push({ flags, resourceIds });
  }
  return { name, actor, policies };
}

function parseStagedAliases(r: ByteReader, h: ChunkHeader): StagedAlias[] {
  requireHeader(r, h, STAGED_ALIAS_HEADER_SIZE, 'ResTable_staged_alias_header');
  const count = r.u32(h.offset + 8);
  if (count > (h.size - h.headerSize) / 8) {
    r.fail(`staged alias chunk at offset ${h.offset}: ${count} entries do not fit in ${h.size} bytes`);
  }
  const out: StagedAlias[] = [];
  for (let i = 0; i < count; i++) {
    const p = h.offset + h.headerSize + i * 8;
    out.push({ stagedId: r.u32(p), finalizedId: r.u32(p + 4) });
  }
  return out;
}

import { type ByteReader, hex } from './bytes.js';

/** ResChunk_header types (ResourceTypes.h). */
export const ChunkType = {
  NULL: 0x0000,
  STRING_POOL: 0x0001,
  TABLE: 0x0002,
  XML: 0x0003,
  XML_START_NAMESPACE: 0x0100,
  XML_END_NAMESPACE: 0x0101,
  XML_START_ELEMENT: 0x0102,
  XML_END_ELEMENT: 0x0103,
  XML_CDATA: 0x0104,
  XML_LAST_CHUNK: 0x017f,
  XML_RESOURCE_MAP: 0x0180,
  TABLE_PACKAGE: 0x0200,
  TABLE_TYPE: 0x0201,
  TABLE_TYPE_SPEC: 0x0202,
  TABLE_LIBRARY: 0x0203,
  TABLE_OVERLAYABLE: 0x0204,
  TABLE_OVERLAYABLE_POLICY: 0x0205,
  TABLE_STAGED_ALIAS: 0x0206,
} as const;

export const CHUNK_HEADER_SIZE = 8;

export interface ChunkHeader {
  readonly type: number;
  readonly headerSize: number;
  readonly size: number;
  /** Absolute offset of the chunk in the buffer. */
  readonly offset: number;
}

/** Reads and validates one chunk header: it must fit between `offset` and `end`. */
export function readChunkHeader(r: ByteReader, offset: number, end: number, context: string): ChunkHeader {
  if (offset + CHUNK_HEADER_SIZE > end) {
    r.fail(`${context}: truncated chunk header at offset ${offset}`);
  }
  const type = r.u16(offset);
  const headerSize = r.u16(offset + 2);
  const size = r.u32(offset + 4);
  // The message prefix is built only on failure: this runs for every chunk and XML node.
  const what = (): string => `${context}: chunk type ${hex(type, 4)} at offset ${offset}`;
  if (headerSize < CHUNK_HEADER_SIZE) r.fail(`${what()} has header size ${headerSize} < 8`);
  if (size < headerSize) r.fail(`${what()} has size ${size} smaller than its header (${headerSize})`);
  if (offset + size > end) r.fail(`${what()} has size ${size} past the end of its parent (${end})`);
  return { type, headerSize, size, offset };
}

/** Requires a chunk's header to be at least `min` bytes (the fixed part of its struct). */
export function requireHeader(r: ByteReader, h: ChunkHeader, min: number, name: string): void {
  if (h.headerSize < min) {
    r.fail(`${name} chunk (type ${hex(h.type, 4)}) at offset ${h.offset}: header size ${h.headerSize} < ${min}`);
  }
}

/**
 * The child chunks between `start` and `end`, in order. Every step advances by a validated,
 * non-zero size, so a hostile table cannot loop.
 */
export function childChunks(r: ByteReader, start: number, end: number, context: string): ChunkHeader[] {
  const out: ChunkHeader[] = [];
  let offset = start;
  while (offset < end) {
    const h = readChunkHeader(r, offset, end, context);
    out.push(h);
    offset += h.size;
  }
  return out;
}

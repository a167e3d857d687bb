export { ByteReader, hex } from './bytes.js';
export { ChunkType, childChunks, readChunkHeader, type ChunkHeader } from './chunk.js';
export {
  CONFIG_STRUCT_SIZE,
  DEFAULT_CONFIG,
  configBcp47,
  configFromBytes,
  configLanguage,
  configRegion,
  parseConfig,
  type ResTableConfig,
} from './config.js';
export type * from './model.js';
export {
  MAX_STRING_POOL_ENTRIES,
  allStrings,
  emptyStringPool,
  parseStringPool,
  type StringPool,
  type StyleSpan,
} from './stringPool.js';
export { MAX_PACKAGES, parseResourceTable } from './table.js';
export { MAX_ENTRIES_PER_TYPE } from './typeChunk.js';
export * from './values.js';

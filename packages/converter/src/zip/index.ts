export { ZipReader, EntryVerifier, type ReadOptions, type ZipSlice } from './reader.js';
export {
  ZipWriter,
  FIXED_DOS_DATE,
  FIXED_DOS_TIME,
  prepareBuffer,
  type AddBufferOptions,
  type AddRawOptions,
  type PreparedBuffer,
  type ZipWriterOptions,
} from './writer.js';
export { crc32, crc32Update, Crc32 } from './crc32.js';
export { deflateRawSmall, deflatedLengthSmall, inflateRawSmall } from './smallZlib.js';
export { deflateSink, deflatedByteCount, inflateSink, type ZlibSink } from './zlibSink.js';
export { BackgroundVerifier, verifyEntry } from './verify.js';
export { VERIFY_WORKER_FROM, VerifierThreads, type ChunkHasher } from './verifierThread.js';
export { MAX_ENTRY_NAME_BYTES, checkEntryNameLength, normaliseEntryName, type NormalisedName } from './names.js';
export { METHOD_DEFLATED, METHOD_STORED, type ZipEntry } from './central.js';
export * from './limits.js';

/**
 * Sanity limits for reading an APK. An upload is at most 100 MB; these bounds leave room for
 * legitimate apps while refusing zip bombs and archives built to exhaust the worker.
 */
/** Most entries a central directory may declare. */
export const MAX_ENTRIES = 100_000;
/** Most bytes the central directory itself may occupy (read into memory whole). */
export const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;
/** Most inflated bytes one entry may declare. */
export const MAX_ENTRY_INFLATED_BYTES = 1024 * 1024 * 1024;
/** Most inflated bytes all entries together may declare. */
export const MAX_TOTAL_INFLATED_BYTES = 4 * 1024 * 1024 * 1024;
/** Most bytes of one entry the engine will hold in memory (manifest, resource table, XML). */
export const MAX_BUFFERED_ENTRY_BYTES = 256 * 1024 * 1024;
/** Highest inflated/compressed ratio allowed for an entry larger than the threshold below. */
export const MAX_COMPRESSION_RATIO = 250;
/** Entries that inflate to less than this are exempt from the ratio check. */
export const COMPRESSION_RATIO_THRESHOLD_BYTES = 8 * 1024 * 1024;

export interface ZipLimits {
  maxEntries: number;
  maxCentralDirectoryBytes: number;
  maxEntryInflatedBytes: number;
  maxTotalInflatedBytes: number;
  maxBufferedEntryBytes: number;
  maxCompressionRatio: number;
  compressionRatioThresholdBytes: number;
}

export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = Object.freeze({
  maxEntries: MAX_ENTRIES,
  maxCentralDirectoryBytes: MAX_CENTRAL_DIRECTORY_BYTES,
  maxEntryInflatedBytes: MAX_ENTRY_INFLATED_BYTES,
  maxTotalInflatedBytes: MAX_TOTAL_INFLATED_BYTES,
  maxBufferedEntryBytes: MAX_BUFFERED_ENTRY_BYTES,
  maxCompressionRatio: MAX_COMPRESSION_RATIO,
  compressionRatioThresholdBytes: COMPRESSION_RATIO_THRESHOLD_BYTES,
});

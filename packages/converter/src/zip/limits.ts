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

/**
 * Limits of a whole input: every APK of a split set together (the APKs inside an .apks, .xapk,
 * .apkm or .zip, or several APK files). The limits above apply to each reader on its own, so 500
 * inner APKs could each reach them; a set is one app, and gets what one APK gets.
 */
/** Most entries all the APKs of one input may declare together. */
export const MAX_SET_ENTRIES = MAX_ENTRIES;
/** Most inflated bytes all the APKs of one input may declare together. */
export const MAX_SET_INFLATED_BYTES = MAX_TOTAL_INFLATED_BYTES;
/**
 * Most bytes the deflated APKs of a container may inflate to the work folder (DATA_DIR/tmp on the
 * server): 20 times the largest upload (100 MB). An APK holds mostly compressed data (the
 * corpus's APKs deflate 1.0-2.7 to 1), so a real set inflates to a few times its size.
 */
export const MAX_SET_SCRATCH_BYTES = 2 * 1024 * 1024 * 1024;
/**
 * Highest ratio of the bytes inflated to the work folder to their compressed bytes, all the
 * container's deflated APKs together, once they pass the threshold below: a 4 MB upload of 500
 * zips of zeros inflated 4 GiB to disk before any manifest was read.
 */
export const MAX_SCRATCH_RATIO = 16;
/** Inflated to the work folder in all up to this, the ratio is not checked (small sets, tiny splits). */
export const SCRATCH_RATIO_THRESHOLD_BYTES = 64 * 1024 * 1024;

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

export { ConverterError, CONVERTER_ERRORS, isConverterError } from './errors.js';
export type { ConverterErrorCode } from './errors.js';

export { convertApk, type ConvertOptions, type ConversionLogEntry, type SignOptions } from './convert.js';
export { tuneV8ForConversion } from './v8flags.js';
export {
  loadSigningKey,
  openKeystore,
  generateUploadKeystore,
  generateTestKeystore,
  TEST_KEY_PASSWORD,
  readCertificate,
  fingerprint,
  toPem,
  MAX_KEYSTORE_BYTES,
  MIN_KEYSTORE_PASSWORD,
  type KeystoreInput,
  type SigningKey,
  type GeneratedKeystore,
  type KeygenOptions,
} from './sign/index.js';
export {
  buildApks,
  parseDeviceSpec,
  checkDeviceSpec,
  deviceSpecOfProfile,
  type BuildApksOptions,
  type DeviceSpec,
  type ApksReport,
  type ApkReport,
  type ApkSignatureReport,
  type ApksMode,
} from './apks/index.js';
export { checkApp, type AppCheck, type CheckAppOptions } from './checks/app.js';
export { inspectApk, type InspectOptions, type InputDescription, type ObbDescription } from './inspect.js';
export type { ContainerKind, InputFile } from './input/open.js';
export type { MergedSplit, ModuleKind } from './splits/classify.js';
export { ASSET_DELIVERIES, type AssetDelivery, type AssetPackRule } from './bundle/assetPacks.js';
export { PLAY_LIMITS, type PlayLimit } from './bundle/playLimits.js';
export { estimateDownloadSizes, type DeviceDownloadSize, type EstimateOptions } from './size/estimate.js';
export { DEVICE_PROFILES, type DeviceProfile } from './size/devices.js';
export { validateBundle, readBundleIdentity, runValidators, ALL_VALIDATORS, type BundleIdentity, type BundleProblem, type BundleView, type BundleFile, type Validator } from './validate/index.js';
export {
  CONVERSION_STAGES,
  WARNING_MESSAGES,
  type ApkInfo,
  type ConversionReport,
  type ConversionStage,
  type ConversionWarning,
  type ConverterWarningCode,
  type EntryCounts,
  type ModuleReport,
  type SignatureReport,
} from './report.js';
export type { SplitOptions } from './bundle/bundleConfig.js';
export { BUNDLETOOL_VERSION } from './bundle/bundleConfig.js';
export * as zipLimits from './zip/limits.js';
/** The zip writer the engine writes bundles and APKs with, for other archives of the product (the server's data exports). */
export { ZipWriter } from './zip/writer.js';

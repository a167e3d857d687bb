/**
 * The engine's report of one conversion as the server stores it and answers it (internal paths
 * removed): the app, its sizes, the modules of the bundle and the warnings.
 */
import type { ConversionSignatureJson, DeviceDownloadSizeJson } from './downloadSizes.js';
import type { PlayVersionCodes } from './playChecklist.js';
import type { DeviceProfileJson } from './apksOutput.js';

export interface ConversionReportJson {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  /** A number, or a preview codename the APK declares ('IceCreamSandwich'). */
  minSdk?: number | string;
  targetSdk?: number | string;
  debuggable: boolean;
  abis: string[];
  locales: string[];
  densities: number[];
  dexCount: number;
  entryCount: number;
  sizeIn: number;
  sizeOut: number;
  entries: { copiedRaw: number; converted: number; dropped: number; generated: number };
  durations: Record<string, number>;
  warnings: Array<{ code: string; message: string; detail?: string }>;
  /** Estimated download per representative device ('Economia estimada por dispositivo'). */
  downloadSizes?: DeviceDownloadSizeJson[];
  /** Present when the AAB was signed with the account's upload key. */
  signature?: ConversionSignatureJson;
  /** The bundle's modules (base, features, asset packs) with their compressed size in the AAB. */
  modules?: ConversionModuleJson[];
  /** The app's versionCodes on Google Play, read with the account's Play key before converting. */
  play?: PlayVersionCodes;
}

export interface ConversionModuleJson {
  name: string;
  kind: 'base' | 'feature' | 'asset-pack';
  /** Asset packs: install-time, fast-follow, on-demand or as-declared. */
  delivery?: string;
  files: number;
  sizeBytes: number;
}

/**
 * The report of an AAB → APK conversion (the engine's buildApks) as the server stores and answers
 * it: the app, the APKs written, what signed them, the warnings.
 */
export interface ApksReportJson {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  minSdk?: number;
  targetSdk?: number;
  /** The bundle's modules fused into the APK (or split in the device set). */
  modules: string[];
  /** The APKs built: the universal APK, or each APK of a device set with its path in the `.apks` (`splits/base-master.apk`). */
  apks: Array<{ name: string; path?: string; sizeBytes: number; entries: number }>;
  /** A device set: the device profile it was built for (absent: the universal APK). */
  device?: DeviceProfileJson;
  sizeIn: number;
  sizeOut: number;
  signature: {
    alias: string;
    subject: string;
    certificateSha256: string;
    schemes: string[];
    /** aabify's test key: the APK installs for testing; Google Play would refuse it. */
    testKey: boolean;
  };
  durations: Record<string, number>;
  warnings: Array<{ code: string; message: string; detail?: string }>;
}

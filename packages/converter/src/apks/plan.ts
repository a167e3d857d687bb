/**
 * What one APK is made of before it is written: its proto manifest and resource table, the
 * proto XML files it turns into binary XML, and every other file with where its bytes come
 * from. The universal APK and each split of a device set are planned this way, then written by
 * serialize.ts.
 */
import type { PbResourceTable, PbXmlNode } from '../proto/aapt.js';
import type { ZipEntry } from '../zip/index.js';

export interface PlannedFile {
  /** Path in the module (`dex/classes.dex`, `root/x`, `res/...`): bundletool's compression rules read it. */
  readonly modulePath: string;
  /** Path in the APK. */
  readonly path: string;
  /** The bundle entry holding the bytes, or the bytes themselves (generated files). */
  readonly entry?: ZipEntry;
  readonly data?: Uint8Array;
  /** Stored whatever the rules say (baseline profiles). */
  readonly forceUncompressed?: boolean;
}

export interface ApkPlan {
  /** Split name as bundletool names the APK (`universal`, `base-master`, `base-xxhdpi` ...). */
  readonly name: string;
  readonly manifest: PbXmlNode;
  readonly table?: PbResourceTable;
  /** Files by module path; res/ files are written only when the table references them. */
  readonly files: readonly PlannedFile[];
  /** Decoded proto XML by module path (res/ files referenced as PROTO_XML). */
  readonly xml: ReadonlyMap<string, PbXmlNode>;
}

/** What an APK is for, as bundletool's ApkTargeting says it (beyond the variant). */
export interface ApkTargeting {
  abi?: { value: string; alternatives: string[] };
  density?: { value: number; alternatives: number[] };
  languages?: string[];
  /** The lowest SDK level the APK installs on (split APKs). */
  sdkMin?: number;
}

/** What the .apks table of contents (toc.pb) says of one APK. */
export interface TocEntry {
  readonly kind: 'split' | 'standalone' | 'slice';
  readonly targeting: ApkTargeting;
  readonly master: boolean;
  readonly splitId?: string;
  /** The modules fused into a standalone APK. */
  readonly fusedModules?: readonly string[];
}

/** One APK of a device set, planned. */
export interface DeviceApk extends ApkPlan {
  /** Path in the .apks (`splits/base-master.apk`, `asset-slices/pack-master.apk`, `standalones/…`). */
  readonly path: string;
  readonly module: string;
  readonly toc: TocEntry;
}

/** A device set planned: its APKs and the variant they belong to. */
export interface DeviceSetPlan {
  readonly apks: readonly DeviceApk[];
  readonly variant: {
    /** bundletool's number of the variant among all it would build. */
    readonly number: number;
    readonly sdk: number;
    /** The other variants' lowest SDK levels. */
    readonly otherSdks: readonly number[];
    readonly abi?: ApkTargeting['abi'];
    readonly density?: ApkTargeting['density'];
  };
}

/** bundletool's toApkEntryPath: manifest/, dex/ and root/ move to the top of the APK. */
export function apkPath(modulePath: string): string {
  if (modulePath.startsWith('manifest/') || modulePath.startsWith('dex/')) return modulePath.slice(modulePath.indexOf('/') + 1);
  if (modulePath.startsWith('root/')) return modulePath.slice(5);
  return modulePath;
}

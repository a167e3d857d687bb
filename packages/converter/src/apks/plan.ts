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

/** One APK of a device set, planned. */
export interface DeviceApk extends ApkPlan {
  /** Path in the .apks (`splits/base-master.apk`, `asset-slices/pack-master.apk`, `standalones/…`). */
  readonly path: string;
  readonly module: string;
}

/** bundletool's toApkEntryPath: manifest/, dex/ and root/ move to the top of the APK. */
export function apkPath(modulePath: string): string {
  if (modulePath.startsWith('manifest/') || modulePath.startsWith('dex/')) return modulePath.slice(modulePath.indexOf('/') + 1);
  if (modulePath.startsWith('root/')) return modulePath.slice(5);
  return modulePath;
}

import { ConverterError } from '../errors.js';
import { isBinaryXml, parseBinaryXml, parseResourceTable, readManifest, tableSummary } from '../resources/index.js';
import type { ApkInfo } from '../report.js';
import type { ZipReader } from '../zip/index.js';
import type { RoutedEntries } from './collect.js';
import { guarded } from './module.js';

/** Reads what an APK says about itself (manifest and table) without converting anything. */
export async function readApkInfo(reader: ZipReader, routed: RoutedEntries, signal?: AbortSignal): Promise<ApkInfo> {
  if (!routed.manifest) throw new ConverterError('MISSING_MANIFEST');
  const manifestBytes = await reader.read(routed.manifest, { signal });
  if (!isBinaryXml(manifestBytes)) throw new ConverterError('BAD_MANIFEST', 'AndroidManifest.xml não é XML binário');
  const doc = await guarded('BAD_MANIFEST', 'AndroidManifest.xml', () => parseBinaryXml(manifestBytes, { errorCode: 'BAD_MANIFEST' }));
  const m = readManifest(doc);
  let locales: string[] = [];
  let densities: number[] = [];
  if (routed.resourceTable) {
    const buf = await reader.read(routed.resourceTable, { signal });
    const summary = tableSummary(await guarded('BAD_RESOURCE_TABLE', 'resources.arsc', () => parseResourceTable(buf)));
    locales = summary.locales;
    densities = summary.densities;
  }
  return {
    packageName: m.packageName,
    ...(m.versionCode !== undefined ? { versionCode: m.versionCode } : {}),
    ...(m.versionName !== undefined ? { versionName: m.versionName } : {}),
    ...(m.minSdk !== undefined ? { minSdk: m.minSdk } : {}),
    ...(m.targetSdk !== undefined ? { targetSdk: m.targetSdk } : {}),
    debuggable: m.debuggable === true,
    abis: [...routed.abis].sort(),
    locales,
    densities,
    dexCount: routed.dex.size,
    entryCount: routed.fileCount,
    sizeBytes: reader.fileSize,
    hasResourceTable: routed.resourceTable !== undefined,
    v1Signed: routed.v1Signed,
  };
}

/**
 * What `aabify convert --json` prints once an AAB is saved, the same in both modes (`--local` and
 * through the server), and what CI integrations are made of: the GitHub Action's outputs and job
 * summary, the GitLab template's dotenv report (ciFiles.ts). docs/cli.md "JSON output" documents it.
 */
import type { ConversionReport } from '@aabify/converter';
import type { DeviceDownloadSizeJson } from '@aabify/shared/downloadSizes';
import { isRecord } from '@aabify/shared/json';
import { num, str } from './api/types.js';
import { downloadSizesOfReport } from './signing.js';
import type { PlayCheck } from '@aabify/shared/playChecklist';
import { checklistOf, serverChecklist, type ChecklistRow } from './checklist.js';

export interface ConvertResult {
  mode: 'local' | 'server';
  /** The server's conversion id; null for `--local`. */
  conversionId: string | null;
  /** Absolute path of the saved AAB. */
  output: string;
  /** Size of the AAB in bytes. */
  bytes: number;
  sha256: string;
  app: { packageName: string | null; versionName: string | null; versionCode: number | null };
  /** Size of the input (the APK, or every file of a split set) in bytes. */
  inputBytes: number | null;
  signature: { alias: string; certificateSha256: string } | null;
  /** Play's estimated download per representative device, AAB against APK. */
  downloadSizes: DeviceDownloadSizeJson[];
  warnings: { code: string; message: string }[];
  /** What Google Play would refuse or warn about, blockers first (the service's checklist in server mode). */
  checklist: ChecklistRow[];
}

/** The result of a conversion the engine ran on this machine (`versionCodeRow`: the comparison with Google Play, when made). */
export function localConvertResult(report: ConversionReport, saved: { output: string; sha256: string }, versionCodeRow?: PlayCheck): ConvertResult {
  return {
    mode: 'local',
    conversionId: null,
    output: saved.output,
    bytes: report.sizeOut,
    sha256: saved.sha256,
    app: { packageName: report.packageName, versionName: report.versionName ?? null, versionCode: report.versionCode ?? null },
    inputBytes: report.sizeIn,
    signature: report.signature ? { alias: report.signature.alias, certificateSha256: report.signature.certificateSha256 } : null,
    downloadSizes: report.downloadSizes.map(({ device, compatible, bundleBytes, apkBytes, savedBytes, savedPercent }) => ({
      deviceId: device.id,
      label: device.label,
      compatible,
      bundleBytes,
      apkBytes,
      savedBytes,
      savedPercent,
    })),
    warnings: report.warnings.map(({ code, message }) => ({ code, message })),
    checklist: checklistOf(report, [], versionCodeRow),
  };
}

/** One well-formed row of a server report's downloadSizes (none otherwise). */
function deviceSize(raw: unknown): DeviceDownloadSizeJson[] {
  const [row] = downloadSizesOfReport({ downloadSizes: [raw] });
  if (!row || !isRecord(raw)) return [];
  const { compatible, bundleBytes, apkBytes, savedBytes, savedPercent } = row;
  return [{ deviceId: str(raw.deviceId) ?? '', label: row.device.label, compatible, bundleBytes, apkBytes, savedBytes, savedPercent }];
}

/** The result of a server conversion whose AAB was downloaded; `conversion` is the API's answer as received. */
export function serverConvertResult(conversionId: string, conversion: Record<string, unknown>, saved: { path: string; bytes: number; sha256: string }): ConvertResult {
  // An AAB → APK conversion reports its APK in `apks` (with the key that signed it, test key included).
  const report = isRecord(conversion.report) ? conversion.report : isRecord(conversion.apks) ? conversion.apks : {};
  const signature = isRecord(report.signature) ? report.signature : undefined;
  const warnings = Array.isArray(report.warnings) ? report.warnings.filter(isRecord) : [];
  return {
    mode: 'server',
    conversionId,
    output: saved.path,
    bytes: saved.bytes,
    sha256: saved.sha256,
    app: { packageName: str(report.packageName) ?? null, versionName: str(report.versionName) ?? null, versionCode: num(report.versionCode) ?? null },
    inputBytes: num(report.sizeIn) ?? num(conversion.fileSize) ?? null,
    signature: signature && str(signature.alias) ? { alias: str(signature.alias)!, certificateSha256: str(signature.certificateSha256) ?? '' } : null,
    downloadSizes: Array.isArray(report.downloadSizes) ? report.downloadSizes.flatMap((raw: unknown) => deviceSize(raw)) : [],
    warnings: warnings.map((w) => ({ code: str(w.code) ?? 'WARNING', message: str(w.message) ?? '' })),
    checklist: serverChecklist(conversion.checklist),
  };
}

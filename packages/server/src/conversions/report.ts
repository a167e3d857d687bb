import type { ApksReport, ConversionReport, DeviceDownloadSize, DeviceProfile, SignatureReport } from '@aabify/converter';
import type { ApksReportJson, ConversionReportJson, ConversionSignatureJson, DeviceDownloadSizeJson } from '@aabify/shared';

function downloadSizeJson(d: DeviceDownloadSize): DeviceDownloadSizeJson {
  const { device, compatible, bundleBytes, apkBytes, savedBytes, savedPercent } = d;
  return { deviceId: device.id, label: device.label, compatible, bundleBytes, apkBytes, savedBytes, savedPercent };
}

function signatureJson(s: SignatureReport): ConversionSignatureJson {
  return { alias: s.alias, signatureAlgorithm: s.signatureAlgorithm, subject: s.subject, certificateSha256: s.certificateSha256, notAfter: s.notAfter };
}

/** The engine's report as kept with the conversion: every fact, no server paths. */
export function storedReport(r: ConversionReport): ConversionReportJson {
  const durations: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.durations)) if (typeof v === 'number') durations[k] = v;
  return {
    packageName: r.packageName,
    versionCode: r.versionCode,
    versionName: r.versionName,
    minSdk: r.minSdk,
    targetSdk: r.targetSdk,
    debuggable: r.debuggable,
    abis: r.abis,
    locales: r.locales,
    densities: r.densities,
    dexCount: r.dexCount,
    entryCount: r.entryCount,
    sizeIn: r.sizeIn,
    sizeOut: r.sizeOut,
    entries: r.entries,
    durations,
    warnings: r.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.detail ? { detail: w.detail } : {}) })),
    ...(r.downloadSizes?.length ? { downloadSizes: r.downloadSizes.map(downloadSizeJson) } : {}),
    ...(r.signature ? { signature: signatureJson(r.signature) } : {}),
    ...(r.modules?.length ? { modules: r.modules.map(({ name, kind, delivery, files, sizeBytes }) => ({ name, kind, ...(delivery ? { delivery } : {}), files, sizeBytes })) } : {}),
  };
}

/** The APK report of an AAB → APK conversion as kept with it (`device`: the profile of a device set): every fact, no server paths. */
export function storedApksReport(r: ApksReport, device?: DeviceProfile): ApksReportJson {
  const durations: Record<string, number> = {};
  for (const [k, v] of Object.entries(r.durations)) if (typeof v === 'number') durations[k] = v;
  const s = r.signature;
  return {
    packageName: r.packageName,
    ...(r.versionCode !== undefined ? { versionCode: r.versionCode } : {}),
    ...(r.versionName !== undefined ? { versionName: r.versionName } : {}),
    ...(r.minSdk !== undefined ? { minSdk: r.minSdk } : {}),
    ...(r.targetSdk !== undefined ? { targetSdk: r.targetSdk } : {}),
    modules: r.modules,
    // A set's APKs by their path inside it; a universal APK's path is the server's output file.
    apks: r.apks.map(({ name, path, sizeBytes, entries }) => ({ name, ...(r.mode === 'device' ? { path } : {}), sizeBytes, entries })),
    ...(device ? { device: { id: device.id, label: device.label } } : {}),
    sizeIn: r.sizeIn,
    sizeOut: r.sizeOut,
    signature: { alias: s.alias, subject: s.subject, certificateSha256: s.certificateSha256, schemes: s.schemes, testKey: s.testKey },
    durations,
    warnings: r.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.detail ? { detail: w.detail } : {}) })),
  };
}

/** Overall progress (0–100) of an engine stage's fraction. */
const STAGE_RANGES: Record<string, [number, number]> = {
  reading: [5, 15],
  manifest: [15, 20],
  resources: [20, 60],
  validating: [60, 70],
  writing: [70, 94],
  done: [94, 95],
};

export function overallProgress(stage: string, fraction: number): number {
  const range = STAGE_RANGES[stage];
  if (!range) return 5;
  const f = Math.min(1, Math.max(0, fraction));
  return Math.round(range[0] + (range[1] - range[0]) * f);
}

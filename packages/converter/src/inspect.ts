import { routeEntries } from './bundle/collect.js';
import { readApkInfo } from './bundle/plan.js';
import type { ApkInfo } from './report.js';
import { estimateDownloadSizes, type DeviceDownloadSize } from './size/estimate.js';
import { ZipReader } from './zip/index.js';

export interface InspectOptions {
  /** Also estimate per-device download sizes from a bundle (default false: it deflates entries). */
  downloadSizes?: boolean;
}

/** What the APK says about itself (package, versions, SDKs, ABIs, locales ...), without converting. */
export async function inspectApk(input: string, options: InspectOptions = {}): Promise<ApkInfo & { downloadSizes?: DeviceDownloadSize[] }> {
  const reader = await ZipReader.open(input);
  try {
    const routed = routeEntries(reader);
    const info = await readApkInfo(reader, routed);
    if (options.downloadSizes !== true) return info;
    return { ...info, downloadSizes: await estimateDownloadSizes(reader, routed) };
  } finally {
    await reader.close();
  }
}

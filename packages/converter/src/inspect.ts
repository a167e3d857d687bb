import { routeEntries } from './bundle/collect.js';
import { readApkInfo } from './bundle/plan.js';
import type { ApkInfo } from './report.js';
import { ZipReader } from './zip/index.js';

/** What the APK says about itself (package, versions, SDKs, ABIs, locales ...), without converting. */
export async function inspectApk(input: string): Promise<ApkInfo> {
  const reader = await ZipReader.open(input);
  try {
    return await readApkInfo(reader, routeEntries(reader));
  } finally {
    await reader.close();
  }
}

import { obbKind } from './bundle/assetPacks.js';
import { routeEntries } from './bundle/collect.js';
import { readApkInfo } from './bundle/plan.js';
import { openInputs, type ContainerKind, type InputFile } from './input/open.js';
import type { ApkInfo } from './report.js';
import { estimateDownloadSizes, type DeviceDownloadSize } from './size/estimate.js';
import { groupSplits, readSplit, type MergedSplit, type ModuleKind, type SplitApk } from './splits/classify.js';

export interface InspectOptions {
  /** Also estimate per-device download sizes (one APK only; default false: it deflates entries). */
  downloadSizes?: boolean;
  /** Files to take as OBBs whatever their name. */
  obb?: readonly InputFile[];
}

export interface ObbDescription {
  name: string;
  size: number;
  /** `main` or `patch` when named as Play names them (`main.<versionCode>.<package>.obb`). */
  kind?: 'main' | 'patch';
  versionCode?: number;
  packageName?: string;
  /** Named for this app (package and a versionCode not above the APK's). */
  matchesApp: boolean;
}

export interface InputDescription extends ApkInfo {
  container: ContainerKind;
  /** The `split` a lone APK declares (a configuration or feature split, not a base). */
  split?: string;
  /** The bundle's modules the input would make (asset packs from OBBs not included). */
  modules: { name: string; kind: ModuleKind; configs: string[] }[];
  /** Each APK of a split set: the module it belongs to and as what (empty for one APK). */
  splits: MergedSplit[];
  obbs: ObbDescription[];
  /** APKs of a container left out on purpose (bundletool's standalone and universal APKs). */
  ignored: string[];
  downloadSizes?: DeviceDownloadSize[];
}

/**
 * What an APK — or a split set, or several files with OBBs — says about itself (package,
 * versions, SDKs, ABIs, locales, densities, modules, splits, OBBs), without converting.
 */
export async function inspectApk(input: InputFile | readonly InputFile[], options: InspectOptions = {}): Promise<InputDescription> {
  const opened = await openInputs(Array.isArray(input) ? (input as readonly InputFile[]) : [input as InputFile], { obb: options.obb });
  try {
    const splits: SplitApk[] = [];
    for (const part of opened.apks) splits.push(await readSplit(part));
    // A lone APK is described as it is, even a configuration split (which conversion refuses).
    const lone = splits.length === 1 ? splits[0] : undefined;
    const { modules, merged } = lone
      ? { modules: lone.manifest.split ? [] : [{ name: 'base', kind: 'base' as const, master: lone, configs: [] }], merged: [] }
      : groupSplits(splits);
    const baseParts = lone ? [lone] : [modules[0].master, ...modules[0].configs];
    const infos: ApkInfo[] = [];
    for (const p of baseParts) infos.push(await readApkInfo(p.part.reader, p.routed));
    const union = <T>(f: (i: ApkInfo) => T[]): T[] => [...new Set(infos.flatMap(f))];
    const info: ApkInfo = {
      ...infos[0],
      abis: union((i) => i.abis).sort(),
      locales: union((i) => i.locales).sort(),
      densities: union((i) => i.densities).sort((a, b) => a - b),
      entryCount: splits.reduce((n, s) => n + s.routed.fileCount, 0),
      sizeBytes: opened.sizeBytes,
    };
    const obbs = opened.obbs.map((o): ObbDescription => {
      const k = obbKind(o.name);
      const matchesApp = k !== undefined && k.packageName === info.packageName && (info.versionCode === undefined || k.versionCode <= info.versionCode);
      return { name: o.name, size: o.size, ...(k ? { kind: k.kind, versionCode: k.versionCode, packageName: k.packageName } : {}), matchesApp };
    });
    const single = splits.length === 1 && options.downloadSizes === true ? splits[0] : undefined;
    return {
      ...info,
      ...(lone?.manifest.split ? { split: lone.manifest.split } : {}),
      container: opened.container,
      modules: modules.map((m) => ({ name: m.name, kind: m.kind, configs: m.configs.map((c) => c.config) })),
      splits: splits.length > 1 ? merged : [],
      obbs,
      ignored: opened.ignored,
      ...(single ? { downloadSizes: await estimateDownloadSizes(single.part.reader, routeEntries(single.part.reader)) } : {}),
    };
  } finally {
    await opened.close();
  }
}

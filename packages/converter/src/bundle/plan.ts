/**
 * The whole bundle, planned in memory before a byte is written: every module (the base and its
 * configuration splits merged, features, asset packs from splits, OBBs and globs), then
 * BundleConfig.pb, assets.pb and native.pb. Converted files are held as bytes; the rest is only
 * referenced, to be copied raw when the bundle is written.
 */
import { ConverterError } from '../errors.js';
import { checkEntryNameLength } from '../zip/index.js';
import type { ObbInput } from '../input/open.js';
import { encodeMessage } from '../proto/bundle.js';
import { warning, type ApkInfo, type ConversionWarning, type EntryCounts } from '../report.js';
import type { MergedSplit, ModuleParts } from '../splits/classify.js';
import { assetPackOf, checkPackName, obbKind, planGeneratedPack, planSplitAssetPack, type AssetDelivery, type AssetPackPlan, type AssetPackRule } from './assetPacks.js';
import { buildBundleConfig, type SplitOptions } from './bundleConfig.js';
import { storage } from './collect.js';
import { ASSETS_PB, BUNDLE_CONFIG, NATIVE_PB } from './layout.js';
import { planCodeModule, type AssetCopy, type ModuleHooks, type ModulePlan, type PlannedFile } from './module.js';
import { buildAssetsConfig, buildNativeConfig } from './targeting.js';

export type { PlannedFile };

/** A module of the bundle as the report describes it. */
export interface ModuleSummary {
  name: string;
  kind: 'base' | 'feature' | 'asset-pack';
  /** Asset packs: how Play delivers it (`as-declared` when a split's manifest says). */
  delivery?: AssetDelivery | 'as-declared';
  files: number;
}

export interface BundlePlan {
  /** BundleConfig.pb first, then every module's files in path order. */
  files: PlannedFile[];
  info: ApkInfo;
  counts: EntryCounts;
  warnings: ConversionWarning[];
  modules: ModuleSummary[];
}

export interface PlanHooks {
  signal?: AbortSignal;
  stage(stage: 'manifest' | 'resources', fraction: number): void;
  log(level: 'info' | 'warn', step: 'manifest' | 'resources', message: string): void;
  resourceTable?: ModuleHooks['resourceTable'];
}

export interface PlanOptions {
  versionCode?: number;
  versionName?: string;
  splits?: SplitOptions;
  /** How Play delivers the packs made from OBB files (install-time by default). */
  assetDelivery?: AssetDelivery;
  assetPacks?: readonly AssetPackRule[];
}

export interface PlanInput {
  modules: ModuleParts[];
  obbs: readonly ObbInput[];
  merged: readonly MergedSplit[];
  sizeBytes: number;
}

/** Reads what the APK says about itself (manifest and table) without converting anything. */
export { readApkInfo } from './info.js';

function byPath(a: PlannedFile, b: PlannedFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The pack of each OBB file: `obb_main`, `obb_patch`, or `obb_<n>` for a file not named as Play names them. */
function obbPackNames(obbs: readonly ObbInput[]): string[] {
  const names = new Set<string>();
  return obbs.map((o, i) => {
    const kind = obbKind(o.name);
    let name = kind ? `obb_${kind.kind}` : `obb_${i + 1}`;
    if (names.has(name)) name = `${name}_${i + 1}`;
    names.add(name);
    return name;
  });
}

/** One pack per OBB file (obbPackNames). */
function obbPacks(obbs: readonly ObbInput[], packageName: string, versionCode: number | undefined, delivery: AssetDelivery, warn: (w: ConversionWarning) => void): AssetPackPlan[] {
  const packs: AssetPackPlan[] = [];
  const names = obbPackNames(obbs);
  obbs.forEach((o, i) => {
    const kind = obbKind(o.name);
    if (!kind || kind.packageName !== packageName || (versionCode !== undefined && kind.versionCode > versionCode)) {
      warn(warning('OBB_NAME_UNEXPECTED', [o.label], `esperado main|patch.<versionCode>.${packageName}.obb`));
    }
    packs.push(planGeneratedPack(packageName, names[i], delivery, [], [o], 'obb'));
  });
  if (obbs.length > 0) warn(warning('OBB_READ_BY_PATH', obbs.map((o) => o.name)));
  return packs;
}

/**
 * Refuses, before any conversion work, an entry whose path in the bundle would not fit a zip
 * name (UNSAFE_PATH naming it): each APK entry under its module (an asset also under the
 * longest asset pack a rule could send it to), each OBB under its pack. The written files are
 * checked again once planned (generated names included).
 */
function checkPathLengths(input: PlanInput, rules: readonly AssetPackRule[]): void {
  const bytes = (s: string): number => Buffer.byteLength(s, 'utf8') + 1; // and its "/"
  const packPrefix = rules.reduce((n, r) => Math.max(n, bytes(r.name)), 0);
  for (const m of input.modules) {
    const prefix = bytes(m.name);
    for (const p of [m.master, ...m.configs]) {
      for (const path of p.routed.res.keys()) checkEntryNameLength(path, prefix);
      for (const path of p.routed.copies.keys()) checkEntryNameLength(path, path.startsWith('assets/') ? Math.max(prefix, packPrefix) : prefix);
    }
  }
  const packs = obbPackNames(input.obbs);
  input.obbs.forEach((o, i) => checkEntryNameLength(`assets/${o.name}`, bytes(packs[i])));
}

export async function planBundle(input: PlanInput, options: PlanOptions, hooks: PlanHooks): Promise<BundlePlan> {
  const warnings: ConversionWarning[] = [];
  const moduleHooks: ModuleHooks = {
    ...hooks,
    warn: (step, w) => {
      warnings.push(w);
      hooks.log('warn', step, w.detail ? `${w.message} (${w.detail})` : w.message);
    },
  };
  const warn = (w: ConversionWarning): void => moduleHooks.warn('resources', w);
  const taken = new Set(input.modules.map((m) => m.name));
  const rules = options.assetPacks ?? [];
  for (const name of new Set(rules.map((r) => r.name))) checkPackName(name, taken);
  const packOf = assetPackOf(rules);
  checkPathLengths(input, rules);

  const codeModules: ModulePlan[] = [];
  const packs: AssetPackPlan[] = [];
  const diverted = new Map<string, AssetCopy[]>();
  for (const m of input.modules) {
    if (m.kind === 'asset-pack') {
      packs.push(planSplitAssetPack(m));
      continue;
    }
    const plan = await planCodeModule(
      m,
      { versionCode: options.versionCode, versionName: options.versionName, ...(m.kind === 'base' && rules.length > 0 ? { divertAsset: (p: string) => packOf(p) !== undefined } : {}) },
      m.kind === 'base' ? moduleHooks : { ...moduleHooks, resourceTable: undefined },
    );
    for (const a of plan.diverted) diverted.set(packOf(a.path)!, [...(diverted.get(packOf(a.path)!) ?? []), a]);
    codeModules.push(plan);
  }
  const base = codeModules[0];
  if (base?.name !== 'base') throw new ConverterError('MISSING_BASE_SPLIT');
  const pkg = base.manifest.packageName;
  for (const rule of rules) {
    if (packs.some((p) => p.name === rule.name)) continue;
    const assets = diverted.get(rule.name) ?? [];
    if (assets.length === 0) {
      warn(warning('ASSET_PACK_EMPTY', [], `${rule.name}=${rule.glob}`));
      continue;
    }
    const delivery = rules.find((r) => r.name === rule.name && r.delivery)?.delivery ?? 'install-time';
    packs.push(planGeneratedPack(pkg, rule.name, delivery, assets, [], 'glob'));
  }
  const obbDelivery = options.assetDelivery ?? 'install-time';
  const fromObb = obbPacks(input.obbs, pkg, base.manifest.versionCode, obbDelivery, warn);
  for (const p of fromObb) checkPackName(p.name, new Set([...taken, ...packs.map((x) => x.name)]));
  packs.push(...fromObb);
  if (packs.some((p) => p.delivery !== 'install-time' && p.delivery !== 'as-declared')) warn(warning('ASSET_PACK_NEEDS_API'));

  // Generated files.
  const files: PlannedFile[] = [];
  let generated = 1;
  const storedPaths: string[] = [];
  for (const m of codeModules) {
    files.push(...m.files);
    storedPaths.push(...m.storedPaths);
    const assets = buildAssetsConfig(m.assetPaths);
    if (assets) {
      files.push({ path: `${m.name}/${ASSETS_PB}`, data: encodeMessage('Assets', assets), message: assets });
      generated++;
    }
    const native = buildNativeConfig([...m.abis]);
    if (native) {
      files.push({ path: `${m.name}/${NATIVE_PB}`, data: encodeMessage('NativeLibraries', native), message: native });
      generated++;
    }
  }
  for (const p of packs) {
    files.push(...p.files);
    storedPaths.push(...p.storedPaths);
    const assets = buildAssetsConfig(p.assetPaths);
    if (assets) {
      files.push({ path: `${p.name}/${ASSETS_PB}`, data: encodeMessage('Assets', assets), message: assets });
      generated++;
    }
    if (p.origin !== 'split') generated++; // the manifest written here
  }
  const { config, unglobbable } = buildBundleConfig(
    {
      storedPaths: [...new Set(storedPaths)],
      nativeLibs: storage(codeModules.flatMap((m) => m.libs)),
      extractNativeLibs: base.extractNativeLibs,
      dex: storage(codeModules.flatMap((m) => m.dex)),
    },
    options.splits,
  );
  if (unglobbable.length > 0) warn(warning('STORED_ENTRY_NOT_PROTECTED', unglobbable));
  for (const f of files) checkEntryNameLength(f.path);
  files.sort(byPath);
  // The messages go with the bytes: the validators read them instead of decoding the bytes back
  // (protobufjs would generate its decoders for it, ~20 ms of a small conversion).
  files.unshift({ path: BUNDLE_CONFIG, data: encodeMessage('BundleConfig', config), message: config });

  const converted = codeModules.reduce((n, m) => n + m.converted, 0) + packs.filter((p) => p.origin === 'split').length;
  const modules: ModuleSummary[] = [
    ...codeModules.map((m) => ({ name: m.name, kind: m.name === 'base' ? ('base' as const) : ('feature' as const), files: files.filter((f) => f.path.startsWith(`${m.name}/`)).length })),
    ...packs.map((p) => ({ name: p.name, kind: 'asset-pack' as const, delivery: p.delivery, files: files.filter((f) => f.path.startsWith(`${p.name}/`)).length })),
  ];
  return {
    files,
    info: {
      ...factsOf(base, input.modules[0], input.sizeBytes),
      abis: [...new Set(codeModules.flatMap((m) => [...m.abis]))].sort(),
    },
    counts: {
      copiedRaw: files.filter((f) => f.source || f.file).length,
      converted,
      dropped: codeModules.reduce((n, m) => n + m.dropped, 0),
      generated,
    },
    warnings,
    modules,
  };
}

function factsOf(base: ModulePlan, parts: ModuleParts, sizeBytes: number): ApkInfo {
  const m = base.manifest;
  return {
    packageName: m.packageName,
    ...(m.versionCode !== undefined ? { versionCode: m.versionCode } : {}),
    ...(m.versionName !== undefined ? { versionName: m.versionName } : {}),
    ...(m.minSdk !== undefined ? { minSdk: m.minSdk } : {}),
    ...(m.targetSdk !== undefined ? { targetSdk: m.targetSdk } : {}),
    debuggable: m.debuggable === true,
    abis: [...base.abis].sort(),
    locales: base.locales,
    densities: base.densities,
    dexCount: base.dex.length,
    entryCount: base.fileCount,
    sizeBytes,
    hasResourceTable: [parts.master, ...parts.configs].some((p) => p.routed.resourceTable !== undefined),
    v1Signed: base.v1Signed,
  };
}


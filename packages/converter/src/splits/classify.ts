/**
 * Sorts the APKs of a split set into the bundle's modules by what their manifests say
 * (docs/aab-format.md "Mapping APK entries", bundletool's ModuleSplit): the base APK has no `split`; a configuration
 * split is `config.<x>` (base) or `<feature>.config.<x>` with `configForSplit`; a feature split
 * has `split="<feature>"` and `android:isFeatureSplit`; an asset pack's manifest says
 * `<dist:module dist:type="asset-pack">`. Refuses what cannot be one app.
 */
import { ConverterError, isConverterError, type ConverterErrorCode } from '../errors.js';
import type { ApkPart } from '../input/open.js';
import { isBinaryXml, parseBinaryXml, readManifest, type ManifestInfo, type XmlDocument } from '../resources/index.js';
import { findPlainAttr, attrText } from '../resources/manifest.js';
import { routeEntries, type RoutedEntries } from '../bundle/collect.js';
import { DIST_NS, MODULE_NAME } from '../bundle/layout.js';
import type { ZipReader } from '../zip/index.js';

export type ModuleKind = 'base' | 'feature' | 'asset-pack';

/** One APK of the set, read as far as sorting needs. */
export interface SplitApk {
  part: ApkPart;
  routed: RoutedEntries;
  doc: XmlDocument;
  manifest: ManifestInfo;
  /** '' for a module's master APK; the configuration (`xxhdpi`, `arm64_v8a`, `pt`) for a config split. */
  config: string;
}

export interface ModuleParts {
  name: string;
  kind: ModuleKind;
  master: SplitApk;
  configs: SplitApk[];
}

/** What the report lists about the set: each APK, the module it went into, and as what. */
export interface MergedSplit {
  source: string;
  module: string;
  /** `master`, `config.<x>`, `duplicate` (an identical copy, left out) or `variant` (another Android-version variant of a split in an .apks, left out). */
  role: string;
}

async function guarded<T>(code: ConverterErrorCode, what: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isConverterError(e)) throw new ConverterError(e.code, `${what}: ${e.detail ?? e.message}`, { cause: e });
    throw new ConverterError(code, `${what}: ${(e as Error).message}`, { cause: e });
  }
}

export async function readSplit(part: ApkPart, signal?: AbortSignal): Promise<SplitApk> {
  const routed = routeEntries(part.reader);
  if (!routed.manifest) throw new ConverterError('MISSING_MANIFEST', part.label);
  const bytes = await part.reader.read(routed.manifest, { signal });
  if (!isBinaryXml(bytes)) throw new ConverterError('BAD_MANIFEST', `${part.label}: AndroidManifest.xml não é XML binário`);
  const doc = await guarded('BAD_MANIFEST', part.label, () => parseBinaryXml(bytes, { errorCode: 'BAD_MANIFEST' }));
  const manifest = readManifest(doc);
  const split = manifest.split ?? '';
  const inner = split.indexOf('.config.');
  const config = split.startsWith('config.') ? split.slice('config.'.length) : inner >= 0 ? split.slice(inner + '.config.'.length) : '';
  return { part, routed, doc, manifest, config };
}

/** The module a split belongs to: `base`, or the feature / asset pack it names. */
function moduleOf(s: SplitApk): string {
  const split = s.manifest.split ?? '';
  if (split === '') return 'base';
  if (s.config === '') return split;
  const forSplit = findPlainAttr(s.doc.root, 'configForSplit');
  const owner = forSplit ? attrText(s.doc, forSplit) : '';
  if (owner !== '') return owner;
  return split.startsWith('config.') ? 'base' : split.slice(0, split.indexOf('.config.'));
}

/** `feature`, or `asset-pack` when the master's <dist:module dist:type="asset-pack">. */
function moduleKind(master: SplitApk, name: string): ModuleKind {
  if (name === 'base') return 'base';
  const dist = master.doc.root.children.find((c) => c.kind === 'element' && c.name === 'module' && c.namespaceUri === DIST_NS);
  if (dist?.kind !== 'element') return 'feature';
  const type = dist.attributes.find((a) => a.name === 'type' && a.namespaceUri === DIST_NS);
  return type && attrText(master.doc, type) === 'asset-pack' ? 'asset-pack' : 'feature';
}

/** The variant number of a split in bundletool's .apks (`…/base-master_2.apk` → 2, `…/base-master.apk` → 1). */
function variantOf(label: string): number | undefined {
  const m = /!(?:splits|asset-slices)\/[^/]+?(?:_(\d+))?\.apk$/.exec(label);
  return m ? Number(m[1] ?? 1) : undefined;
}

/** The entries of an APK as name, CRC and size: two APKs with the same fingerprint hold the same files. */
function fingerprint(reader: ZipReader): string {
  return reader.entries
    .filter((e) => !e.isDirectory && !/^META-INF\//.test(e.name))
    .map((e) => `${e.name}:${e.crc32}:${e.uncompressedSize}`)
    .sort()
    .join('\n');
}

/**
 * Groups the set into modules (base first, then by name). Refuses splits of different apps,
 * a set without its base APK (or a configuration split without its module), and two APKs that
 * claim the same split with different content; an identical copy is left out and listed.
 */
export function groupSplits(splits: SplitApk[]): { modules: ModuleParts[]; merged: MergedSplit[] } {
  const first = splits[0];
  for (const s of splits) {
    if (s.manifest.packageName !== first.manifest.packageName) {
      throw new ConverterError('SPLIT_MISMATCH', `${first.part.label}: ${first.manifest.packageName}; ${s.part.label}: ${s.manifest.packageName}`);
    }
    // Asset-pack slices carry no versionCode (an asset pack must not declare one).
    if (s.manifest.versionCode !== undefined && first.manifest.versionCode !== undefined && s.manifest.versionCode !== first.manifest.versionCode) {
      throw new ConverterError('SPLIT_MISMATCH', `${first.part.label}: versionCode ${first.manifest.versionCode}; ${s.part.label}: versionCode ${s.manifest.versionCode}`);
    }
  }
  const merged: MergedSplit[] = [];
  const byId = new Map<string, SplitApk>();
  for (const s of splits) {
    const id = s.manifest.split ?? '';
    const prior = byId.get(id);
    if (!prior) {
      byId.set(id, s);
      continue;
    }
    if (fingerprint(prior.part.reader) === fingerprint(s.part.reader)) {
      merged.push({ source: s.part.label, module: moduleOf(s), role: 'duplicate' });
      continue;
    }
    // bundletool's .apks holds a variant per range of Android versions (`base-master_2.apk`):
    // the same split for other devices, differing only in what bundletool stamps on it. The
    // first variant is kept; two different APKs of one split anywhere else are a conflict.
    const pv = variantOf(prior.part.label);
    const sv = variantOf(s.part.label);
    if (pv === undefined || sv === undefined) {
      throw new ConverterError('SPLIT_CONFLICT', `${prior.part.label} e ${s.part.label}: split "${id || 'base'}" com conteúdos diferentes`);
    }
    const [keep, drop] = sv < pv ? [s, prior] : [prior, s];
    byId.set(id, keep);
    merged.push({ source: drop.part.label, module: moduleOf(drop), role: 'variant' });
  }
  const masters = new Map<string, SplitApk>();
  const configs = new Map<string, SplitApk[]>();
  for (const s of byId.values()) {
    const module = moduleOf(s);
    if (s.config === '') masters.set(module, s);
    else configs.set(module, [...(configs.get(module) ?? []), s]);
  }
  if (!masters.has('base')) {
    if (splits.length === 1 && splits[0].manifest.split) throw new ConverterError('NOT_A_BASE_APK', `split="${splits[0].manifest.split}"`);
    throw new ConverterError('MISSING_BASE_SPLIT', [...byId.values()].map((s) => `${s.part.label}: split="${s.manifest.split ?? ''}"`).join('; '));
  }
  for (const [module, list] of configs) {
    if (!masters.has(module)) {
      throw new ConverterError('MISSING_BASE_SPLIT', `${list.map((s) => s.part.label).join(', ')}: configuração do módulo "${module}", que não veio no conjunto`);
    }
  }
  const names = [...masters.keys()].sort((a, b) => (a === 'base' ? -1 : b === 'base' ? 1 : a < b ? -1 : 1));
  const modules = names.map((name): ModuleParts => {
    if (!MODULE_NAME.test(name)) throw new ConverterError('SPLIT_MISMATCH', `nome de módulo inválido: "${name}"`);
    const master = masters.get(name)!;
    const list = (configs.get(name) ?? []).sort((a, b) => (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
    merged.push({ source: master.part.label, module: name, role: 'master' }, ...list.map((s) => ({ source: s.part.label, module: name, role: `config.${s.config}` })));
    return { name, kind: moduleKind(master, name), master, configs: list };
  });
  return { modules, merged };
}

/**
 * The APKs one device installs, as `bundletool build-apks --device-spec` serves them (docs/apks.md):
 * from Android 5.0 on, the split APKs of the variant the device's SDK reaches — every module's
 * master, and the config splits whose ABI, screen density and language the device picks — plus
 * the asset packs' slices; each split's manifest as bundletool writes it (split id, split types
 * provided and required), splits.xml in the base master. Before Android 5.0, the one standalone
 * APK for the device's ABI and density (standalone.ts).
 */
import { ConverterError } from '../errors.js';
import type { PbXmlNode } from '../proto/aapt.js';
import type { Bundle, BundleModule } from './bundle.js';
import { bestDensity, DENSITY_BUCKETS } from './density.js';
import type { DeviceSpec } from './deviceSpec.js';
import { injectFileResource, injectSplitsXml, languageOf, metadataFiles } from './inject.js';
import {
  addChild,
  androidAttr,
  application,
  cloneManifest,
  effectiveMinSdk,
  element,
  getOrCreateChild,
  ManifestAttr,
  manifestElement,
  maxSdk,
  packageName,
  removeAttribute,
  setAttribute,
  versionCode,
  withBoolean,
  withDecimal,
  withReference,
  withString,
} from './manifest.js';
import { apkPath, type ApkTargeting, type DeviceApk, type DeviceSetPlan, type PlannedFile, type TocEntry } from './plan.js';
import { referencedFiles, splitModule, type ModuleSplit } from './splitter.js';
import { planStandalone } from './standalone.js';
import { mergeInstallTimeModules, variantFor, variantSdks } from './variants.js';

const ANDROID_L = 21;
const PIN_SPEC = 'assets/com.android.hints.pins.txt';
const LOCALES_CONFIG = 'res/xml/locales_config.xml';

interface Split extends ModuleSplit {
  sdkMin: number;
  suffix: string;
  splitId: string;
  xml: Map<string, PbXmlNode>;
}

function incompatible(detail: string): never {
  throw new ConverterError('DEVICE_INCOMPATIBLE', detail, { input: 'aab' });
}

/** ModuleSplit.getSuffix: ABI, language, density, joined by "_". */
function suffixOf(s: ModuleSplit): string {
  if (s.master) return '';
  const parts: string[] = [];
  if (s.targeting.abi) parts.push(s.targeting.abi.value.replace(/-/g, '_'));
  if (s.targeting.language) parts.push(s.targeting.language);
  if (s.targeting.density) parts.push(DENSITY_BUCKETS.find((b) => b.dpi === s.targeting.density?.value)?.name ?? String(s.targeting.density.value));
  return parts.join('_');
}

/** The manifest of a config split: package, split id, versionCode, no code, and the master's extractNativeLibs. */
function configSplitManifest(module: ModuleSplit['manifest'], splitId: string, featureSplitId: string): PbXmlNode {
  const root = element('manifest');
  root.namespace_declaration = [{ prefix: 'android', uri: 'http://schemas.android.com/apk/res/android' }];
  const node: PbXmlNode = { element: root };
  setAttribute(root, withString({ name: 'package' }, packageName(module)));
  setAttribute(root, withString({ name: 'split' }, splitId));
  const app = getOrCreateChild(root, 'application');
  setAttribute(app, withBoolean(androidAttr('hasCode', ManifestAttr.hasCode), false));
  if (featureSplitId !== '') setAttribute(root, withString({ name: 'configForSplit' }, featureSplitId));
  const code = versionCode(module);
  if (code !== undefined) setAttribute(root, withDecimal(androidAttr('versionCode', ManifestAttr.versionCode), code));
  const extract = application(module)?.attribute?.find((a) => a.resource_id === ManifestAttr.extractNativeLibs)?.compiled_item?.prim?.boolean_value;
  if (extract !== undefined) setAttribute(app, withBoolean(androidAttr('extractNativeLibs', ManifestAttr.extractNativeLibs), extract));
  return node;
}

/** ManifestEditor.setSplitIdForFeatureSplit: the base has no split id; a feature is named after its module. */
function masterManifest(manifest: PbXmlNode, splitId: string): PbXmlNode {
  const out = structuredClone(manifest);
  const root = manifestElement(out);
  if (splitId === '') {
    removeAttribute(root, 'split');
    removeAttribute(root, 'isFeatureSplit', '', ManifestAttr.isFeatureSplit);
  } else {
    setAttribute(root, withString({ name: 'split' }, splitId));
    setAttribute(root, withBoolean(androidAttr('isFeatureSplit', ManifestAttr.isFeatureSplit), true));
  }
  removeAttribute(root, 'configForSplit');
  getOrCreateChild(root, 'application');
  return out;
}

/** The module's splits finished: files bundletool adds, SDK targeting, split ids and manifests. */
function finishSplits(bundle: Bundle, module: BundleModule, splits: ModuleSplit[]): Split[] {
  const masterId = module.name === 'base' ? '' : module.name;
  const master = splits.find((s) => s.master);
  const minSdk = Math.max(effectiveMinSdk(master?.manifest ?? module.manifest), ANDROID_L);
  const used = new Set<string>();
  const pins = module.files.get(PIN_SPEC);
  return splits.map((s) => {
    let suffix = suffixOf(s);
    for (let n = 2; used.has(suffix); n++) suffix = `${suffixOf(s)}_${n}`;
    used.add(suffix);
    const files: PlannedFile[] = [...s.files];
    if (pins && !files.some((f) => f.modulePath === PIN_SPEC)) files.push({ modulePath: PIN_SPEC, path: PIN_SPEC, entry: pins });
    if (s.master && module.name === 'base') files.push(...metadataFiles(bundle.metadata, true));
    const splitId = s.master ? masterId : `${masterId === '' ? '' : `${masterId}.`}config.${suffix}`;
    const manifest = s.master ? masterManifest(s.manifest, splitId) : configSplitManifest(s.manifest, splitId, masterId);
    return { ...s, files, suffix, splitId, manifest, sdkMin: minSdk, xml: new Map(module.xml) };
  });
}

/** RequiredSplitTypesInjector: each split says which split types it provides, each master which it needs. */
function injectSplitTypes(splits: Split[], alwaysInstalled: readonly string[]): void {
  const provided = (s: Split): string[] => {
    const out: string[] = [];
    if (s.targeting.abi) out.push(`${s.module.name}__abi`);
    if (s.targeting.density) out.push(`${s.module.name}__density`);
    if (s.master && s.module.name !== 'base') out.push(`${s.module.name}__module`);
    return out;
  };
  for (const s of splits) {
    const root = manifestElement(s.manifest);
    setAttribute(root, withString(androidAttr('splitTypes', ManifestAttr.splitTypes), [...new Set(provided(s))].sort().join(',')));
    if (!s.master) continue;
    const required = new Set<string>();
    for (const o of splits) {
      if (o.module !== s.module) continue;
      if (o.targeting.abi) required.add(`${s.module.name}__abi`);
      if (o.targeting.density) required.add(`${s.module.name}__density`);
    }
    if (s.module.name === 'base') for (const m of alwaysInstalled) if (m !== 'base') required.add(`${m}__module`);
    setAttribute(root, withString(androidAttr('requiredSplitTypes', ManifestAttr.requiredSplitTypes), [...required].sort().join(',')));
  }
}

/** Which split serves each language, per module, as splits.xml records it. */
function languageMapping(splits: readonly Split[]): Map<string, Map<string, string>> {
  const mapping = new Map<string, Map<string, string>>();
  const add = (module: string, language: string, splitId: string): void => {
    const key = module === 'base' ? '' : module;
    const m = mapping.get(key) ?? new Map<string, string>();
    if (m.has(language)) throw new ConverterError('INVALID_AAB', `mais de um módulo traz o idioma "${language}"`, { input: 'aab' });
    m.set(language, splitId);
    mapping.set(key, m);
  };
  if (splits.some((s) => s.targeting.language)) {
    for (const s of splits) if (s.targeting.language) add(s.module.name, s.targeting.language, s.splitId);
  } else {
    for (const s of splits) {
      if (!s.master || !s.table) continue;
      const seen = new Set<string>();
      for (const p of s.table.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) seen.add(languageOf(cv.config?.locale ?? ''));
      for (const l of seen) if (l !== '') add(s.module.name, l, s.splitId);
    }
  }
  return mapping;
}

/** LocaleConfigXmlInjector: `<locale-config>` of every locale of the base's splits, named by the application's android:localeConfig. */
function injectLocaleConfig(baseMaster: Split, baseSplits: readonly Split[]): void {
  if (!baseMaster.table || !baseSplits.some((s) => s.targeting.language)) return;
  if (application(baseMaster.manifest)?.attribute?.some((a) => a.resource_id === ManifestAttr.localeConfig)) return;
  if (baseMaster.files.some((f) => f.modulePath === LOCALES_CONFIG)) return;
  const locales = new Set<string>();
  for (const s of baseSplits) for (const p of s.table?.package ?? []) for (const t of p.type ?? []) for (const e of t.entry ?? []) for (const cv of e.config_value ?? []) {
    if (cv.config?.locale) locales.add(cv.config.locale);
  }
  const root = element('locale-config');
  for (const l of locales) addChild(root, element('locale', [withString(androidAttr('name', ManifestAttr.name), l)]));
  const injected = injectFileResource(baseMaster.table, packageName(baseMaster.manifest), 'xml', 'locales_config', LOCALES_CONFIG);
  baseMaster.table = injected.table;
  baseMaster.xml.set(LOCALES_CONFIG, { element: root });
  const app = getOrCreateChild(manifestElement(baseMaster.manifest), 'application');
  setAttribute(app, withReference(androidAttr('localeConfig', ManifestAttr.localeConfig), injected.id));
}

/** Whether the device gets this split (ApkMatcher on its SDK, ABI, density and language targeting). */
function matches(s: Split, spec: DeviceSpec, languages: ReadonlySet<string>): boolean {
  if (s.sdkMin > spec.sdkVersion) return false;
  const abi = s.targeting.abi;
  if (abi) {
    const all = [abi.value, ...abi.alternatives];
    const pick = spec.supportedAbis.find((a) => all.includes(a));
    if (pick === undefined) incompatible(`ABIs do aparelho ${spec.supportedAbis.join(', ')}; o app traz ${all.join(', ')}`);
    if (pick !== abi.value) return false;
  }
  const density = s.targeting.density;
  if (density && bestDensity([density.value, ...density.alternatives], spec.screenDensity) !== density.value) return false;
  if (s.targeting.language && !languages.has(s.targeting.language)) return false;
  return true;
}

/** An asset pack's slice: its files under its own split id, no code, the app's version. */
function assetSlice(bundle: Bundle, m: BundleModule): Split {
  const manifest = masterManifest(m.manifest, m.name);
  setAttribute(getOrCreateChild(manifestElement(manifest), 'application'), withBoolean(androidAttr('hasCode', ManifestAttr.hasCode), false));
  const code = versionCode(bundle.base.manifest);
  const root = manifestElement(manifest);
  if (code !== undefined) {
    if (m.delivery === 'install-time') setAttribute(root, withDecimal(androidAttr('versionCode', ManifestAttr.versionCode), code));
    else setAttribute(root, withString(androidAttr('versionName', ManifestAttr.versionName), String(code)));
  }
  const files = [...m.files].map(([modulePath, entry]) => ({ modulePath, path: apkPath(modulePath), entry }));
  const sdkMin = m.delivery === 'install-time' ? Math.max(effectiveMinSdk(m.manifest), ANDROID_L) : 0;
  return { module: m, master: true, targeting: {}, files, manifest, sdkMin, suffix: '', splitId: m.name, xml: new Map(m.xml), table: m.table };
}

/** The planned APKs of the device set. */
export function planDeviceSet(bundle: Bundle, spec: DeviceSpec): DeviceSetPlan {
  const appMax = maxSdk(bundle.base.manifest);
  if (appMax !== undefined && spec.sdkVersion > appMax) incompatible(`o app vai até o Android de API ${appMax}; o aparelho tem API ${spec.sdkVersion}`);
  if (bundle.modules.some((m) => m.manifest.element?.child?.some((c) => c.element?.name === 'instant-delivery'))) {
    throw new ConverterError('UNSUPPORTED_AAB', 'módulos instantâneos', { input: 'aab' });
  }
  const slices = bundle.modules.filter((m) => m.kind === 'asset-pack').map((m) => assetSlice(bundle, m)).filter((s) => s.sdkMin <= spec.sdkVersion);
  if (spec.sdkVersion < ANDROID_L) {
    const standalone = planStandalone(bundle, spec);
    const { abi, density } = standalone.toc.targeting;
    const variant = { number: 0, sdk: effectiveMinSdk(bundle.base.manifest), otherSdks: [], ...(abi ? { abi } : {}), ...(density ? { density } : {}) };
    return { apks: [standalone, ...slices.map((s) => planApk(s, 'asset-slices', new Set()))], variant };
  }
  const modules = mergeInstallTimeModules(bundle);
  if (modules.some((m) => (maxSdk(m.manifest) ?? Infinity) < ANDROID_L)) incompatible('o app só roda antes do Android 5.0');
  const starts = variantSdks(bundle, modules);
  const variant = variantFor(starts, spec.sdkVersion);
  if (variant === undefined) incompatible(`o app pede API ${effectiveMinSdk(bundle.base.manifest)} ou mais; o aparelho tem API ${spec.sdkVersion}`);
  // bundletool writes that variant's tables sparse (aapt2 --enable-sparse-encoding), which the flattener does not.
  if (variant >= 32 && bundle.config.optimizations?.resource_optimizations?.sparse_encoding === 2) {
    throw new ConverterError('UNSUPPORTED_AAB', 'tabelas de recursos esparsas (sparse_encoding) para Android 12L ou mais novo', { input: 'aab' });
  }

  const o = bundle.config.master_resources;
  const options = {
    variantSdk: variant,
    dimensions: bundle.optimizations.splitDimensions,
    pinnedIds: new Set((o?.resource_ids ?? []).map((id) => id >>> 0)),
    pinnedNames: new Set(o?.resource_names ?? []),
  };
  const splits: Split[] = modules.flatMap((m) => finishSplits(bundle, m, splitModule(bundle, m, options)));
  injectSplitTypes(splits, modules.filter((m) => m.alwaysInstalled).map((m) => m.name));

  const baseMaster = splits.find((s) => s.master && s.module.name === 'base');
  if (!baseMaster) throw new ConverterError('INTERNAL', 'sem split mestre do módulo base', { input: 'aab' });
  const mapping = languageMapping(splits);
  const taken = new Set(baseMaster.files.map((f) => f.modulePath));
  const injected = injectSplitsXml(baseMaster.table, cloneManifest(baseMaster.manifest), packageName(bundle.base.manifest), mapping, (p) => taken.has(p));
  baseMaster.table = injected.table;
  baseMaster.manifest = injected.manifest;
  baseMaster.xml.set(injected.path, injected.xml);
  if (bundle.config.locales?.inject_locale_config) injectLocaleConfig(baseMaster, splits.filter((s) => s.module.name === 'base'));

  const languages = new Set(spec.supportedLocales.map(languageOf));
  const chosen = splits.filter((s) => matches(s, spec, languages));
  const used = new Set<string>();
  return {
    apks: [...chosen.map((s) => planApk(s, 'splits', used)), ...slices.map((s) => planApk(s, 'asset-slices', used))],
    variant: { number: starts.indexOf(variant), sdk: variant, otherSdks: starts.filter((s) => s !== variant) },
  };
}

/** ApkPathManager's name (`<module>-master`, `<module>-<suffix>`, `_2` on a clash) and the split's files. */
function planApk(s: Split, dir: string, used: Set<string>): DeviceApk {
  const proposed = `${s.module.name}-${s.master ? 'master' : s.suffix}`;
  let name = proposed;
  for (let n = 2; used.has(`${dir}/${name}`); n++) name = `${proposed}_${n}`;
  used.add(`${dir}/${name}`);
  const refs = referencedFiles(s.table);
  const files = s.files.filter((f) => !f.modulePath.startsWith('res/') || refs.has(f.modulePath));
  const slice = dir === 'asset-slices';
  const targeting: ApkTargeting = {
    ...(s.targeting.abi ? { abi: s.targeting.abi } : {}),
    ...(s.targeting.density ? { density: s.targeting.density } : {}),
    ...(s.targeting.language ? { languages: [s.targeting.language] } : {}),
    ...(slice ? {} : { sdkMin: s.sdkMin }),
  };
  const toc: TocEntry = { kind: slice ? 'slice' : 'split', master: s.master, splitId: s.splitId, targeting };
  return { name, path: `${dir}/${name}.apk`, module: s.module.name, manifest: s.manifest, table: s.table, files, xml: s.xml, toc };
}

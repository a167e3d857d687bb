/**
 * Devices before Android 5.0 install no split APKs: bundletool serves them one standalone APK,
 * the fused app cut for their ABI and screen density (a "shard"), plus the slices of asset packs
 * not installed with the app (docs/apks.md).
 */
import { ConverterError } from '../errors.js';
import type { Bundle, BundleModule } from './bundle.js';
import { bestDensity, DENSITY_BUCKETS, tableForDensity } from './density.js';
import type { DeviceSpec } from './deviceSpec.js';
import { languageOf } from './inject.js';
import { effectiveMinSdk } from './manifest.js';
import { languageSplitLanguages } from './splitter.js';
import type { ApkTargeting, DeviceApk } from './plan.js';
import { abiDirectories, modulesToFuse, planUniversal } from './universal.js';

const ANDROID_L = 21;

function incompatible(detail: string): never {
  throw new ConverterError('DEVICE_INCOMPATIBLE', detail, { input: 'aab' });
}

/** The standalone APK of the device's shard. */
export function planStandalone(bundle: Bundle, spec: DeviceSpec): DeviceApk {
  const minSdk = effectiveMinSdk(bundle.base.manifest);
  if (minSdk >= ANDROID_L) incompatible(`o app pede Android 5.0 (API 21) ou mais; o aparelho tem API ${spec.sdkVersion}`);
  if (spec.sdkVersion < minSdk) incompatible(`o app pede API ${minSdk} ou mais; o aparelho tem API ${spec.sdkVersion}`);
  const modules = modulesToFuse(bundle);
  const dimensions = bundle.optimizations.standaloneDimensions;

  // Every fused module with native libraries must cover the same ABIs (bundletool refuses otherwise).
  const universes = modules.map((m) => [...new Set(abiDirectories(m).map((d) => d.abi))].sort().join(',')).filter((u) => u !== '');
  if (new Set(universes).size > 1) throw new ConverterError('INVALID_AAB', 'módulos de um APK autônomo com conjuntos diferentes de ABIs', { input: 'aab' });
  const abis = dimensions.has('ABI') && universes.length > 0 ? universes[0].split(',') : [];
  const abi = abis.length > 0 ? spec.supportedAbis.find((a) => abis.includes(a)) : undefined;
  if (abis.length > 0 && abi === undefined) incompatible(`ABIs do aparelho ${spec.supportedAbis.join(', ')}; o app traz ${abis.join(', ')}`);

  const split = dimensions.has('SCREEN_DENSITY') && modules.some((m) => m.table && DENSITY_BUCKETS.some((b) => tableForDensity(m.table!, b.dpi, bundle.version, new Set(), false)));
  const dpi = split ? bestDensity(DENSITY_BUCKETS.map((b) => b.dpi), spec.screenDensity) : undefined;
  const plan = planUniversal(bundle, { abi, dpi });
  const languages = shardLanguages(bundle, modules, spec);
  const suffix = [abi?.replace(/-/g, '_'), ...languages, DENSITY_BUCKETS.find((b) => b.dpi === dpi)?.name].filter((x) => x !== undefined).join('_');
  const name = suffix === '' ? 'standalone' : `standalone-${suffix}`;
  const targeting: ApkTargeting = {
    ...(abi ? { abi: { value: abi, alternatives: abis.filter((a) => a !== abi) } } : {}),
    ...(dpi ? { density: { value: dpi, alternatives: DENSITY_BUCKETS.map((b) => b.dpi).filter((d) => d !== dpi) } } : {}),
    ...(languages.length > 0 ? { languages } : {}),
  };
  return { ...plan, name, path: `standalones/${name}.apk`, module: 'base', toc: { kind: 'standalone', master: true, targeting, fusedModules: plan.modules } };
}

/**
 * The languages a standalone APK is named after, sorted. Given a device with locales, bundletool also
 * splits the modules by language (when the bundle's standalone dimensions include it) and fuses
 * every language split back into the shard, which then carries all their languages. A shard none
 * of whose languages the device speaks is served by bundletool's `build-apks` to nobody (an empty
 * set), yet `extract-apks` picks the same APK, named without languages, from the full set: that
 * is the APK built here then.
 */
function shardLanguages(bundle: Bundle, modules: readonly BundleModule[], spec: DeviceSpec): string[] {
  const dimensions = bundle.optimizations.standaloneDimensions;
  if (!dimensions.has('LANGUAGE') || spec.supportedLocales.length === 0) return [];
  const pins = bundle.config.master_resources;
  const options = {
    variantSdk: 1,
    dimensions,
    pinnedIds: new Set((pins?.resource_ids ?? []).map((id) => id >>> 0)),
    pinnedNames: new Set(pins?.resource_names ?? []),
  };
  const languages = [...new Set(modules.flatMap((m) => languageSplitLanguages(m, bundle, options)))].sort();
  const spoken = new Set(spec.supportedLocales.map(languageOf));
  return languages.some((l) => spoken.has(l)) ? languages : [];
}

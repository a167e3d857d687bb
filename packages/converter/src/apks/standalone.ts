/**
 * Devices before Android 5.0 install no split APKs: bundletool serves them one standalone APK,
 * the fused app cut for their ABI and screen density (a "shard"), plus the slices of asset packs
 * not installed with the app (docs/apks.md).
 */
import { ConverterError } from '../errors.js';
import type { Bundle } from './bundle.js';
import { bestDensity, DENSITY_BUCKETS, tableForDensity } from './density.js';
import type { DeviceSpec } from './deviceSpec.js';
import { effectiveMinSdk } from './manifest.js';
import type { DeviceApk } from './plan.js';
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

  // Every fused module with native libraries must cover the same ABIs (bundletool refuses otherwise).
  const universes = modules.map((m) => [...new Set(abiDirectories(m).map((d) => d.abi))].sort().join(',')).filter((u) => u !== '');
  if (new Set(universes).size > 1) throw new ConverterError('INVALID_AAB', 'módulos de um APK autônomo com conjuntos diferentes de ABIs', { input: 'aab' });
  const abis = universes.length > 0 ? universes[0].split(',') : [];
  const abi = abis.length > 0 ? spec.supportedAbis.find((a) => abis.includes(a)) : undefined;
  if (abis.length > 0 && abi === undefined) incompatible(`ABIs do aparelho ${spec.supportedAbis.join(', ')}; o app traz ${abis.join(', ')}`);

  const split = modules.some((m) => m.table && DENSITY_BUCKETS.some((b) => tableForDensity(m.table!, b.dpi, bundle.version, new Set(), false)));
  const dpi = split ? bestDensity(DENSITY_BUCKETS.map((b) => b.dpi), spec.screenDensity) : undefined;
  const plan = planUniversal(bundle, { abi, dpi });
  const suffix = [abi?.replace(/-/g, '_'), DENSITY_BUCKETS.find((b) => b.dpi === dpi)?.name].filter((x) => x !== undefined).join('_');
  const name = suffix === '' ? 'standalone' : `standalone-${suffix}`;
  return { ...plan, name, path: `standalones/${name}.apk`, module: 'base' };
}

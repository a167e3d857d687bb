/**
 * The table of contents of a device set (`toc.pb`, bundletool's BuildApksResult): the package,
 * the variant with its SDK (and, before Android 5.0, ABI and density) targeting, each module's
 * APKs with their targeting, split ids and delivery, the asset packs' slices. What
 * `bundletool install-apks` and `extract-apks` read to pick a device's APKs (docs/apks.md); the
 * fields those read, not a byte-for-byte copy of bundletool's. Encoded by the fast encoder from
 * descriptors written here after bundletool's commands.proto and targeting.proto.
 */
import type { MessageDescriptors } from '../proto/describe.js';
import { fastEncode } from '../proto/fastEncode.js';
import { ABI_ALIASES } from '../proto/bundle.js';
import { children } from '../validate/xml.js';
import { DIST_NS } from '../bundle/layout.js';
import type { Bundle, BundleModule } from './bundle.js';
import { packageName } from './manifest.js';
import type { ApkTargeting, DeviceApk, DeviceSetPlan } from './plan.js';

const P = 'android.bundle.';
const DESCRIPTORS: MessageDescriptors = {
  [`${P}BuildApksResult`]: [
    ['variant', 1, 'm', `${P}Variant`, true, false],
    ['bundletool', 2, 'm', `${P}Bundletool`, false, false],
    ['asset_slice_set', 3, 'm', `${P}AssetSliceSet`, true, false],
    ['package_name', 4, 's', 'string', false, false],
    ['local_testing_info', 5, 'm', `${P}LocalTestingInfo`, false, false],
  ],
  [`${P}Bundletool`]: [['version', 2, 's', 'string', false, false]],
  [`${P}LocalTestingInfo`]: [
    ['enabled', 1, 's', 'bool', false, false],
    ['local_testing_path', 2, 's', 'string', false, false],
  ],
  [`${P}Variant`]: [
    ['targeting', 1, 'm', `${P}VariantTargeting`, false, false],
    ['apk_set', 2, 'm', `${P}ApkSet`, true, false],
    ['variant_number', 3, 's', 'uint32', false, false],
  ],
  [`${P}VariantTargeting`]: [
    ['sdk_version_targeting', 1, 'm', `${P}SdkVersionTargeting`, false, false],
    ['abi_targeting', 2, 'm', `${P}AbiTargeting`, false, false],
    ['screen_density_targeting', 3, 'm', `${P}ScreenDensityTargeting`, false, false],
  ],
  [`${P}ApkTargeting`]: [
    ['abi_targeting', 1, 'm', `${P}AbiTargeting`, false, false],
    ['language_targeting', 3, 'm', `${P}LanguageTargeting`, false, false],
    ['screen_density_targeting', 4, 'm', `${P}ScreenDensityTargeting`, false, false],
    ['sdk_version_targeting', 5, 'm', `${P}SdkVersionTargeting`, false, false],
  ],
  [`${P}SdkVersionTargeting`]: [
    ['value', 1, 'm', `${P}SdkVersion`, true, false],
    ['alternatives', 2, 'm', `${P}SdkVersion`, true, false],
  ],
  [`${P}SdkVersion`]: [['min', 1, 'm', 'google.protobuf.Int32Value', false, false]],
  ['google.protobuf.Int32Value']: [['value', 1, 's', 'int32', false, false]],
  [`${P}AbiTargeting`]: [
    ['value', 1, 'm', `${P}Abi`, true, false],
    ['alternatives', 2, 'm', `${P}Abi`, true, false],
  ],
  [`${P}Abi`]: [['alias', 1, 's', 'int32', false, false]],
  [`${P}ScreenDensityTargeting`]: [
    ['value', 1, 'm', `${P}ScreenDensity`, true, false],
    ['alternatives', 2, 'm', `${P}ScreenDensity`, true, false],
  ],
  [`${P}ScreenDensity`]: [['density_alias', 1, 's', 'int32', false, false]],
  [`${P}LanguageTargeting`]: [
    ['value', 1, 's', 'string', true, false],
    ['alternatives', 2, 's', 'string', true, false],
  ],
  [`${P}ApkSet`]: [
    ['module_metadata', 1, 'm', `${P}ModuleMetadata`, false, false],
    ['apk_description', 2, 'm', `${P}ApkDescription`, true, false],
  ],
  [`${P}ModuleMetadata`]: [
    ['name', 1, 's', 'string', false, false],
    ['dependencies', 4, 's', 'string', true, false],
    ['targeting', 5, 'm', `${P}ModuleTargeting`, false, false],
    ['delivery_type', 6, 's', 'int32', false, false],
    ['module_type', 7, 's', 'int32', false, false],
  ],
  [`${P}ModuleTargeting`]: [],
  [`${P}ApkDescription`]: [
    ['targeting', 1, 'm', `${P}ApkTargeting`, false, false],
    ['path', 2, 's', 'string', false, false],
    ['split_apk_metadata', 3, 'm', `${P}SplitApkMetadata`, false, false],
    ['standalone_apk_metadata', 4, 'm', `${P}StandaloneApkMetadata`, false, false],
    ['asset_slice_metadata', 7, 'm', `${P}SplitApkMetadata`, false, false],
  ],
  [`${P}SplitApkMetadata`]: [
    ['split_id', 1, 's', 'string', false, false],
    ['is_master_split', 2, 's', 'bool', false, false],
  ],
  [`${P}StandaloneApkMetadata`]: [['fused_module_name', 1, 's', 'string', true, false]],
  [`${P}AssetSliceSet`]: [
    ['asset_module_metadata', 1, 'm', `${P}AssetModuleMetadata`, false, false],
    ['apk_description', 2, 'm', `${P}ApkDescription`, true, false],
  ],
  [`${P}AssetModuleMetadata`]: [
    ['name', 1, 's', 'string', false, false],
    ['delivery_type', 4, 's', 'int32', false, false],
  ],
};

/** DeliveryType and FeatureModuleType numbers. */
const DELIVERY = { INSTALL_TIME: 1, ON_DEMAND: 2, FAST_FOLLOW: 3 } as const;
const FEATURE_MODULE = 1;

type Msg = Record<string, unknown>;

/** ScreenDensity.DensityAlias of each bucket's dpi. */
const DENSITY_ALIASES: Readonly<Record<number, number>> = { 120: 2, 160: 3, 213: 4, 240: 5, 320: 6, 480: 7, 640: 8 };

function densityAlias(dpi: number): number {
  return DENSITY_ALIASES[dpi] ?? 0;
}

const sdk = (level: number): Msg => ({ min: { value: level } });
const abi = (name: string): Msg => ({ alias: ABI_ALIASES[name] ?? 0 });
const density = (dpi: number): Msg => ({ density_alias: densityAlias(dpi) });

function apkTargeting(t: ApkTargeting): Msg {
  return {
    ...(t.abi ? { abi_targeting: { value: [abi(t.abi.value)], alternatives: t.abi.alternatives.map(abi) } } : {}),
    ...(t.languages ? { language_targeting: { value: t.languages, alternatives: [] } } : {}),
    ...(t.density ? { screen_density_targeting: { value: [density(t.density.value)], alternatives: t.density.alternatives.map(density) } } : {}),
    ...(t.sdkMin ? { sdk_version_targeting: { value: [sdk(t.sdkMin)], alternatives: [] } } : {}),
  };
}

function description(apk: DeviceApk): Msg {
  const meta =
    apk.toc.kind === 'standalone'
      ? { standalone_apk_metadata: { fused_module_name: [...(apk.toc.fusedModules ?? [])] } }
      : { [apk.toc.kind === 'slice' ? 'asset_slice_metadata' : 'split_apk_metadata']: { ...(apk.toc.splitId ? { split_id: apk.toc.splitId } : {}), ...(apk.toc.master ? { is_master_split: true } : {}) } };
  return { targeting: apkTargeting(apk.toc.targeting), path: apk.path, ...meta };
}

function deliveryOf(m: BundleModule): number {
  if (m.kind === 'asset-pack') {
    const delivery = children(children(m.manifest.element, 'module', DIST_NS)[0], 'delivery', DIST_NS)[0];
    if (children(delivery, 'fast-follow', DIST_NS).length > 0) return DELIVERY.FAST_FOLLOW;
  }
  return m.delivery === 'on-demand' ? DELIVERY.ON_DEMAND : DELIVERY.INSTALL_TIME;
}

/** `uses-split` names of a feature module's manifest: the modules it needs. */
function dependencies(m: BundleModule): string[] {
  const names = children(m.manifest.element, 'uses-split').map((e) => e.attribute?.find((a) => a.name === 'name')?.value ?? '');
  return names.filter((n) => n !== '');
}

/** toc.pb of a device set. */
export function tableOfContents(bundle: Bundle, plan: DeviceSetPlan): Buffer {
  const byModule = new Map<string, DeviceApk[]>();
  for (const apk of plan.apks) {
    const list = byModule.get(apk.module) ?? [];
    list.push(apk);
    byModule.set(apk.module, list);
  }
  const moduleOf = (name: string): BundleModule | undefined => bundle.modules.find((m) => m.name === name);
  const apkSets: Msg[] = [];
  const sliceSets: Msg[] = [];
  for (const [name, apks] of [...byModule].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const m = moduleOf(name);
    const delivery = m ? deliveryOf(m) : DELIVERY.INSTALL_TIME;
    if (apks.every((a) => a.toc.kind === 'slice')) {
      sliceSets.push({ asset_module_metadata: { name, delivery_type: delivery }, apk_description: apks.map(description) });
    } else {
      const deps = m ? dependencies(m) : [];
      apkSets.push({ module_metadata: { name, dependencies: deps, targeting: {}, delivery_type: delivery, module_type: FEATURE_MODULE }, apk_description: apks.map(description) });
    }
  }
  const v = plan.variant;
  const variant: Msg = {
    targeting: {
      sdk_version_targeting: { value: [sdk(v.sdk)], alternatives: v.otherSdks.map(sdk) },
      ...(v.abi ? { abi_targeting: { value: [abi(v.abi.value)], alternatives: v.abi.alternatives.map(abi) } } : {}),
      ...(v.density ? { screen_density_targeting: { value: [density(v.density.value)], alternatives: v.density.alternatives.map(density) } } : {}),
    },
    apk_set: apkSets,
    ...(v.number > 0 ? { variant_number: v.number } : {}),
  };
  const version = bundle.config.bundletool?.version;
  return fastEncode(
    { name: `${P}BuildApksResult`, descriptors: DESCRIPTORS, lookup: () => { throw new Error('toc.pb: every field is described'); } },
    {
      variant: [variant],
      ...(version ? { bundletool: { version } } : {}),
      asset_slice_set: sliceSets,
      package_name: packageName(bundle.base.manifest),
      local_testing_info: {},
    },
  );
}

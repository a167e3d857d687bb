/** BundleConfigValidator (docs/aab-format.md "How bundletool reads BundleConfig"). */
import { BUNDLE_CONFIG } from '../bundle/layout.js';
import { globSyntaxError } from './glob.js';
import { resourceId } from './table.js';
import { problem, type BundleProblem, type BundleValidator } from './types.js';

const VERSION = /^\d+\.\d+\.\d+(-.+)?$/;
/** SplitDimension.Value numbers bundletool knows. */
const KNOWN_DIMENSIONS = new Set([1, 2, 3, 4, 6, 7, 8, 9]);
/** Dimensions that may strip suffixes: TCF, DEVICE_TIER, COUNTRY_SET, DEVICE_GROUP. */
const SUFFIX_DIMENSIONS = new Set([4, 6, 7, 9]);

export const bundletoolVersion: BundleValidator = {
  kind: 'bundle',
  rule: 'bundle-config-version',
  async check(bundle) {
    const c = (await bundle.bundleConfig())?.value;
    if (!c) return [];
    const v = c.bundletool?.version ?? '';
    return VERSION.test(v) ? [] : [problem(this.rule, `Invalid version in the BundleConfig.pb file: '${v}'.`, BUNDLE_CONFIG)];
  },
};

export const uncompressedGlobs: BundleValidator = {
  kind: 'bundle',
  rule: 'bundle-config-globs',
  async check(bundle) {
    const c = (await bundle.bundleConfig())?.value;
    const out: BundleProblem[] = [];
    for (const g of c?.compression?.uncompressed_glob ?? []) {
      const why = globSyntaxError(g);
      if (why) out.push(problem(this.rule, `Invalid uncompressed glob '${g}': it ${why}.`, BUNDLE_CONFIG));
    }
    return out;
  },
};

export const splitDimensions: BundleValidator = {
  kind: 'bundle',
  rule: 'bundle-config-split-dimensions',
  async check(bundle) {
    const c = (await bundle.bundleConfig())?.value;
    const out: BundleProblem[] = [];
    const seen = new Set<number>();
    for (const d of c?.optimizations?.splits_config?.split_dimension ?? []) {
      const value = d.value ?? 0;
      if (!KNOWN_DIMENSIONS.has(value) && d.negate !== true) {
        out.push(problem(this.rule, `BundleConfig.pb contains an unrecognized split dimension ${value}.`, BUNDLE_CONFIG));
      }
      if (seen.has(value)) out.push(problem(this.rule, `BundleConfig.pb contains duplicate split dimension ${value}.`, BUNDLE_CONFIG));
      seen.add(value);
      const stripping = (d as { suffix_stripping?: { enabled?: boolean } }).suffix_stripping;
      if (stripping?.enabled === true && !SUFFIX_DIMENSIONS.has(value)) {
        out.push(problem(this.rule, `Suffix stripping is not supported for split dimension ${value}.`, BUNDLE_CONFIG));
      }
    }
    return out;
  },
};

export const masterResources: BundleValidator = {
  kind: 'bundle',
  rule: 'bundle-config-master-resources',
  async check(bundle) {
    const ids = (await bundle.bundleConfig())?.value?.master_resources?.resource_ids ?? [];
    if (ids.length === 0) return [];
    const known = new Set<number>();
    for (const m of bundle.modules.values()) {
      for (const p of (await m.resourceTable())?.value?.packages ?? []) {
        for (const t of p.types) {
          for (const e of t.entries) known.add(resourceId(p, t, e));
        }
      }
    }
    return ids
      .filter((id) => !known.has(id >>> 0))
      .map((id) => problem(this.rule, `Master resource id 0x${(id >>> 0).toString(16)} is not in any module's resource table.`, BUNDLE_CONFIG));
  },
};

export const CONFIG_RULES = [bundletoolVersion, uncompressedGlobs, splitDimensions, masterResources];

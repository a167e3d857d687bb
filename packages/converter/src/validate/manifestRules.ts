/** docs/aab-format.md "Validation: bundle and module": what bundletool's manifest validators require of each module's manifest. */
import { ANDROID_NS, ATTR, BASE_MODULE, DIST_NS, MANIFEST_PATH } from '../bundle/layout.js';
import type { PbXmlElement } from '../proto/aapt.js';
import { attrById, attrByName, children, decimalValue, descendants, stringValue } from './xml.js';
import { problem, type BundleProblem, type ModuleContext, type ModuleValidator } from './types.js';

async function manifestRoot(m: ModuleContext): Promise<PbXmlElement | undefined> {
  return (await m.manifest())?.value?.element;
}

function at(m: ModuleContext): string {
  return `${m.name}/${MANIFEST_PATH}`;
}

/** ModuleNamesValidator: the base carries no `split` attribute. */
export const baseHasNoSplit: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-base-no-split',
  async check(m) {
    const root = await manifestRoot(m);
    if (m.name !== BASE_MODULE || !root) return [];
    const splits = (root.attribute ?? []).filter((a) => a.name === 'split' && (a.namespace_uri ?? '') === '');
    if (splits.length > 1) return [problem(this.rule, `The manifest of module '${m.name}' has more than one 'split' attribute.`, at(m))];
    return splits.length === 1
      ? [problem(this.rule, `The base module manifest must not declare a split name, but found split='${stringValue(splits[0])}'.`, at(m))]
      : [];
  },
};

export const versionCodePresent: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-version-code',
  async check(m) {
    const root = await manifestRoot(m);
    if (m.name !== BASE_MODULE || !root) return [];
    const a = attrById(root, ATTR.versionCode);
    if (!a) return [problem(this.rule, `The base module manifest has no 'android:versionCode' attribute (resource id 0x0101021b).`, at(m))];
    return decimalValue(a) === undefined
      ? [problem(this.rule, `'android:versionCode' must be a decimal integer, but found '${a.value ?? ''}'.`, at(m))]
      : [];
  },
};

export const targetSandboxVersion: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-target-sandbox-version',
  async check(m) {
    const v = decimalValue(attrById(await manifestRoot(m), ATTR.targetSandboxVersion));
    return v !== undefined && v > 2 ? [problem(this.rule, `'android:targetSandboxVersion' is ${v}; the highest allowed is 2.`, at(m))] : [];
  },
};

export const sdkRange: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-sdk-range',
  async check(m) {
    const usesSdk = children(await manifestRoot(m), 'uses-sdk')[0];
    if (!usesSdk) return [];
    const min = decimalValue(attrById(usesSdk, ATTR.minSdkVersion));
    const max = decimalValue(attrById(usesSdk, ATTR.maxSdkVersion));
    const out: BundleProblem[] = [];
    if (min !== undefined && min < 0) out.push(problem(this.rule, `'minSdkVersion' must be non-negative, but is ${min}.`, at(m)));
    if (max !== undefined && max < 0) out.push(problem(this.rule, `'maxSdkVersion' must be non-negative, but is ${max}.`, at(m)));
    if (min !== undefined && max !== undefined && max < min) {
      out.push(problem(this.rule, `'maxSdkVersion' (${max}) is lower than 'minSdkVersion' (${min}).`, at(m)));
    }
    return out;
  },
};

export const noUsesSdkLibrary: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-no-uses-sdk-library',
  async check(m) {
    const app = children(await manifestRoot(m), 'application')[0];
    return children(app, 'uses-sdk-library').length > 0
      ? [problem(this.rule, `<uses-sdk-library> is not allowed in an App Bundle manifest; declare runtime-enabled SDKs instead.`, at(m))]
      : [];
  },
};

function distBool(el: PbXmlElement | undefined, name: string): boolean | undefined {
  const a = attrByName(el, name, DIST_NS);
  if (!a) return undefined;
  const prim = a.compiled_item?.prim;
  if (prim && 'boolean_value' in prim) return prim.boolean_value === true;
  return a.value === 'true';
}

/** The base is always installed: not on demand, not conditional, not left out of fusing. */
export const baseDelivery: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-base-delivery',
  async check(m) {
    const root = await manifestRoot(m);
    const dist = children(root, 'module', DIST_NS)[0];
    if (!dist) return [];
    const out: BundleProblem[] = [];
    const delivery = children(dist, 'delivery', DIST_NS)[0];
    const legacyOnDemand = distBool(dist, 'onDemand');
    if (delivery && legacyOnDemand !== undefined) {
      out.push(problem(this.rule, `Module '${m.name}' uses both <dist:delivery> and the legacy 'dist:onDemand' attribute.`, at(m)));
    }
    if (children(dist, 'instant-delivery', DIST_NS).length > 0 && attrByName(dist, 'instant', DIST_NS)) {
      out.push(problem(this.rule, `Module '${m.name}' uses both <dist:instant-delivery> and the 'dist:instant' attribute.`, at(m)));
    }
    if (m.name === BASE_MODULE) {
      const onDemand = legacyOnDemand === true || children(delivery, 'on-demand', DIST_NS).length > 0;
      const conditional = children(children(delivery, 'install-time', DIST_NS)[0], 'conditions', DIST_NS).length > 0;
      if (onDemand) out.push(problem(this.rule, `The base module cannot be delivered on demand.`, at(m)));
      if (conditional) out.push(problem(this.rule, `The base module cannot have install-time delivery conditions.`, at(m)));
      if (distBool(children(dist, 'fusing', DIST_NS)[0], 'include') === false) {
        out.push(problem(this.rule, `The base module cannot be excluded from fusing.`, at(m)));
      }
    }
    return out;
  },
};

/** ModuleDependencyValidator: every <uses-split> names a module of the bundle. */
export const usesSplitTargets: ModuleValidator = {
  kind: 'module',
  rule: 'manifest-uses-split',
  async check(m, bundle) {
    const out: BundleProblem[] = [];
    for (const el of descendants(await manifestRoot(m), 'uses-split')) {
      const target = stringValue(el.attribute?.find((a) => a.resource_id === ATTR.name || (a.name === 'name' && a.namespace_uri === ANDROID_NS)));
      if (target === m.name) out.push(problem(this.rule, `Module '${m.name}' depends on itself via <uses-split>.`, at(m)));
      else if (!target || !bundle.modules.has(target)) {
        out.push(problem(this.rule, `Module '${m.name}' declares dependency on non-existent module '${target ?? ''}'.`, at(m)));
      }
    }
    return out;
  },
};

export const MANIFEST_RULES = [baseHasNoSplit, versionCodePresent, targetSandboxVersion, sdkRange, noUsesSdkLibrary, baseDelivery, usesSplitTargets];

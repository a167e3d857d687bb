/** docs/aab-format.md "Validation: bundle and module": dex, native and asset targeting, ABI parity, reserved archive entries. */
import { ARCHIVE_RESERVED_PATHS, ASSETS_PB, ATTR, BASE_MODULE, DEX_NAME, DIST_NS, NATIVE_PB, RESOURCES_PB, dexIndex } from '../bundle/layout.js';
import { ABI_ALIASES } from '../proto/bundle.js';
import { application, attrById, booleanValue, isAssetPackManifest, stringValue } from './xml.js';
import { problem, type BundleProblem, type BundleValidator, type ModuleContext, type ModuleValidator } from './types.js';

function dexNames(m: ModuleContext): string[] {
  return [...m.files.keys()].filter((p) => p.startsWith('dex/')).map((p) => p.slice(4)).filter((n) => DEX_NAME.test(n));
}

/** DexFilesValidator: classes.dex, classes2.dex ... with no gap, and never classes1.dex. */
export const dexContiguous: ModuleValidator = {
  kind: 'module',
  rule: 'dex-contiguous',
  async check(m) {
    const names = dexNames(m);
    if (names.length === 0) return [];
    const out: BundleProblem[] = [];
    const indices = new Set<number>();
    for (const n of names) {
      const i = dexIndex(n);
      if (i === undefined) out.push(problem(this.rule, `Module '${m.name}': invalid dex file name '${n}'.`, `${m.name}/dex/${n}`));
      else indices.add(i);
    }
    for (let i = 1; i <= indices.size; i++) {
      if (!indices.has(i)) {
        const expected = i === 1 ? 'classes.dex' : `classes${i}.dex`;
        out.push(problem(this.rule, `Module '${m.name}': expected dex file '${expected}' is missing; dex files must be numbered without gaps.`));
        break;
      }
    }
    return out;
  },
};

export const dexOrNoCode: ModuleValidator = {
  kind: 'module',
  rule: 'dex-has-code',
  async check(m) {
    if (dexNames(m).length > 0) return [];
    const manifest = (await m.manifest())?.value;
    if (!manifest || isAssetPackManifest(manifest, DIST_NS)) return []; // asset packs hold no code
    const hasCode = booleanValue(attrById(application(manifest), ATTR.hasCode));
    return hasCode === false
      ? []
      : [problem(this.rule, `Module '${m.name}' has no dex files but the attribute 'hasCode' is not set to false in the AndroidManifest.xml.`)];
  },
};

function libDirectories(m: ModuleContext): Set<string> {
  const dirs = new Set<string>();
  for (const p of m.files.keys()) {
    const s = p.split('/');
    if (s[0] === 'lib' && s.length >= 3) dirs.add(`lib/${s[1]}`);
  }
  return dirs;
}

/** NativeTargetingValidator: native.pb names every lib/<abi> with files, each with an ABI. */
export const nativeTargeting: ModuleValidator = {
  kind: 'module',
  rule: 'native-targeting',
  async check(m) {
    const d = await m.nativeConfig();
    if (!d) return [];
    const at = `${m.name}/${NATIVE_PB}`;
    if (d.error) return [problem(this.rule, `'${NATIVE_PB}' of module '${m.name}' is not a valid NativeLibraries proto: ${d.error}`, at)];
    const dirs = libDirectories(m);
    const listed = new Set<string>();
    const out: BundleProblem[] = [];
    for (const t of d.value?.directory ?? []) {
      const path = t.path ?? '';
      listed.add(path);
      if (!/^lib\/[^/]+$/.test(path)) out.push(problem(this.rule, `Native directory '${path}' must have the form 'lib/<abi>'.`, at));
      else if (!dirs.has(path)) out.push(problem(this.rule, `Native directory '${path}' is listed in ${NATIVE_PB} but holds no files.`, at));
      const alias = t.targeting?.abi?.alias;
      if (!alias) out.push(problem(this.rule, `Native directory '${path}' has no ABI targeting.`, at));
      else if (dirs.has(path) && ABI_ALIASES[path.slice(4)] !== alias) {
        out.push(problem(this.rule, `Native directory '${path}' is targeted at ABI ${alias}, which is not its ABI.`, at));
      }
    }
    for (const dir of dirs) {
      if (!listed.has(dir)) out.push(problem(this.rule, `Native directory '${dir}' holds files but is missing from ${NATIVE_PB}.`, at));
    }
    return out;
  },
};

const TCF = new Set(['etc1_rgb8', 'paletted', '3dc', 'atc', 'latc', 'dxt1', 's3tc', 'pvrtc', 'astc', 'etc2']);
const TARGETING_VALUE: Record<string, RegExp | ReadonlySet<string>> = {
  lang: /^[a-zA-Z]{2,3}$/,
  tcf: TCF,
  tier: /^\d+$/,
  countries: /^[a-zA-Z0-9_]+$/,
  group: /^[a-zA-Z][a-zA-Z0-9_]*$/,
};

/** Why an assets/ directory path is not well-formed targeting (TargetedDirectorySegment), if it is not. */
export function assetDirectoryProblem(dir: string): string | undefined {
  const keys = new Set<string>();
  for (const segment of dir.split('/')) {
    if (!segment.includes('#')) continue;
    const parts = segment.split('#');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return `Cannot tokenize targeted directory '${segment}'.`;
    const sep = parts[1].indexOf('_');
    const key = sep > 0 ? parts[1].slice(0, sep) : parts[1];
    const value = sep > 0 ? parts[1].slice(sep + 1) : '';
    const accepted = TARGETING_VALUE[key];
    if (!accepted) return `Unrecognized key: '${key}' in targeted directory '${segment}'.`;
    const ok = accepted instanceof RegExp ? accepted.test(value) : accepted.has(value);
    if (!ok) return `Invalid value '${value}' for key '${key}' in targeted directory '${segment}'.`;
    if (keys.has(key)) return `Duplicate targeting by '${key}' in directory '${dir}'.`;
    keys.add(key);
  }
  return undefined;
}

export const assetsTargeting: ModuleValidator = {
  kind: 'module',
  rule: 'assets-targeting',
  async check(m) {
    const out: BundleProblem[] = [];
    const fileDirs = new Set<string>();
    for (const p of m.files.keys()) {
      if (!p.startsWith('assets/')) continue;
      const dir = p.slice(0, p.lastIndexOf('/'));
      if (fileDirs.has(dir)) continue;
      fileDirs.add(dir);
      const why = assetDirectoryProblem(dir);
      if (why) out.push(problem(this.rule, `Module '${m.name}': ${why}`, `${m.name}/${p}`));
    }
    const d = await m.assetsConfig();
    const at = `${m.name}/${ASSETS_PB}`;
    if (d?.error) return [...out, problem(this.rule, `'${ASSETS_PB}' of module '${m.name}' is not a valid Assets proto: ${d.error}`, at)];
    for (const t of d?.value?.directory ?? []) {
      const path = t.path ?? '';
      if (path !== 'assets' && !path.startsWith('assets/')) out.push(problem(this.rule, `Path of targeted assets directory must start with 'assets', but found '${path}'.`, at));
      else if (!fileDirs.has(path)) out.push(problem(this.rule, `Targeted directory '${path}' is empty.`, at));
    }
    return out;
  },
};

/** AbiParityValidator: modules with native code all support the same ABIs. */
export const abiParity: BundleValidator = {
  kind: 'bundle',
  rule: 'abi-parity',
  async check(bundle) {
    let reference: { module: string; abis: string } | undefined;
    const out: BundleProblem[] = [];
    for (const m of bundle.modules.values()) {
      const dirs = [...libDirectories(m)].sort().join(',');
      if (dirs === '') continue;
      if (!reference) reference = { module: m.name, abis: dirs };
      else if (reference.abis !== dirs) {
        out.push(problem(this.rule, `Modules '${reference.module}' and '${m.name}' support different sets of ABIs: [${reference.abis}] and [${dirs}].`));
      }
    }
    return out;
  },
};

export const archiveReservedEntries: ModuleValidator = {
  kind: 'module',
  rule: 'archive-reserved-entries',
  async check(m) {
    return [...m.files.keys()]
      .filter((p) => ARCHIVE_RESERVED_PATHS.has(p))
      .map((p) => problem(this.rule, `Module '${m.name}' contains '${p}', a path reserved by bundletool for archived apps.`, `${m.name}/${p}`));
  },
};

/** ModuleNamesValidator: every module but the base says `split="<its name>"` in its manifest. */
export const moduleSplitName: ModuleValidator = {
  kind: 'module',
  rule: 'module-split-name',
  async check(m) {
    if (m.name === BASE_MODULE) return [];
    const root = (await m.manifest())?.value?.element;
    if (!root) return [];
    const split = stringValue(root.attribute?.find((a) => a.name === 'split' && (a.namespace_uri ?? '') === ''));
    if (split === undefined) return [problem(this.rule, `No 'split' attribute found in the AndroidManifest.xml of module '${m.name}'.`)];
    return split === m.name
      ? []
      : [problem(this.rule, `The 'split' attribute in the AndroidManifest.xml of modules must be the name of the module, but has the value '${split}' in module '${m.name}'.`)];
  },
};

/** AssetModuleFilesValidator: an asset pack holds its manifest and assets/ only. */
export const assetPackFiles: ModuleValidator = {
  kind: 'module',
  rule: 'asset-pack-files',
  async check(m) {
    if (!isAssetPackManifest((await m.manifest())?.value, DIST_NS)) return [];
    const illegal = [...m.files.keys()].filter((p) => !p.startsWith('assets/') && !p.startsWith('manifest/') && p !== ASSETS_PB);
    const out: BundleProblem[] = [];
    if (m.files.has(RESOURCES_PB)) out.push(problem(this.rule, `Unexpected resource table found in asset pack '${m.name}'.`));
    if (m.files.has(NATIVE_PB)) out.push(problem(this.rule, `Native libraries config not allowed in asset packs, but found in '${m.name}'.`));
    const other = illegal.filter((p) => p !== RESOURCES_PB && p !== NATIVE_PB);
    if (other.length > 0) out.push(problem(this.rule, `Invalid entries found in asset pack '${m.name}': '${other.slice(0, 10).join("', '")}'.`));
    return out;
  },
};

export const MODULE_RULES = [dexContiguous, dexOrNoCode, nativeTargeting, assetsTargeting, abiParity, archiveReservedEntries, moduleSplitName, assetPackFiles];

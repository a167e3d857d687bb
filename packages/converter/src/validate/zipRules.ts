/** docs/aab-format.md "Validation: zip and files": the zip itself and where files may sit. */
import {
  BUNDLE_CONFIG,
  DEX_NAME,
  KNOWN_ABIS,
  MANIFEST_PATH,
  MODULE_DIRECTORIES,
  MODULE_NAME,
  MODULE_SPECIAL_FILES,
  BASE_MODULE,
  isReservedRootSegment,
} from '../bundle/layout.js';
import { problem, type BundleProblem, type BundleValidator, type EntryValidator, type ModuleValidator } from './types.js';

export const noDirectoryEntries: EntryValidator = {
  kind: 'entry',
  rule: 'zip-no-directory-entries',
  check: (name) => (name.endsWith('/') ? `The bundle contains a directory entry: '${name}'.` : undefined),
};

export const noAbsolutePaths: EntryValidator = {
  kind: 'entry',
  rule: 'zip-no-absolute-paths',
  check: (name) => (name.startsWith('/') ? `The bundle contains an entry with an absolute path: '${name}'.` : undefined),
};

export const noDotSegments: EntryValidator = {
  kind: 'entry',
  rule: 'zip-no-dot-segments',
  check: (name) =>
    name.split('/').some((s) => s === '.' || s === '..') ? `Path '${name}' has a '.' or '..' segment.` : undefined,
};

/** bundletool collapses empty segments, so "a//b" and "a/b" would be one path and break its entry map. */
export const uniquePaths: BundleValidator = {
  kind: 'bundle',
  rule: 'zip-unique-paths',
  async check(bundle) {
    const seen = new Set<string>();
    const out: BundleProblem[] = [];
    for (const name of bundle.view.zipNames ?? bundle.view.files.map((f) => f.path)) {
      if (name.endsWith('/')) continue;
      const key = name.split('/').filter(Boolean).join('/');
      if (seen.has(key)) out.push(problem(this.rule, `Two entries resolve to the same path '${key}'.`, name));
      seen.add(key);
    }
    return out;
  },
};

export const bundleConfigPresent: BundleValidator = {
  kind: 'bundle',
  rule: 'bundle-config-present',
  async check(bundle) {
    const c = await bundle.bundleConfig();
    if (!c) {
      return [problem(this.rule, `The archive doesn't seem to be an App Bundle, it is missing required file '${BUNDLE_CONFIG}'.`)];
    }
    return c.error ? [problem(this.rule, `'${BUNDLE_CONFIG}' is not a valid BundleConfig proto: ${c.error}`, BUNDLE_CONFIG)] : [];
  },
};

export const baseModulePresent: BundleValidator = {
  kind: 'bundle',
  rule: 'base-module-present',
  async check(bundle) {
    return bundle.modules.has(BASE_MODULE) ? [] : [problem(this.rule, `The bundle has no '${BASE_MODULE}' module.`)];
  },
};

export const moduleName: ModuleValidator = {
  kind: 'module',
  rule: 'module-name',
  async check(m) {
    return MODULE_NAME.test(m.name) ? [] : [problem(this.rule, `Module name '${m.name}' is invalid: it must match [a-zA-Z][a-zA-Z0-9_]*.`, `${m.name}/`)];
  },
};

export const moduleManifestPresent: ModuleValidator = {
  kind: 'module',
  rule: 'module-manifest',
  async check(m) {
    const path = `${m.name}/${MANIFEST_PATH}`;
    const d = await m.manifest();
    if (!d) return [problem(this.rule, `Module '${m.name}' is missing mandatory file '${MANIFEST_PATH}'.`, path)];
    if (d.error) return [problem(this.rule, `The manifest of module '${m.name}' is not a valid XmlNode proto: ${d.error}`, path)];
    if (!d.value?.element) return [problem(this.rule, `The manifest of module '${m.name}' has no root element.`, path)];
    return [];
  },
};

/** Where one module file may sit (BundleFilesValidator); returns the message for a misplaced file. */
export function moduleFileProblem(path: string): string | undefined {
  const segments = path.split('/');
  const [dir] = segments;
  if (segments.length === 1) {
    return MODULE_SPECIAL_FILES.has(path) ? undefined : `Module files can be only in pre-defined directories, but found '${path}'.`;
  }
  if (!MODULE_DIRECTORIES.has(dir)) return `Module files can be only in pre-defined directories, but found '${path}'.`;
  if (dir === 'dex') {
    if (segments.length !== 2) return `The dex files must be directly in 'dex/', but found '${path}'.`;
    if (!DEX_NAME.test(segments[1])) return `Files under 'dex/' must be named 'classes[0-9]*.dex', but found '${path}'.`;
  }
  if (dir === 'lib') {
    if (segments.length !== 3) return `Native library files need to be in 'lib/<abi>/<file>', but found '${path}'.`;
    if (!KNOWN_ABIS.has(segments[1])) return `Unrecognized native library directory '${segments[1]}' in '${path}'.`;
    const file = segments[2];
    if (!file.endsWith('.so') && file !== 'wrap.sh') return `Only '.so' files and 'wrap.sh' may be under 'lib/', but found '${path}'.`;
  }
  if (dir === 'manifest' && path !== MANIFEST_PATH) return `Only 'AndroidManifest.xml' may be under 'manifest/', but found '${path}'.`;
  if (dir === 'root' && isReservedRootSegment(segments[1])) return `The path '${path}' under 'root/' is reserved.`;
  return undefined;
}

export const moduleFileLayout: ModuleValidator = {
  kind: 'module',
  rule: 'module-file-layout',
  async check(m) {
    const out: BundleProblem[] = [];
    for (const path of m.files.keys()) {
      const msg = moduleFileProblem(path);
      if (msg) out.push(problem(this.rule, `Module '${m.name}': ${msg}`, `${m.name}/${path}`));
    }
    return out;
  },
};

export const ZIP_RULES = [noDirectoryEntries, noAbsolutePaths, noDotSegments, uniquePaths, bundleConfigPresent, baseModulePresent, moduleName, moduleManifestPresent, moduleFileLayout];

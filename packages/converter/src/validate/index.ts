import { ConverterError, isConverterError } from '../errors.js';
import { AaptPb, type PbXmlNode } from '../proto/aapt.js';
import { ATTR, BASE_MODULE, MANIFEST_PATH } from '../bundle/layout.js';
import { attrById, attrByName, decimalValue, stringValue } from './xml.js';
import { ZipReader } from '../zip/index.js';
import { AAPT2_RULES } from './aapt2Rules.js';
import { CONFIG_RULES } from './configRules.js';
import { bundleContext } from './context.js';
import { MANIFEST_RULES } from './manifestRules.js';
import { MODULE_RULES } from './moduleRules.js';
import { RESOURCE_RULES } from './resourceRules.js';
import type { BundleFile, BundleProblem, BundleView, Validator } from './types.js';
import { ZIP_RULES } from './zipRules.js';
import { eventLoopTurns } from '../eventLoop.js';

export * from './types.js';
export * from './zipRules.js';
export * from './manifestRules.js';
export * from './configRules.js';
export * from './moduleRules.js';
export * from './resourceRules.js';
export * from './aapt2Rules.js';
export { bundleContext } from './context.js';
export { globSyntaxError } from './glob.js';

/** Every rule of the "Validation" sections of docs/aab-format.md, in bundletool's order: zip, manifest, config, files, resources, aapt2. */
export const ALL_VALIDATORS: readonly Validator[] = [...ZIP_RULES, ...MANIFEST_RULES, ...CONFIG_RULES, ...MODULE_RULES, ...RESOURCE_RULES, ...AAPT2_RULES];

/** Runs validators over a bundle held as a view (files read lazily). */
export async function runValidators(view: BundleView, validators: readonly Validator[] = ALL_VALIDATORS): Promise<BundleProblem[]> {
  const ctx = bundleContext(view);
  const out: BundleProblem[] = [];
  const names = view.zipNames ?? view.files.map((f) => f.path);
  const turn = eventLoopTurns(); // the checks of a large table run long: the thread pool's work goes on
  for (const v of validators) {
    await turn();
    if (v.kind === 'entry') {
      for (const name of names) {
        const message = v.check(name);
        if (message) out.push({ rule: v.rule, message, path: name });
      }
    } else if (v.kind === 'module') {
      for (const m of ctx.modules.values()) out.push(...(await v.check(m, ctx)));
    } else {
      out.push(...(await v.check(ctx)));
    }
  }
  return out;
}

/**
 * Checks an .aab file against every rule bundletool and its aapt2 enforce (docs/aab-format.md, the "Validation" sections).
 * An archive that is not a sane zip is one problem (rule "zip-structure"), not an exception.
 */
export async function validateBundle(aab: string): Promise<BundleProblem[]> {
  let reader: ZipReader;
  try {
    reader = await ZipReader.open(aab);
  } catch (e) {
    if (isConverterError(e) && e.code !== 'IO_ERROR') {
      const why = e.detail ? `${e.code}: ${e.detail}` : e.code;
      return [{ rule: 'zip-structure', message: `The file is not a readable zip archive (${why}).` }];
    }
    throw e;
  }
  try {
    const files: BundleFile[] = reader.entries
      .filter((e) => !e.isDirectory)
      .map((e) => ({ path: e.name, read: () => reader.read(e) }));
    return await runValidators({ files, zipNames: reader.entries.map((e) => e.rawName) });
  } finally {
    await reader.close();
  }
}

/** What Google Play knows a bundle by: its base manifest's package name and versionCode. */
export interface BundleIdentity {
  packageName: string;
  versionCode?: number;
}

/** Reads the package name and versionCode of an .aab's base module (BUNDLE_WITHOUT_MANIFEST when it has none). */
export async function readBundleIdentity(aab: string): Promise<BundleIdentity> {
  const reader = await ZipReader.open(aab);
  try {
    const entry = reader.entries.find((e) => e.name === `${BASE_MODULE}/${MANIFEST_PATH}`);
    if (!entry) throw new ConverterError('BUNDLE_WITHOUT_MANIFEST', `${BASE_MODULE}/${MANIFEST_PATH} absent`);
    let root: PbXmlNode;
    try {
      root = AaptPb.XmlNode.toObject(AaptPb.XmlNode.decode(await reader.read(entry)), { longs: Number, enums: Number }) as PbXmlNode;
    } catch (e) {
      throw new ConverterError('BUNDLE_WITHOUT_MANIFEST', (e as Error).message, { cause: e });
    }
    const packageName = stringValue(attrByName(root.element, 'package'));
    if (root.element?.name !== 'manifest' || !packageName) throw new ConverterError('BUNDLE_WITHOUT_MANIFEST', 'no <manifest package=…>');
    return { packageName, versionCode: decimalValue(attrById(root.element, ATTR.versionCode)) };
  } finally {
    await reader.close();
  }
}

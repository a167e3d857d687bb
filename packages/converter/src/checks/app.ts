/**
 * The pre-publication checks without converting: an APK, a split set or an existing bundle is
 * read (manifests, native libraries' headers, a bundle's module sizes and signature files) and
 * described as a report the checklist reads (@aabify/shared/playChecklist), with the same
 * warnings a conversion would carry. `aabify check FILE` is built on it.
 */
import type { PlayCheckCode } from '@aabify/shared/playChecklist';
import { ConverterError } from '../errors.js';
import { ATTR, BUNDLE_CONFIG, DIST_NS, MANIFEST_PATH } from '../bundle/layout.js';
import { playLimitWarnings } from '../bundle/playLimits.js';
import { openInputs, type ContainerKind, type InputFile } from '../input/open.js';
import type { PbXmlNode } from '../proto/aapt.js';
import type { ConversionWarning, ModuleReport } from '../report.js';
import { AndroidAttr, repairManifest, xmlToProtoNode } from '../resources/index.js';
import { isSignatureFile } from '../sign/index.js';
import { groupSplits, readSplit, type SplitApk } from '../splits/classify.js';
import { application, attrById, attrByName, booleanValue, children, decimalValue, decodeXmlNode, isAssetPackManifest, stringValue } from '../validate/xml.js';
import { ZipReader } from '../zip/index.js';
import { monotonicMs } from '../clock.js';
import { NATIVE_LIBRARY_PATH, playFindings, type CheckSubject, type NativeLibrary } from './index.js';

/** What the checklist reads of an app checked without converting (the shape of a conversion's report). */
export interface AppCheck {
  /** What the input was, by content: an APK, a split set, or a bundle. */
  container: ContainerKind | 'aab';
  packageName: string;
  versionCode?: number;
  versionName?: string;
  minSdk?: number | string;
  targetSdk?: number | string;
  debuggable: boolean;
  /** ABIs with native libraries, sorted. */
  abis: string[];
  warnings: ConversionWarning[];
  /** A bundle signed (JAR signature) by the signer named so (`META-INF/<alias>.SF`). */
  signature?: { alias: string };
  durations: { checks: number; total: number };
  /** Checks only the converted bundle answers (an APK's signature and module sizes): leave them out. */
  notChecked: PlayCheckCode[];
}

export interface CheckAppOptions {
  signal?: AbortSignal;
}

const ms = (since: number): number => Math.round((monotonicMs() - since) * 10) / 10;

/** Checks an APK, a split set (one or several files) or an .aab, without converting it. */
export async function checkApp(input: InputFile | readonly InputFile[], options: CheckAppOptions = {}): Promise<AppCheck> {
  const inputs: InputFile[] = Array.isArray(input) ? [...(input as readonly InputFile[])] : [input as InputFile];
  if (inputs.length === 0) throw new ConverterError('INVALID_OPTIONS', 'nenhum arquivo de entrada');
  const started = monotonicMs();
  if (inputs.length === 1) {
    const bundle = await openIfBundle(typeof inputs[0] === 'string' ? inputs[0] : inputs[0].path);
    if (bundle) {
      try {
        return await checkBundle(bundle, started, options.signal);
      } finally {
        await bundle.close();
      }
    }
  }
  return checkApks(inputs, started, options.signal);
}

/** The file open as a bundle when it is one (BundleConfig.pb and a base manifest), else undefined. */
async function openIfBundle(path: string): Promise<ZipReader | undefined> {
  let reader: ZipReader;
  try {
    reader = await ZipReader.open(path);
  } catch {
    return undefined; // openInputs says what is wrong with it
  }
  if (reader.get(BUNDLE_CONFIG) && reader.get(`base/${MANIFEST_PATH}`)) return reader;
  await reader.close();
  return undefined;
}

function librariesOf(module: string, parts: readonly SplitApk[], signal?: AbortSignal): NativeLibrary[] {
  const libs: NativeLibrary[] = [];
  for (const p of parts) {
    for (const [path, entry] of p.routed.copies) {
      const lib = NATIVE_LIBRARY_PATH.exec(path);
      if (lib) libs.push({ module, path, abi: lib[1], size: entry.uncompressedSize, readHead: (n) => p.part.reader.readHead(entry, n, { signal }) });
    }
  }
  return libs;
}

async function checkApks(inputs: InputFile[], started: number, signal?: AbortSignal): Promise<AppCheck> {
  const opened = await openInputs(inputs, { signal });
  try {
    const splits: SplitApk[] = [];
    for (const part of opened.apks) splits.push(await readSplit(part, signal));
    const { modules } = groupSplits(splits);
    const base = modules[0];
    const code = modules.filter((m) => m.kind !== 'asset-pack');
    const checksStarted = monotonicMs();
    const subject: CheckSubject = {
      manifests: code.map((m) => ({ module: m.name, node: xmlToProtoNode(m.master.doc) })),
      libraries: code.flatMap((m) => librariesOf(m.name, [m.master, ...m.configs], signal)),
    };
    const findings = await playFindings(subject);
    const checks = ms(checksStarted);
    const m = base.master.manifest;
    // What the conversion would repair in the manifest (a missing versionCode, codename SDK levels).
    const repairs = repairManifest(base.master.doc).warnings.filter((w) => w.code === 'VERSION_CODE_MISSING' || w.code.startsWith('SDK_'));
    return {
      container: opened.container,
      packageName: m.packageName,
      ...(m.versionCode !== undefined ? { versionCode: m.versionCode } : {}),
      ...(m.versionName !== undefined ? { versionName: m.versionName } : {}),
      ...(m.minSdk !== undefined ? { minSdk: m.minSdk } : {}),
      ...(m.targetSdk !== undefined ? { targetSdk: m.targetSdk } : {}),
      debuggable: m.debuggable === true,
      abis: [...new Set(subject.libraries.map((l) => l.abi))].sort(),
      warnings: [...repairs.map((w) => ({ code: w.code, message: w.message })), ...findings],
      durations: { checks, total: ms(started) },
      notChecked: ['signature', 'size'],
    };
  } finally {
    await opened.close();
  }
}

/** An SDK level as a bundle's manifest holds it: a number, or a preview's codename. */
function sdkLevel(node: PbXmlNode, id: number): number | string | undefined {
  const usesSdk = children(node.element, 'uses-sdk')[0];
  const a = attrById(usesSdk, id);
  return decimalValue(a) ?? stringValue(a);
}

async function checkBundle(reader: ZipReader, started: number, signal?: AbortSignal): Promise<AppCheck> {
  const manifests: CheckSubject['manifests'] = [];
  const libraries: NativeLibrary[] = [];
  const moduleBytes = new Map<string, number>();
  const assetPacks = new Set<string>();
  for (const entry of reader.entries) {
    const slash = entry.name.indexOf('/');
    if (slash <= 0 || entry.name.startsWith('META-INF/')) continue;
    const module = entry.name.slice(0, slash);
    const path = entry.name.slice(slash + 1);
    moduleBytes.set(module, (moduleBytes.get(module) ?? 0) + entry.compressedSize);
    if (path === MANIFEST_PATH) {
      let node: PbXmlNode;
      try {
        node = decodeXmlNode(await reader.read(entry, { signal }));
      } catch (e) {
        throw new ConverterError('BUNDLE_WITHOUT_MANIFEST', `${entry.name}: ${(e as Error).message}`, { cause: e });
      }
      if (isAssetPackManifest(node, DIST_NS)) assetPacks.add(module);
      else manifests.push({ module, node });
    }
    const lib = NATIVE_LIBRARY_PATH.exec(path);
    if (lib) libraries.push({ module, path, abi: lib[1], size: entry.uncompressedSize, readHead: (n) => reader.readHead(entry, n, { signal }) });
  }
  manifests.sort((a, b) => (a.module === 'base' ? -1 : b.module === 'base' ? 1 : 0));
  const base = manifests[0];
  const packageName = base?.module === 'base' ? stringValue(attrByName(base.node.element, 'package')) : undefined;
  if (!base || !packageName) throw new ConverterError('BUNDLE_WITHOUT_MANIFEST', 'no <manifest package=…> in base');
  const checksStarted = monotonicMs();
  const code = new Set(manifests.map((m) => m.module));
  const findings = await playFindings({ manifests, libraries: libraries.filter((l) => code.has(l.module)) });
  const checks = ms(checksStarted);
  const modules: ModuleReport[] = [...moduleBytes].map(([name, sizeBytes]) => ({
    name,
    kind: name === 'base' ? 'base' : assetPacks.has(name) ? 'asset-pack' : 'feature',
    files: 0,
    sizeBytes,
  }));
  const root = base.node.element;
  const versionCode = decimalValue(attrById(root, ATTR.versionCode));
  const versionName = stringValue(attrById(root, AndroidAttr.versionName));
  const minSdk = sdkLevel(base.node, ATTR.minSdkVersion);
  const targetSdk = sdkLevel(base.node, ATTR.targetSdkVersion);
  const signer = reader.entries.map((e) => /^META-INF\/([^/]+)\.SF$/i.exec(e.name)?.[1]).find((s) => s !== undefined);
  const signed = signer !== undefined && reader.entries.some((e) => isSignatureFile(e.name) && e.name.toUpperCase().startsWith(`META-INF/${signer.toUpperCase()}.`) && !/\.SF$/i.test(e.name));
  return {
    container: 'aab',
    packageName,
    ...(versionCode !== undefined ? { versionCode } : {}),
    ...(versionName !== undefined ? { versionName } : {}),
    ...(minSdk !== undefined ? { minSdk } : {}),
    ...(targetSdk !== undefined ? { targetSdk } : {}),
    debuggable: booleanValue(attrById(application(base.node), ATTR.debuggable)) === true,
    abis: [...new Set(libraries.filter((l) => code.has(l.module)).map((l) => l.abi))].sort(),
    warnings: [...playLimitWarnings(modules), ...findings],
    ...(signed ? { signature: { alias: signer } } : {}),
    durations: { checks, total: ms(started) },
    notChecked: [],
  };
}

/**
 * An .aab opened for building APKs: read by its central directory with the engine's zip limits,
 * every module's manifest, resource table, assets/native targeting and proto XML files decoded,
 * and the whole bundle checked against the AAB rules (the same validators the converter runs on
 * its own output) before anything is built. Any failure is a coded error said of an .aab.
 */
import { ASSETS_PB, BASE_MODULE, BUNDLE_CONFIG, DIST_NS, MANIFEST_PATH, NATIVE_PB, NON_MODULE_DIRECTORIES, RESOURCES_PB } from '../bundle/layout.js';
import { ConverterError, asBundleInputError, isConverterError } from '../errors.js';
import type { PbResourceTable, PbXmlNode } from '../proto/aapt.js';
import { fastDecode } from '../proto/fastDecode.js';
import { decodeMessage, type AssetsMsg, type BundleConfigMsg, type NativeLibrariesMsg } from '../proto/bundle.js';
import { runValidators, type BundleFile } from '../validate/index.js';
import { attrByName, booleanValue, children, isAssetPackManifest, stringValue } from '../validate/xml.js';
import { ZipReader, type ZipEntry } from '../zip/index.js';
import { mergeOptimizations, parseVersion, type ApkOptimizations, type Version } from './optimizations.js';

export type ModuleKind = 'base' | 'feature' | 'asset-pack';
/** bundletool's ModuleDeliveryType. */
export type ModuleDelivery = 'install-time' | 'conditional' | 'on-demand';

export interface BundleModule {
  readonly name: string;
  readonly kind: ModuleKind;
  readonly manifest: PbXmlNode;
  readonly table?: PbResourceTable;
  readonly assets?: AssetsMsg;
  readonly native?: NativeLibrariesMsg;
  /** Module-relative path → entry: every file but the manifest and the .pb files. */
  readonly files: ReadonlyMap<string, ZipEntry>;
  /** `<dist:fusing dist:include>`; undefined when the manifest does not say (the base: always fused). */
  readonly fusing?: boolean;
  readonly delivery: ModuleDelivery;
  /** Installed with the app and never removed (bundletool's isAlwaysInstalledModule). */
  readonly alwaysInstalled: boolean;
  /** Decoded proto XML files (res/ files the table references as PROTO_XML), by module path. */
  readonly xml: ReadonlyMap<string, PbXmlNode>;
}

export interface Bundle {
  readonly path: string;
  readonly reader: ZipReader;
  readonly sizeBytes: number;
  readonly config: BundleConfigMsg;
  readonly version: Version;
  readonly optimizations: ApkOptimizations;
  /** In bundletool's order (see `javaHashOrder`), the base among them. */
  readonly modules: readonly BundleModule[];
  readonly base: BundleModule;
  /** `namespace/file` under BUNDLE-METADATA/ → entry. */
  readonly metadata: ReadonlyMap<string, ZipEntry>;
}

// Empty repeated fields as empty arrays: the decoded objects then have the shapes the engine builds.
function decodeXml(bytes: Uint8Array): PbXmlNode {
  return fastDecode('aapt.pb.XmlNode', bytes) as unknown as PbXmlNode;
}

function decodeTable(bytes: Uint8Array): PbResourceTable {
  return fastDecode('aapt.pb.ResourceTable', bytes) as unknown as PbResourceTable;
}

/** Decodes a proto, turning a decoder failure (or a stack overflow on hostile nesting) into INVALID_AAB. */
function decoded<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (isConverterError(e)) throw e;
    throw new ConverterError('INVALID_AAB', `${what}: ${(e as Error).message}`, { cause: e });
  }
}

/** Java's String.hashCode. */
function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The order a java.util.HashMap keyed by module name iterates in (bundletool keeps a bundle's
 * modules in one): by bucket of the spread hash, then by insertion. It decides, for instance,
 * the numbering of feature modules' dex files in a universal APK.
 */
export function javaHashOrder(names: readonly string[]): string[] {
  let capacity = 16;
  while (names.length > capacity * 0.75) capacity *= 2;
  const bucket = (name: string): number => {
    const h = (1000003 ^ javaStringHash(name)) | 0;
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return names.map((name, i) => ({ name, i, b: bucket(name) })).sort((a, b) => a.b - b.b || a.i - b.i).map((x) => x.name);
}

function deliveryOf(manifest: PbXmlNode): ModuleDelivery {
  const module = children(manifest.element, 'module', DIST_NS)[0];
  const delivery = children(module, 'delivery', DIST_NS)[0];
  if (delivery) {
    const installTime = children(delivery, 'install-time', DIST_NS)[0];
    if (installTime) return children(installTime, 'conditions', DIST_NS).length > 0 ? 'conditional' : 'install-time';
    return 'on-demand';
  }
  const onDemand = booleanValue(attrByName(module, 'onDemand', DIST_NS));
  return onDemand === true ? 'on-demand' : 'install-time';
}

/** bundletool's isAlwaysInstalledModule: an install-time module without conditions that cannot be removed. */
function alwaysInstalledOf(manifest: PbXmlNode, assetPack: boolean): boolean {
  const module = children(manifest.element, 'module', DIST_NS)[0];
  const delivery = children(module, 'delivery', DIST_NS)[0];
  const onDemand = children(delivery, 'on-demand', DIST_NS).length > 0;
  const fastFollow = children(delivery, 'fast-follow', DIST_NS).length > 0;
  const installTime = children(delivery, 'install-time', DIST_NS)[0];
  const wellFormed = onDemand || installTime !== undefined || (assetPack && fastFollow);
  if (!wellFormed) return booleanValue(attrByName(module, 'onDemand', DIST_NS)) !== true;
  const conditions = children(installTime, 'conditions', DIST_NS).length > 0;
  const removable = booleanValue(attrByName(children(installTime, 'removable', DIST_NS)[0], 'value', DIST_NS)) === true;
  return !(onDemand || fastFollow || conditions || removable);
}

function fusingOf(manifest: PbXmlNode): boolean | undefined {
  const module = children(manifest.element, 'module', DIST_NS)[0];
  const fusing = children(module, 'fusing', DIST_NS)[0];
  return fusing ? booleanValue(attrByName(fusing, 'include', DIST_NS)) : undefined;
}

function problemsDetail(problems: readonly { rule: string; message: string }[]): string {
  const shown = problems.slice(0, 10).map((p) => `[${p.rule}] ${p.message}`).join(' | ');
  return problems.length > 10 ? `${shown} | (+${problems.length - 10})` : shown;
}

/** Opens and checks a bundle; the caller closes `bundle.reader`. */
export async function openBundle(path: string, signal?: AbortSignal): Promise<Bundle> {
  let reader: ZipReader;
  try {
    reader = await ZipReader.open(path);
  } catch (e) {
    throw isConverterError(e) ? asBundleInputError(e) : e;
  }
  try {
    return await readBundle(path, reader, signal);
  } catch (e) {
    await reader.close();
    throw isConverterError(e) ? asBundleInputError(e) : e;
  }
}

async function readBundle(path: string, reader: ZipReader, signal?: AbortSignal): Promise<Bundle> {
  const read = async (e: ZipEntry): Promise<Buffer> => reader.read(e, { signal });
  const configEntry = reader.get(BUNDLE_CONFIG);
  if (!configEntry || !reader.get(`${BASE_MODULE}/${MANIFEST_PATH}`)) {
    throw new ConverterError('NOT_AN_AAB', configEntry ? `${BASE_MODULE}/${MANIFEST_PATH} ausente` : `${BUNDLE_CONFIG} ausente`);
  }
  const configBytes = await read(configEntry);
  const config = decoded(BUNDLE_CONFIG, () => decodeMessage<BundleConfigMsg>('BundleConfig', configBytes));
  const version = parseVersion(config.bundletool?.version ?? '');
  if (config.type === 1 || config.apex_config) throw new ConverterError('UNSUPPORTED_AAB', 'bundles APEX');
  if (config.type === 2) throw new ConverterError('UNSUPPORTED_AAB', 'bundles só de assets (ASSET_ONLY)');

  const grouped = new Map<string, Map<string, ZipEntry>>();
  const metadata = new Map<string, ZipEntry>();
  for (const e of reader.entries) {
    if (e.isDirectory) continue;
    const slash = e.name.indexOf('/');
    if (slash <= 0) continue;
    const top = e.name.slice(0, slash);
    if (top === 'BUNDLE-METADATA') metadata.set(e.name.slice(slash + 1), e);
    if (NON_MODULE_DIRECTORIES.has(top)) continue;
    let m = grouped.get(top);
    if (!m) grouped.set(top, (m = new Map()));
    m.set(e.name.slice(slash + 1), e);
  }

  const files: BundleFile[] = [];
  const modules = new Map<string, BundleModule>();
  for (const [name, entries] of grouped) {
    const at = (p: string): string => `${name}/${p}`;
    if (!entries.has(MANIFEST_PATH)) throw new ConverterError('INVALID_AAB', `o módulo "${name}" não tem ${MANIFEST_PATH}`);
    const bytesOf = async (p: string): Promise<Buffer | undefined> => {
      const e = entries.get(p);
      return e ? read(e) : undefined;
    };
    const manifestBytes = (await bytesOf(MANIFEST_PATH)) as Buffer;
    const manifest = decoded(at(MANIFEST_PATH), () => decodeXml(manifestBytes));
    const tableBytes = await bytesOf(RESOURCES_PB);
    const table = tableBytes ? decoded(at(RESOURCES_PB), () => decodeTable(tableBytes)) : undefined;
    const assetsBytes = await bytesOf(ASSETS_PB);
    const assets = assetsBytes ? decoded(at(ASSETS_PB), () => decodeMessage<AssetsMsg>('Assets', assetsBytes)) : undefined;
    const nativeBytes = await bytesOf(NATIVE_PB);
    const native = nativeBytes ? decoded(at(NATIVE_PB), () => decodeMessage<NativeLibrariesMsg>('NativeLibraries', nativeBytes)) : undefined;
    if (entries.has('runtime_enabled_sdk_config.pb')) throw new ConverterError('UNSUPPORTED_AAB', `${at('runtime_enabled_sdk_config.pb')}: SDKs com runtime`);

    const xml = new Map<string, PbXmlNode>();
    const messages = new Map<string, object>([[MANIFEST_PATH, manifest]]);
    if (table) messages.set(RESOURCES_PB, table);
    if (assets) messages.set(ASSETS_PB, assets);
    if (native) messages.set(NATIVE_PB, native);
    for (const path of protoXmlPaths(table)) {
      const e = entries.get(path);
      if (!e) continue;
      try {
        const node = decodeXml(await read(e));
        xml.set(path, node);
        messages.set(path, node);
      } catch (err) {
        if (isConverterError(err)) throw err; // zip-level failures; a bad proto is reported by the validators
      }
    }
    for (const [p, e] of entries) files.push({ path: at(p), read: () => read(e), message: messages.get(p) });

    const own = new Map([...entries].filter(([p]) => p !== MANIFEST_PATH && p !== RESOURCES_PB && p !== ASSETS_PB && p !== NATIVE_PB));
    const kind: ModuleKind = name === BASE_MODULE ? 'base' : isAssetPackManifest(manifest, DIST_NS) ? 'asset-pack' : 'feature';
    modules.set(name, {
      name,
      kind,
      manifest,
      table,
      assets,
      native,
      files: own,
      fusing: fusingOf(manifest),
      delivery: name === BASE_MODULE ? 'install-time' : deliveryOf(manifest),
      alwaysInstalled: alwaysInstalledOf(manifest, kind === 'asset-pack'),
      xml,
    });
  }
  files.push({ path: BUNDLE_CONFIG, read: async () => configBytes, message: config });

  const problems = await runValidators({ files, zipNames: reader.entries.map((e) => e.rawName) });
  if (problems.length > 0) throw new ConverterError('INVALID_AAB', problemsDetail(problems));

  const ordered = javaHashOrder([...modules.keys()]).map((n) => modules.get(n) as BundleModule);
  const base = modules.get(BASE_MODULE) as BundleModule;
  const packageName = stringValue(attrByName(base.manifest.element, 'package'));
  if (!packageName) throw new ConverterError('INVALID_AAB', 'o manifesto do módulo base não tem o atributo package');
  return {
    path,
    reader,
    sizeBytes: reader.fileSize,
    config,
    version,
    optimizations: mergeOptimizations(config, version),
    modules: ordered,
    base,
    metadata,
  };
}

/** Module paths of the files the table references as PROTO_XML. */
export function protoXmlPaths(table: PbResourceTable | undefined): Set<string> {
  const out = new Set<string>();
  for (const p of table?.package ?? []) {
    for (const t of p.type ?? []) {
      for (const e of t.entry ?? []) {
        for (const cv of e.config_value ?? []) {
          const f = cv.value?.item?.file;
          if (f?.path && f.type === 3) out.add(f.path);
        }
      }
    }
  }
  return out;
}

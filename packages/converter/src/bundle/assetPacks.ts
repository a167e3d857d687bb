/**
 * Asset packs (Play Asset Delivery): a module of `assets/` only, with a manifest that says
 * `<dist:module dist:type="asset-pack">` and how Play delivers it. They come from three places:
 * asset-pack splits of a split set (their manifest kept), OBB expansion files (one pack per file,
 * the file stored as `assets/<its name>`), and base assets the user moves out by glob.
 */
import { ConverterError } from '../errors.js';
import { compilePathGlob, MatchBudget, type PathGlob } from '../glob/pathGlob.js';
import type { ObbInput } from '../input/open.js';
import { encodeAapt, type PbXmlAttribute, type PbXmlElement, type PbXmlNode } from '../proto/aapt.js';
import { xmlToProtoNode } from '../resources/index.js';
import type { ModuleParts } from '../splits/classify.js';
import { METHOD_STORED } from '../zip/index.js';
import { ANDROID_NS, DIST_NS, MANIFEST_PATH, MODULE_NAME } from './layout.js';
import type { AssetCopy, PlannedFile } from './module.js';

const VERSION_CODE = 0x0101021b;
const IS_FEATURE_SPLIT = 0x0101055b;

export const ASSET_DELIVERIES = ['install-time', 'fast-follow', 'on-demand'] as const;
export type AssetDelivery = (typeof ASSET_DELIVERIES)[number];

/** Moves the base's assets matching `glob` into the asset pack `name`. */
export interface AssetPackRule {
  name: string;
  /** bundletool glob syntax: `*` within a segment, `**` across; relative to `assets/` unless it starts with it. */
  glob: string;
  delivery?: AssetDelivery;
}

export interface AssetPackPlan {
  name: string;
  delivery: AssetDelivery | 'as-declared';
  files: PlannedFile[];
  assetPaths: string[];
  storedPaths: string[];
  /** Where the pack's content came from: `split`, `obb` or `glob`. */
  origin: 'split' | 'obb' | 'glob';
}

/** A rule's glob compiled (INVALID_OPTIONS, in pt-BR, when it is too long or not bundletool syntax). */
export function assetPackGlob(rule: AssetPackRule): PathGlob {
  const glob = rule.glob.startsWith('assets/') ? rule.glob.slice('assets/'.length) : rule.glob.replace(/^\/+/, '');
  return compilePathGlob(glob, { what: `padrão do pacote de assets "${rule.name}"`, prefix: 'assets/' });
}

/**
 * Which pack (if any) a base asset goes to: the first rule whose glob matches (globs are
 * relative to `assets/` unless they start with it). Matching is linear in the path
 * (glob/pathGlob.ts) and every match of the conversion draws from one budget; each path is
 * matched once however often it is asked about.
 */
export function assetPackOf(rules: readonly AssetPackRule[], budget = new MatchBudget()): (path: string) => string | undefined {
  const compiled = rules.map((r) => ({ name: r.name, glob: assetPackGlob(r) }));
  const known = new Map<string, string | undefined>();
  return (path) => {
    if (compiled.length === 0) return undefined;
    if (known.has(path)) return known.get(path);
    const name = compiled.find((c) => c.glob.matches(path, budget))?.name;
    known.set(path, name);
    return name;
  };
}

function distAttr(name: string, value: string, bool?: boolean): PbXmlAttribute {
  return { namespace_uri: DIST_NS, name, value, ...(bool !== undefined ? { compiled_item: { prim: { boolean_value: bool } } } : {}) };
}

function distElement(name: string, attribute: PbXmlAttribute[] = [], child: PbXmlElement[] = []): PbXmlNode {
  return { element: { namespace_uri: DIST_NS, name, attribute, child: child.map((element) => ({ element })) } };
}

/** The manifest AGP writes for an asset pack: package, split = pack name, <dist:module type="asset-pack">. */
export function assetPackManifest(packageName: string, name: string, delivery: AssetDelivery): PbXmlNode {
  const deliveryEl = distElement('delivery', [], [distElement(delivery).element!]);
  const module = distElement('module', [distAttr('type', 'asset-pack')], [distElement('fusing', [distAttr('include', 'true', true)]).element!, deliveryEl.element!]);
  return {
    element: {
      namespace_declaration: [
        { prefix: 'android', uri: ANDROID_NS },
        { prefix: 'dist', uri: DIST_NS },
      ],
      name: 'manifest',
      attribute: [
        { name: 'package', value: packageName },
        { name: 'split', value: name },
      ],
      child: [module],
    },
  };
}

export function checkPackName(name: string, taken: ReadonlySet<string>): void {
  if (!MODULE_NAME.test(name)) throw new ConverterError('INVALID_OPTIONS', `nome de pacote de assets inválido "${name}": use letras, números e _, começando por letra`);
  if (taken.has(name)) throw new ConverterError('INVALID_OPTIONS', `o nome "${name}" já é de outro módulo do bundle`);
}

function manifestFile(name: string, node: PbXmlNode): PlannedFile {
  return { path: `${name}/${MANIFEST_PATH}`, data: encodeAapt('XmlNode', node), message: node };
}

/** An asset-pack split of a split set, back to its module: its manifest, its assets. */
export function planSplitAssetPack(m: ModuleParts): AssetPackPlan {
  const node = xmlToProtoNode(m.master.doc);
  // bundletool stamps versionCode and isFeatureSplit on the split it builds; an asset pack's own
  // manifest must not carry a versionCode (AndroidManifestValidator), and never had either.
  const root = node.element!;
  root.attribute = (root.attribute ?? []).filter((a) => a.resource_id !== VERSION_CODE && a.resource_id !== IS_FEATURE_SPLIT);
  const files: PlannedFile[] = [manifestFile(m.name, node)];
  const assetPaths: string[] = [];
  const storedPaths: string[] = [];
  const seen = new Set<string>();
  for (const p of [m.master, ...m.configs]) {
    for (const [path, entry] of p.routed.copies) {
      if (!path.startsWith('assets/') || seen.has(path)) continue;
      seen.add(path);
      files.push({ path: `${m.name}/${path}`, source: entry, reader: p.part.reader });
      assetPaths.push(path);
      if (entry.method === METHOD_STORED) storedPaths.push(path);
    }
  }
  return { name: m.name, delivery: 'as-declared', files, assetPaths, storedPaths, origin: 'split' };
}

/** A pack made here: the given assets (moved from the base) and OBB files, under `assets/`. */
export function planGeneratedPack(
  packageName: string,
  name: string,
  delivery: AssetDelivery,
  assets: readonly AssetCopy[],
  obbs: readonly ObbInput[],
  origin: 'obb' | 'glob',
): AssetPackPlan {
  const files: PlannedFile[] = [manifestFile(name, assetPackManifest(packageName, name, delivery))];
  const assetPaths: string[] = [];
  const storedPaths: string[] = [];
  for (const a of assets) {
    files.push({ path: `${name}/${a.path}`, source: a.entry, reader: a.reader });
    assetPaths.push(a.path);
    if (a.entry.method === METHOD_STORED) storedPaths.push(a.path);
  }
  for (const o of obbs) {
    const path = `assets/${o.name}`;
    // Stored, so the app can still open it by file descriptor (AssetManager.openFd).
    files.push('path' in o.source ? { path: `${name}/${path}`, file: { path: o.source.path, size: o.size } } : { path: `${name}/${path}`, source: o.source.entry, reader: o.source.reader });
    assetPaths.push(path);
    storedPaths.push(path);
  }
  return { name, delivery, files, assetPaths, storedPaths, origin };
}

/** `main.<versionCode>.<package>.obb` / `patch...`: the kind, or undefined for another name. */
export function obbKind(name: string): { kind: 'main' | 'patch'; versionCode: number; packageName: string } | undefined {
  const m = /^(main|patch)\.(\d+)\.(.+)\.obb$/i.exec(name);
  return m ? { kind: m[1].toLowerCase() as 'main' | 'patch', versionCode: Number(m[2]), packageName: m[3] } : undefined;
}

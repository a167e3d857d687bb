import type { ZipEntry, ZipReader } from '../zip/index.js';
import { METHOD_STORED } from '../zip/index.js';
import { contiguousDex, dexFileName, routeEntry, type DropReason } from './mapping.js';

/** The APK's entries sorted by where they go (first pass, names only). */
export interface RoutedEntries {
  manifest?: ZipEntry;
  resourceTable?: ZipEntry;
  /** Contiguous dex files by index (1 = classes.dex). */
  dex: Map<number, ZipEntry>;
  res: Map<string, ZipEntry>;
  /** Module path → entry, for assets, native libraries and root files. */
  copies: Map<string, ZipEntry>;
  abis: Set<string>;
  assetPaths: string[];
  /** lib/<abi>/ files moved to assets/lib/<abi>/: APK name → module path (also in copies and assetPaths). */
  movedLibFiles: Map<string, string>;
  drops: Map<DropReason | 'dex-gap', string[]>;
  directories: number;
  v1Signed: boolean;
  fileCount: number;
}

export function routeEntries(reader: ZipReader, onEntry?: (done: number, total: number) => void): RoutedEntries {
  const r: RoutedEntries = {
    dex: new Map(),
    res: new Map(),
    copies: new Map(),
    abis: new Set(),
    assetPaths: [],
    movedLibFiles: new Map(),
    drops: new Map(),
    directories: 0,
    v1Signed: false,
    fileCount: 0,
  };
  const drop = (reason: DropReason | 'dex-gap', name: string): void => {
    const list = r.drops.get(reason) ?? [];
    list.push(name);
    r.drops.set(reason, list);
  };
  const dexAll = new Map<number, ZipEntry>();
  const libToAsset: [string, ZipEntry][] = [];
  const total = reader.entries.length;
  reader.entries.forEach((e, i) => {
    onEntry?.(i, total);
    if (!e.isDirectory) r.fileCount++;
    const route = routeEntry(e.name, e.isDirectory);
    switch (route.kind) {
      case 'manifest':
        r.manifest = e;
        break;
      case 'resource-table':
        r.resourceTable = e;
        break;
      case 'dex':
        dexAll.set(route.index, e);
        break;
      case 'res':
        r.res.set(route.path, e);
        break;
      case 'asset':
        r.assetPaths.push(route.path);
        r.copies.set(route.path, e);
        break;
      case 'native-lib':
        r.abis.add(route.abi);
        r.copies.set(route.path, e);
        break;
      case 'root':
        r.copies.set(route.path, e);
        break;
      case 'lib-to-asset':
        libToAsset.push([route.path, e]);
        break;
      case 'drop':
        if (route.reason === 'directory') r.directories++;
        else drop(route.reason, e.name);
        if (route.reason === 'signature' && /\.SF$/i.test(e.name)) r.v1Signed = true;
        break;
    }
  });
  // After every entry is routed, so an APK asset of the same name is known wherever it sits in the zip.
  for (const [path, e] of libToAsset) {
    if (r.copies.has(path)) {
      drop('lib-unrepresentable', e.name);
      continue;
    }
    r.assetPaths.push(path);
    r.copies.set(path, e);
    r.movedLibFiles.set(e.name, path);
  }
  const { kept, dropped } = contiguousDex([...dexAll.keys()]);
  for (const i of kept) r.dex.set(i, dexAll.get(i)!);
  for (const i of dropped) drop('dex-gap', dexAll.get(i)!.name);
  return r;
}

/** How the APK stored a group of entries: what BundleConfig must preserve. */
export function storage(entries: Iterable<ZipEntry>): 'none' | 'all-stored' | 'some-deflated' {
  let any = false;
  for (const e of entries) {
    any = true;
    if (e.method !== METHOD_STORED) return 'some-deflated';
  }
  return any ? 'all-stored' : 'none';
}

/** The entries always copied raw (dex, assets, native libraries, root files), in bundle path order. */
export function rawCopyOrder(r: RoutedEntries): ZipEntry[] {
  const byPath: [string, ZipEntry][] = [...r.dex].map(([i, e]) => [`dex/${dexFileName(i)}`, e]);
  for (const [path, e] of r.copies) byPath.push([path, e]);
  byPath.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return byPath.map(([, e]) => e);
}

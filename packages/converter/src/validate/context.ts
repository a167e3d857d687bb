import { AaptPb, type PbResourceTable, type PbXmlNode } from '../proto/aapt.js';
import { decodeMessage, type AssetsMsg, type BundleConfigMsg, type NativeLibrariesMsg } from '../proto/bundle.js';
import { ASSETS_PB, BUNDLE_CONFIG, MANIFEST_PATH, NATIVE_PB, NON_MODULE_DIRECTORIES, RESOURCES_PB } from '../bundle/layout.js';
import { tableViewOf, type TableView } from './table.js';
import type { BundleContext, BundleFile, BundleView, Decoded, ModuleContext } from './types.js';

function memo<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}

async function decodeFile<T>(file: BundleFile | undefined, decode: (b: Uint8Array) => T): Promise<Decoded<T> | undefined> {
  if (!file) return undefined;
  if (file.message !== undefined) return { value: file.message as T };
  try {
    return { value: decode(await file.read()) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const decodeTable = (b: Uint8Array): PbResourceTable =>
  AaptPb.ResourceTable.toObject(AaptPb.ResourceTable.decode(b), { longs: Number, enums: Number }) as PbResourceTable;

/** The view the validators read of a module's table: the writer's, else from its message or its bytes. */
async function tableView(file: BundleFile | undefined): Promise<Decoded<TableView> | undefined> {
  if (file?.tableView) return { value: file.tableView };
  const d = await decodeFile(file, decodeTable);
  if (!d) return undefined;
  return d.error !== undefined ? { error: d.error } : { value: tableViewOf(d.value ?? { package: [] }) };
}
const decodeXml = (b: Uint8Array): PbXmlNode => AaptPb.XmlNode.toObject(AaptPb.XmlNode.decode(b), { longs: Number, enums: Number }) as PbXmlNode;

function moduleContext(name: string, files: Map<string, BundleFile>): ModuleContext {
  const xmlCache = new Map<string, Promise<Decoded<boolean> | undefined>>();
  return {
    name,
    files,
    manifest: memo(() => decodeFile(files.get(MANIFEST_PATH), decodeXml)),
    resourceTable: memo(() => tableView(files.get(RESOURCES_PB))),
    nativeConfig: memo(() => decodeFile(files.get(NATIVE_PB), (b) => decodeMessage<NativeLibrariesMsg>('NativeLibraries', b))),
    assetsConfig: memo(() => decodeFile(files.get(ASSETS_PB), (b) => decodeMessage<AssetsMsg>('Assets', b))),
    xmlHasRoot(path) {
      let p = xmlCache.get(path);
      if (!p) {
        const file = files.get(path);
        p =
          file?.xmlHasRoot !== undefined
            ? Promise.resolve({ value: file.xmlHasRoot })
            : decodeFile(file, decodeXml).then((d) => d && (d.error !== undefined ? { error: d.error } : { value: Boolean(d.value?.element) }));
        xmlCache.set(path, p);
      }
      return p;
    },
  };
}

/** Splits the bundle into modules (every top-level directory but META-INF and BUNDLE-METADATA). */
export function bundleContext(view: BundleView): BundleContext {
  const grouped = new Map<string, Map<string, BundleFile>>();
  let config: BundleFile | undefined;
  for (const f of view.files) {
    if (f.path === BUNDLE_CONFIG) config = f;
    const slash = f.path.indexOf('/');
    if (slash <= 0) continue;
    const top = f.path.slice(0, slash);
    if (NON_MODULE_DIRECTORIES.has(top)) continue;
    let m = grouped.get(top);
    if (!m) grouped.set(top, (m = new Map()));
    m.set(f.path.slice(slash + 1), f);
  }
  const modules = new Map<string, ModuleContext>();
  for (const [name, files] of [...grouped].sort((a, b) => (a[0] < b[0] ? -1 : 1))) modules.set(name, moduleContext(name, files));
  return {
    view,
    modules,
    bundleConfig: memo(() => decodeFile(config, (b) => decodeMessage<BundleConfigMsg>('BundleConfig', b))),
  };
}

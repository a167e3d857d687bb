import type { PbXmlNode } from '../proto/aapt.js';
import type { AssetsMsg, BundleConfigMsg, NativeLibrariesMsg } from '../proto/bundle.js';
import type { TableView } from './table.js';

/** One broken rule of the AAB format (docs/aab-format.md, the "Validation" sections). Messages follow bundletool's wording. */
export interface BundleProblem {
  rule: string;
  message: string;
  path?: string;
}

/** A file of a bundle, read on demand (raw copies are never read by the validators). */
export interface BundleFile {
  readonly path: string;
  read(): Promise<Uint8Array>;
  /**
   * The proto message the bytes encode, as plain objects, when the caller holds it (the
   * converter's plan): validators read it instead of decoding `read()` again.
   */
  readonly message?: object;
  /**
   * For a proto XML file its writer made from a parsed document (the converter's res/ files),
   * in place of `message`: whether it has a root element, all the validators check of such a
   * file beyond its bytes being an XmlNode, which they then are by construction.
   */
  readonly xmlHasRoot?: boolean;
  /**
   * For a resource table its writer wrote straight from the binary table (the converter's), in
   * place of `message`: what the validators read of it (validate/table.ts).
   */
  readonly tableView?: TableView;
}

/** The bundle as validators see it: its files, and the names exactly as the zip stores them. */
export interface BundleView {
  readonly files: readonly BundleFile[];
  /** Raw zip names including directory entries; defaults to the file paths. */
  readonly zipNames?: readonly string[];
}

/** A decoded proto, or why it did not decode. */
export interface Decoded<T> {
  value?: T;
  error?: string;
}

export interface ModuleContext {
  readonly name: string;
  /** Module-relative path → file. */
  readonly files: ReadonlyMap<string, BundleFile>;
  manifest(): Promise<Decoded<PbXmlNode> | undefined>;
  resourceTable(): Promise<Decoded<TableView> | undefined>;
  nativeConfig(): Promise<Decoded<NativeLibrariesMsg> | undefined>;
  assetsConfig(): Promise<Decoded<AssetsMsg> | undefined>;
  /** Whether the proto XML file at `path` has a root element (or why it does not decode); undefined without the file. */
  xmlHasRoot(path: string): Promise<Decoded<boolean> | undefined>;
}

export interface BundleContext {
  readonly view: BundleView;
  readonly modules: ReadonlyMap<string, ModuleContext>;
  bundleConfig(): Promise<Decoded<BundleConfigMsg> | undefined>;
}

export interface EntryValidator {
  readonly kind: 'entry';
  readonly rule: string;
  /** Called with every raw zip name; returns the problem message, if any. */
  check(name: string): string | undefined;
}

export interface ModuleValidator {
  readonly kind: 'module';
  readonly rule: string;
  check(module: ModuleContext, bundle: BundleContext): Promise<BundleProblem[]>;
}

export interface BundleValidator {
  readonly kind: 'bundle';
  readonly rule: string;
  check(bundle: BundleContext): Promise<BundleProblem[]>;
}

export type Validator = EntryValidator | ModuleValidator | BundleValidator;

export function problem(rule: string, message: string, path?: string): BundleProblem {
  return path === undefined ? { rule, message } : { rule, message, path };
}

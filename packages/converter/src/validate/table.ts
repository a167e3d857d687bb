import type { PbConfiguration, PbItem, PbReference, PbResourceTable, PbValue } from '../proto/aapt.js';

/**
 * What the validators read of a module's resource table: its packages, types and entries with
 * their ids and names, and of each value its configuration and the facts the rules check. Built
 * from the table's message (tableViewOf: a bundle read from disk, or a table the converter held
 * as a message), or by the converter as it writes the table's bytes (resources/tableBytes.ts),
 * which then makes no message at all.
 */
export interface TableView {
  /** Overlayable declarations in the table. */
  readonly overlayableCount: number;
  readonly packages: readonly PackageView[];
}

/**
 * Ids are undefined where the message has no id message at all (0 when it has one without an
 * id); names undefined where it has none.
 */
export interface PackageView {
  readonly id: number | undefined;
  readonly name: string | undefined;
  readonly types: readonly TypeView[];
}

export interface TypeView {
  readonly id: number | undefined;
  readonly name: string | undefined;
  readonly entries: readonly EntryView[];
}

export interface EntryView {
  readonly id: number | undefined;
  readonly name: string | undefined;
  readonly overlayable?: { readonly index: number; readonly policies: readonly number[] };
  readonly values: readonly ValueView[];
}

export interface ValueView {
  readonly config: PbConfiguration;
  /** The value's item is a file reference (path set), of this FileReference type (0 when unset). */
  readonly file?: { readonly path: string; readonly type: number };
  /** Why aapt2 would fail on the value (valueProblem), if it would. */
  readonly problem?: string;
  /** Its references the aapt2 rules may refuse: named ones, and keys, parents and symbols without an id. */
  readonly references: readonly ReferenceView[];
}

export type ReferenceRole = 'reference' | 'style parent' | 'style key' | 'attribute symbol';

export interface ReferenceView {
  readonly name: string;
  readonly hasId: boolean;
  readonly role: ReferenceRole;
}

export const NO_REFERENCES: readonly ReferenceView[] = [];

/** Whether a reference is one the aapt2 rules look at (the others cannot break them). */
export function isNotableReference(name: string, hasId: boolean, role: ReferenceRole): boolean {
  return name !== '' || (role !== 'reference' && !hasId);
}

/** The references of a value the aapt2 rules look at, in the value's order. */
function notableReferences(v: PbValue | undefined): readonly ReferenceView[] {
  const c = v?.compound_value;
  if (!v?.item?.ref && !c) return NO_REFERENCES;
  let out: ReferenceView[] | undefined;
  const add = (ref: PbReference, role: ReferenceRole): void => {
    const name = ref.name ?? '';
    const hasId = Boolean(ref.id);
    if (isNotableReference(name, hasId, role)) (out ??= []).push({ name, hasId, role });
  };
  if (v?.item?.ref) add(v.item.ref, 'reference');
  if (c?.style?.parent) add(c.style.parent, 'style parent');
  for (const e of c?.style?.entry ?? []) {
    if (e.key) add(e.key, 'style key');
    if (e.item?.ref) add(e.item.ref, 'reference');
  }
  for (const s of c?.attr?.symbol ?? []) if (s.name) add(s.name, 'attribute symbol');
  for (const e of c?.array?.element ?? []) if (e.item?.ref) add(e.item.ref, 'reference');
  for (const e of c?.plural?.entry ?? []) if (e.item?.ref) add(e.item.ref, 'reference');
  return out ?? NO_REFERENCES;
}

const ITEM_KINDS = ['ref', 'str', 'raw_str', 'styled_str', 'file', 'id', 'prim'] as const;
const COMPOUND_KINDS = ['attr', 'style', 'styleable', 'array', 'plural', 'macro'] as const;

/** Whether `o` has one of `keys` set. (A loop, not `some` and a closure: this runs for every value of a table.) */
function hasAnyOf(o: object, keys: readonly string[]): boolean {
  for (let i = 0; i < keys.length; i++) if ((o as Record<string, unknown>)[keys[i]!] !== undefined) return true;
  return false;
}

function hasNoKeys(o: object): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return false;
  return true;
}

/** Why an Item would crash aapt2 ("unknown item", "Unexpected Primitive type"), if it would. */
export function itemProblem(item: PbItem | undefined): string | undefined {
  if (!item || !hasAnyOf(item, ITEM_KINDS)) return 'unknown item';
  if (item.prim && hasNoKeys(item.prim)) return 'Unexpected Primitive type';
  return undefined;
}

/** Why a Value would crash aapt2 ("unknown value", "unknown compound value: 0"), if it would. */
export function valueProblem(v: PbValue | undefined): string | undefined {
  if (!v || (v.item === undefined && v.compound_value === undefined)) return 'unknown value';
  if (v.item !== undefined) return itemProblem(v.item);
  if (!hasAnyOf(v.compound_value!, COMPOUND_KINDS)) return 'unknown compound value: 0';
  for (const e of v.compound_value?.style?.entry ?? []) {
    const why = itemProblem(e.item);
    if (why) return `${why} in style entry`;
  }
  for (const e of v.compound_value?.array?.element ?? []) {
    const why = itemProblem(e.item);
    if (why) return `${why} in array element`;
  }
  for (const e of v.compound_value?.plural?.entry ?? []) {
    const why = itemProblem(e.item);
    if (why) return `${why} in plural entry`;
  }
  return undefined;
}

/** The view of one value of a table's message. */
export function valueViewOf(config: PbConfiguration, value: PbValue | undefined): ValueView {
  const file = value?.item?.file;
  const problem = valueProblem(value);
  return {
    config,
    ...(file?.path !== undefined ? { file: { path: file.path, type: file.type ?? 0 } } : {}),
    ...(problem !== undefined ? { problem } : {}),
    references: notableReferences(value),
  };
}

/** The view of a table's message. */
export function tableViewOf(table: PbResourceTable): TableView {
  const idOf = (m: { id?: number } | undefined): number | undefined => (m ? (m.id ?? 0) : undefined);
  return {
    overlayableCount: table.overlayable?.length ?? 0,
    packages: (table.package ?? []).map((pkg) => ({
      id: idOf(pkg.package_id),
      name: pkg.package_name,
      types: (pkg.type ?? []).map((type) => ({
        id: idOf(type.type_id),
        name: type.name,
        entries: (type.entry ?? []).map((entry) => {
          const item = entry.overlayable_item;
          return {
            id: idOf(entry.entry_id),
            name: entry.name,
            ...(item ? { overlayable: { index: item.overlayable_idx ?? 0, policies: item.policy ?? [] } } : {}),
            values: (entry.config_value ?? []).map((cv) => valueViewOf(cv.config ?? {}, cv.value)),
          };
        }),
      })),
    })),
  };
}

export interface ValueSite {
  pkg: PackageView;
  type: TypeView;
  entry: EntryView;
  value: ValueView;
}

const sitesOfTable = new WeakMap<TableView, readonly ValueSite[]>();

/**
 * Every value of a table with where it is. Listed once per table: five validators walk them,
 * and a generator per walk allocated ~6 MB for a 1 MB APK's table (a third of its conversion's
 * garbage), all for the young generation's collections to go through. Their loops, and this
 * one, are indexed: before V8 optimises a loop (most run once per conversion), `for...of`
 * allocates an iterator and a result per step.
 */
export function configValues(table: TableView | undefined): readonly ValueSite[] {
  if (!table) return [];
  let sites = sitesOfTable.get(table);
  if (!sites) {
    const list: ValueSite[] = [];
    for (const pkg of table.packages) {
      for (const type of pkg.types) {
        const entries = type.entries;
        for (let e = 0; e < entries.length; e++) {
          const entry = entries[e]!;
          const values = entry.values;
          for (let v = 0; v < values.length; v++) list.push({ pkg, type, entry, value: values[v]! });
        }
      }
    }
    sites = list;
    sitesOfTable.set(table, sites);
  }
  return sites;
}

export function resourceId(pkg: PackageView, type: TypeView, entry: EntryView): number {
  return (((pkg.id ?? 0) << 24) | ((type.id ?? 0) << 16) | (entry.id ?? 0)) >>> 0;
}

export function hexId(id: number): string {
  return `0x${id.toString(16).padStart(8, '0')}`;
}

/** Names of a resource for messages: "type/entry (0x7f010000)". */
export function describe(pkg: PackageView, type: TypeView, entry: EntryView): string {
  return `${type.name ?? '?'}/${entry.name ?? '?'} (${hexId(resourceId(pkg, type, entry))})`;
}

/** Resource type names aapt2 parses (ResourceType); anything else fails "unknown type". */
export const AAPT2_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'anim', 'animator', 'array', 'attr', '^attr-private', 'bool', 'color', 'configVarying', 'dimen', 'drawable', 'font',
  'fraction', 'id', 'integer', 'interpolator', 'layout', 'macro', 'menu', 'mipmap', 'navigation', 'plurals', 'raw',
  'string', 'style', 'styleable', 'transition', 'xml',
]);

export const FILE_TYPE = { UNKNOWN: 0, PNG: 1, BINARY_XML: 2, PROTO_XML: 3 } as const;

import { type Overlayable, type ResEntry, type ResPackage, type ResourceTable } from '../arsc/model.js';
import { EntryFlag, PolicyFlag, SPEC_PUBLIC, SPEC_STAGED_API, entryIdOf, packageIdOf, typeIdOf } from '../arsc/values.js';
import { type PbConfiguration, type PbEntry, type PbResourceTable, type PbValue } from '../proto/aapt.js';
import { mapEntryToValue } from './compoundProto.js';
import { configProtoKey, configToProto } from './configProto.js';
import { FileType, resValueToItem, type ConversionWarning, type ValueContext } from './valueProto.js';

/** Resource type names aapt2 (and bundletool's aapt2) accepts (ResourceType parsing). */
export const AAPT2_TYPE_NAMES: ReadonlySet<string> = new Set([
  'anim', 'animator', 'array', 'attr', '^attr-private', 'bool', 'color', 'configVarying', 'dimen',
  'drawable', 'font', 'fraction', 'id', 'integer', 'interpolator', 'layout', 'macro', 'menu',
  'mipmap', 'navigation', 'plurals', 'raw', 'string', 'style', 'styleable', 'transition', 'xml',
]);

export interface TableProtoContext {
  /** res/ paths whose files are converted to proto XML: their FileReferences become PROTO_XML. */
  readonly xmlFilePaths: ReadonlySet<string>;
  /** Where to report what could not be carried over as is (pt-BR messages). */
  readonly warnings?: ConversionWarning[];
}

/** Overlayable policy bits → aapt.pb policies, in the order aapt2 writes them. */
const POLICY_ORDER: readonly [number, number][] = [
  [PolicyFlag.PUBLIC, 1],
  [PolicyFlag.PRODUCT_PARTITION, 4],
  [PolicyFlag.SYSTEM_PARTITION, 2],
  [PolicyFlag.VENDOR_PARTITION, 3],
  [PolicyFlag.SIGNATURE, 5],
  [PolicyFlag.ODM_PARTITION, 6],
  [PolicyFlag.OEM_PARTITION, 7],
  [PolicyFlag.ACTOR_SIGNATURE, 8],
  [PolicyFlag.CONFIG_SIGNATURE, 9],
];

/** One value of an entry in one configuration, as a table's builder keeps it (a message, or where its bytes are). */
export interface ConfigSlot<V> {
  readonly config: PbConfiguration;
  /** The Configuration's encoded bytes, as latin1 text: equal exactly when the configurations are. */
  readonly configKey: string;
  readonly value: V;
}

export interface EntryBuild<V> {
  readonly index: number;
  readonly name: string;
  isPublic: boolean;
  stagedApi: boolean;
  stagedId?: number;
  overlayable?: { overlayable: Overlayable; flags: number };
  /** Index of its Overlayable in the table's list (set once the table is ordered). */
  overlayableIndex?: number;
  /** Config values keyed by their serialized Configuration: a repeated config replaces the value. */
  readonly values: Map<string, ConfigSlot<V>>;
}

interface TypeBuild<V> {
  readonly id: number;
  readonly name: string;
  readonly entries: Map<number, EntryBuild<V>>;
}

/** A table as aapt2 writes it: packages, types and entries in order, the entries with values only. */
export interface OrderedTable<V> {
  readonly packages: readonly { readonly id: number; readonly name: string; readonly types: readonly { readonly id: number; readonly name: string; readonly entries: readonly EntryBuild<V>[] }[] }[];
  readonly overlayables: readonly Overlayable[];
  /** Shared library packages: [package id, name], by id. */
  readonly libraries: readonly [number, string][];
}

/**
 * What a builder keeps of an entry's value, made in the table's order (its warnings then come in
 * that order); undefined for a compound value aapt2 refuses in that type (warned by the caller).
 */
export type MakeValue<V> = (typeName: string, entry: ResEntry) => V | undefined;

/** The value context of a table's conversion: its pool, the converted XML files, the warnings. */
export function tableValueContext(table: ResourceTable, ctx: TableProtoContext): ValueContext {
  return {
    pool: table.valuePool,
    fileType: (path, inferred) => {
      if (ctx.xmlFilePaths.has(path)) return FileType.PROTO_XML;
      // A BINARY_XML reference to a file that is not converted stays raw bytes: UNKNOWN.
      return inferred === FileType.BINARY_XML ? FileType.UNKNOWN : inferred;
    },
    warn: (w) => {
      ctx.warnings?.push(w);
    },
  };
}

/**
 * The table's packages, types and entries in the order aapt2 writes them, each value made by
 * `makeValue` as it is met (resources.arsc's chunk order): what buildResourceTableProto turns
 * into messages and writeResourceTable (tableBytes.ts) into bytes.
 */
export function orderTable<V>(table: ResourceTable, warn: (w: ConversionWarning) => void, makeValue: MakeValue<V>): OrderedTable<V> {
  const libraries = new Map<number, string>();
  for (const p of table.packages) for (const l of p.libraries) libraries.set(l.packageId & 0xff, l.packageName);
  const overlayables: Overlayable[] = [];
  const packages = [...table.packages]
    .sort((a, b) => a.id - b.id)
    .map((p) => {
      const types = collectTypes(p, warn, makeValue);
      applyStagedAliases(p, types, warn);
      applyOverlayables(p, types, warn);
      return {
        id: p.id,
        name: p.name,
        types: [...types.values()]
          .sort((a, b) => a.id - b.id)
          .map((t) => ({
            id: t.id,
            name: t.name,
            entries: [...t.entries.values()].filter((e) => e.values.size > 0).sort((a, b) => a.index - b.index),
          })),
      };
    });
  for (const p of packages) {
    for (const t of p.types) {
      for (const e of t.entries) {
        if (!e.overlayable) continue;
        let idx = overlayables.indexOf(e.overlayable.overlayable);
        if (idx < 0) idx = overlayables.push(e.overlayable.overlayable) - 1;
        e.overlayableIndex = idx;
      }
    }
  }
  return { packages, overlayables, libraries: [...libraries.entries()].sort((a, b) => a[0] - b[0]) };
}

/** The aapt.pb.ResourceTable as plain objects (resourceTableToProto writes their bytes straight from the table). */
export function buildResourceTableProto(table: ResourceTable, ctx: TableProtoContext): PbResourceTable {
  const valueCtx = tableValueContext(table, ctx);
  const ordered = orderTable<PbValue>(table, valueCtx.warn, (typeName, e) => valueMessage(typeName, e, valueCtx));
  const out: PbResourceTable = {
    package: ordered.packages.map((p) => ({
      package_id: p.id !== 0 ? { id: p.id } : {},
      ...(p.name !== '' ? { package_name: p.name } : {}),
      type: p.types.map((t) => ({ type_id: { id: t.id }, ...(t.name !== '' ? { name: t.name } : {}), entry: t.entries.map(buildEntry) })),
    })),
  };
  if (ordered.overlayables.length > 0) {
    out.overlayable = ordered.overlayables.map((o) => ({
      ...(o.name !== '' ? { name: o.name } : {}),
      ...(o.actor !== '' ? { actor: o.actor } : {}),
    }));
  }
  if (ordered.libraries.length > 0) {
    out.dynamic_ref_table = ordered.libraries.map(([id, name]) => ({ package_id: id !== 0 ? { id } : {}, ...(name !== '' ? { package_name: name } : {}) }));
  }
  return out;
}

/** An entry's aapt.pb.Value; undefined for a compound value aapt2 refuses in this type. */
export function valueMessage(typeName: string, e: ResEntry, ctx: ValueContext): PbValue | undefined {
  const value = e.value.kind === 'simple' ? { item: resValueToItem(typeName, e.value.value, ctx) } : mapEntryToValue(typeName, e.flags, e.value.parent, e.value.items, ctx);
  if (!value) return undefined;
  // Weak as the entry says (aapt2 convert would mark every Id weak): the round trip then
  // flattens the same FLAG_WEAK the APK had.
  if (e.flags & EntryFlag.WEAK) value.weak = true;
  else delete value.weak;
  return value;
}

/** An entry's overlayable policies as aapt.pb policies, in the order aapt2 writes them. */
export function overlayablePolicies(flags: number): number[] {
  return POLICY_ORDER.filter(([bit]) => (flags & bit) !== 0).map(([, pb]) => pb);
}

function buildEntry(e: EntryBuild<PbValue>): PbEntry {
  const visibility: PbEntry['visibility'] = {};
  if (e.isPublic) visibility.level = 2;
  if (e.stagedApi) visibility.staged_api = true;
  const entry: PbEntry = {
    entry_id: e.index !== 0 ? { id: e.index } : {},
    ...(e.name !== '' ? { name: e.name } : {}),
    visibility,
    config_value: [...e.values.values()].map((v) => ({ config: v.config, value: v.value })),
  };
  if (e.overlayable) {
    const policy = overlayablePolicies(e.overlayable.flags);
    const idx = e.overlayableIndex ?? 0;
    entry.overlayable_item = { ...(policy.length > 0 ? { policy } : {}), ...(idx !== 0 ? { overlayable_idx: idx } : {}) };
  }
  if (e.stagedId !== undefined) entry.staged_id = e.stagedId !== 0 ? { staged_id: e.stagedId } : {};
  return entry;
}

function collectTypes<V>(p: ResPackage, warn: (w: ConversionWarning) => void, makeValue: MakeValue<V>): Map<number, TypeBuild<V>> {
  const specFlags = new Map<number, readonly number[]>();
  for (const s of p.typeSpecs) specFlags.set(s.id, s.flags);
  const types = new Map<number, TypeBuild<V>>();
  const skipped = new Set<string>();
  for (const chunk of p.types) {
    if (!AAPT2_TYPE_NAMES.has(chunk.name)) {
      if (!skipped.has(chunk.name)) {
        skipped.add(chunk.name);
        warn({
          code: 'UNKNOWN_RESOURCE_TYPE',
          message: `O tipo de recurso "${chunk.name}" (id ${chunk.id}) não é reconhecido pelo aapt2 e foi omitido.`,
        });
      }
      continue;
    }
    let t = types.get(chunk.id);
    if (!t) {
      t = { id: chunk.id, name: chunk.name, entries: new Map() };
      types.set(chunk.id, t);
    }
    const config = configToProto(chunk.config);
    const configKey = configProtoKey(config);
    const flags = specFlags.get(chunk.id);
    const entries = chunk.entries;
    // Indexed: this runs once per conversion, mostly before V8 optimises it, where `for...of` allocates per step.
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      const value = makeValue(chunk.name, e);
      if (value === undefined) {
        warn({
          code: 'ILLEGAL_MAP_ENTRY',
          message: `O recurso ${chunk.name}/${e.name} tem um valor composto que o aapt2 não aceita nesse tipo e foi omitido.`,
        });
        continue;
      }
      let entry = t.entries.get(e.index);
      if (!entry) {
        entry = { index: e.index, name: e.name, isPublic: false, stagedApi: false, values: new Map() };
        t.entries.set(e.index, entry);
      }
      const spec = flags?.[e.index] ?? 0;
      if ((e.flags & EntryFlag.PUBLIC) !== 0 || (spec & SPEC_PUBLIC) !== 0) {
        entry.isPublic = true;
        if ((spec & SPEC_STAGED_API) !== 0) entry.stagedApi = true;
      }
      entry.values.delete(configKey); // a repeated configuration: the last value wins, as aapt2
      entry.values.set(configKey, { config, configKey, value });
    }
  }
  return types;
}

function findEntry<V>(p: ResPackage, types: Map<number, TypeBuild<V>>, resId: number): EntryBuild<V> | undefined {
  if (packageIdOf(resId) !== p.id) return undefined;
  return types.get(typeIdOf(resId))?.entries.get(entryIdOf(resId));
}

function applyStagedAliases<V>(p: ResPackage, types: Map<number, TypeBuild<V>>, warn: (w: ConversionWarning) => void): void {
  for (const alias of p.stagedAliases) {
    const finalized = findEntry(p, types, alias.finalizedId);
    if (!finalized) {
      warn({
        code: 'STAGED_ALIAS_UNMATCHED',
        message: `Um alias de recurso em estágio (0x${alias.finalizedId.toString(16)}) não corresponde a nenhum recurso e foi ignorado.`,
      });
      continue;
    }
    finalized.stagedId = alias.stagedId >>> 0;
    // The table also carries a clone of the finalized entry under the staged id: drop it.
    const clone = findEntry(p, types, alias.stagedId);
    if (clone && clone.name === finalized.name) types.get(typeIdOf(alias.stagedId))?.entries.delete(entryIdOf(alias.stagedId));
  }
}

function applyOverlayables<V>(p: ResPackage, types: Map<number, TypeBuild<V>>, warn: (w: ConversionWarning) => void): void {
  for (const o of p.overlayables) {
    for (const policy of o.policies) {
      for (const id of policy.resourceIds) {
        const entry = findEntry(p, types, id);
        if (!entry || entry.values.size === 0) {
          warn({
            code: 'OVERLAYABLE_UNMATCHED',
            message: `Um recurso sobreponível (0x${(id >>> 0).toString(16)}) não existe na tabela e foi ignorado.`,
          });
          continue;
        }
        entry.overlayable = { overlayable: o, flags: policy.flags };
      }
    }
  }
}

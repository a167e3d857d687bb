import { type Overlayable, type ResPackage, type ResourceTable } from '../arsc/model.js';
import { EntryFlag, PolicyFlag, SPEC_PUBLIC, SPEC_STAGED_API, entryIdOf, packageIdOf, typeIdOf } from '../arsc/values.js';
import {
  encodeAapt,
  type PbConfigValue,
  type PbEntry,
  type PbPackage,
  type PbResourceTable,
  type PbType,
  type PbValue,
} from '../proto/aapt.js';
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

interface EntryBuild {
  readonly index: number;
  readonly name: string;
  isPublic: boolean;
  stagedApi: boolean;
  stagedId?: number;
  overlayable?: { overlayable: Overlayable; flags: number };
  /** Config values keyed by their serialized Configuration: a repeated config replaces the value. */
  readonly values: Map<string, PbConfigValue>;
}

interface TypeBuild {
  readonly id: number;
  readonly name: string;
  readonly entries: Map<number, EntryBuild>;
}

/** The aapt.pb.ResourceTable as plain objects (what resourceTableToProto encodes). */
export function buildResourceTableProto(table: ResourceTable, ctx: TableProtoContext): PbResourceTable {
  const warn = (w: ConversionWarning): void => {
    ctx.warnings?.push(w);
  };
  const valueCtx: ValueContext = {
    pool: table.valuePool,
    fileType: (path, inferred) => {
      if (ctx.xmlFilePaths.has(path)) return FileType.PROTO_XML;
      // A BINARY_XML reference to a file that is not converted stays raw bytes: UNKNOWN.
      return inferred === FileType.BINARY_XML ? FileType.UNKNOWN : inferred;
    },
    warn,
  };

  const libraries = new Map<number, string>();
  for (const p of table.packages) for (const l of p.libraries) libraries.set(l.packageId & 0xff, l.packageName);

  const overlayables: Overlayable[] = [];
  const packages = [...table.packages]
    .sort((a, b) => a.id - b.id)
    .map((p) => buildPackage(p, valueCtx, overlayables, warn));

  const out: PbResourceTable = { package: packages };
  if (overlayables.length > 0) {
    out.overlayable = overlayables.map((o) => ({
      ...(o.name !== '' ? { name: o.name } : {}),
      ...(o.actor !== '' ? { actor: o.actor } : {}),
    }));
  }
  if (libraries.size > 0) {
    out.dynamic_ref_table = [...libraries.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([id, name]) => ({ package_id: id !== 0 ? { id } : {}, ...(name !== '' ? { package_name: name } : {}) }));
  }
  return out;
}

/** aapt.pb.ResourceTable bytes for a parsed resources.arsc, as `aapt2 convert` emits them. */
export function resourceTableToProto(table: ResourceTable, ctx: TableProtoContext): Uint8Array {
  return encodeAapt('ResourceTable', buildResourceTableProto(table, ctx));
}

function buildPackage(
  p: ResPackage,
  ctx: ValueContext,
  overlayables: Overlayable[],
  warn: (w: ConversionWarning) => void,
): PbPackage {
  const types = collectTypes(p, ctx, warn);
  applyStagedAliases(p, types, warn);
  applyOverlayables(p, types, warn);

  const pbTypes: PbType[] = [...types.values()]
    .sort((a, b) => a.id - b.id)
    .map((t) => ({
      type_id: { id: t.id },
      ...(t.name !== '' ? { name: t.name } : {}),
      entry: [...t.entries.values()]
        .filter((e) => e.values.size > 0)
        .sort((a, b) => a.index - b.index)
        .map((e) => buildEntry(e, overlayables)),
    }));
  return { package_id: p.id !== 0 ? { id: p.id } : {}, ...(p.name !== '' ? { package_name: p.name } : {}), type: pbTypes };
}

function buildEntry(e: EntryBuild, overlayables: Overlayable[]): PbEntry {
  const visibility: PbEntry['visibility'] = {};
  if (e.isPublic) visibility.level = 2;
  if (e.stagedApi) visibility.staged_api = true;
  const entry: PbEntry = {
    entry_id: e.index !== 0 ? { id: e.index } : {},
    ...(e.name !== '' ? { name: e.name } : {}),
    visibility,
    config_value: [...e.values.values()],
  };
  if (e.overlayable) {
    let idx = overlayables.indexOf(e.overlayable.overlayable);
    if (idx < 0) idx = overlayables.push(e.overlayable.overlayable) - 1;
    const policy = POLICY_ORDER.filter(([bit]) => (e.overlayable!.flags & bit) !== 0).map(([, pb]) => pb);
    entry.overlayable_item = { ...(policy.length > 0 ? { policy } : {}), ...(idx !== 0 ? { overlayable_idx: idx } : {}) };
  }
  if (e.stagedId !== undefined) entry.staged_id = e.stagedId !== 0 ? { staged_id: e.stagedId } : {};
  return entry;
}

function collectTypes(p: ResPackage, ctx: ValueContext, warn: (w: ConversionWarning) => void): Map<number, TypeBuild> {
  const specFlags = new Map<number, readonly number[]>();
  for (const s of p.typeSpecs) specFlags.set(s.id, s.flags);
  const types = new Map<number, TypeBuild>();
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
    const key = configProtoKey(config);
    for (const e of chunk.entries) {
      let value: PbValue | undefined;
      if (e.value.kind === 'simple') {
        value = { item: resValueToItem(chunk.name, e.value.value, ctx) };
      } else {
        value = mapEntryToValue(chunk.name, e.flags, e.value.parent, e.value.items, ctx);
        if (!value) {
          warn({
            code: 'ILLEGAL_MAP_ENTRY',
            message: `O recurso ${chunk.name}/${e.name} tem um valor composto que o aapt2 não aceita nesse tipo e foi omitido.`,
          });
          continue;
        }
      }
      let entry = t.entries.get(e.index);
      if (!entry) {
        entry = { index: e.index, name: e.name, isPublic: false, stagedApi: false, values: new Map() };
        t.entries.set(e.index, entry);
      }
      // Weak as the entry says (aapt2 convert would mark every Id weak): the round trip then
      // flattens the same FLAG_WEAK the APK had.
      if (e.flags & EntryFlag.WEAK) value.weak = true;
      else delete value.weak;
      const spec = specFlags.get(chunk.id)?.[e.index] ?? 0;
      if ((e.flags & EntryFlag.PUBLIC) !== 0 || (spec & SPEC_PUBLIC) !== 0) {
        entry.isPublic = true;
        if ((spec & SPEC_STAGED_API) !== 0) entry.stagedApi = true;
      }
      entry.values.delete(key); // a repeated configuration: the last value wins, as aapt2
      entry.values.set(key, { config, value });
    }
  }
  return types;
}

function findEntry(p: ResPackage, types: Map<number, TypeBuild>, resId: number): EntryBuild | undefined {
  if (packageIdOf(resId) !== p.id) return undefined;
  return types.get(typeIdOf(resId))?.entries.get(entryIdOf(resId));
}

function applyStagedAliases(p: ResPackage, types: Map<number, TypeBuild>, warn: (w: ConversionWarning) => void): void {
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

function applyOverlayables(p: ResPackage, types: Map<number, TypeBuild>, warn: (w: ConversionWarning) => void): void {
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

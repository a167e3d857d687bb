/**
 * aapt.pb.ResourceTable → resources.arsc, as `aapt2 convert --output-format binary` flattens a
 * table for bundletool (docs/apks.md): one package chunk per package (by id), its type names
 * (UTF-16, "?N" filling gaps) and entry names (UTF-8), a type spec per type with each entry's
 * configuration change mask, one dense type chunk per configuration, then the library,
 * overlayable and staged-alias chunks. Compound values are written as aapt2 writes them: attribute
 * type/min/max then symbols, style items sorted by key, array items keyed ATTR_MIN + i, plurals by
 * arity.
 */
import { ConverterError } from '../errors.js';
import type { PbConfigValue, PbEntry, PbPackage, PbResourceTable, PbType, PbValue } from '../proto/aapt.js';
import { ByteWriter } from './byteWriter.js';
import { ChunkType } from './chunk.js';
import { compareConfigs, configDiff, configToBinary, parseBcp47 } from './configWriter.js';
import { configFromBytes, type ResTableConfig } from './config.js';
import { StringPoolBuilder, type PoolRef } from './poolWriter.js';
import { encodeItem, PoolPatches, writeResValue, type EncodedValue } from './valueWriter.js';
import { DataType, EntryFlag, MapKey, SPEC_PUBLIC, SPEC_STAGED_API, makeResId, typeIdOf, entryIdOf } from './values.js';

const INT_MIN = -0x80000000;
const INT_MAX = 0x7fffffff;
const FRAMEWORK_PACKAGE = 0x01;
const APP_PACKAGE = 0x7f;
/** What `--collapse-resource-names` writes in place of an entry name. */
export const OBFUSCATED_NAME = '0_resource_name_obfuscated';
/** Proto Policy enum → ResTable_overlayable_policy_header flag. */
const POLICY_FLAGS = [0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100];
const PLURAL_KEYS = [MapKey.ATTR_ZERO, MapKey.ATTR_ONE, MapKey.ATTR_TWO, MapKey.ATTR_FEW, MapKey.ATTR_MANY, MapKey.ATTR_OTHER];

export interface FlattenTableOptions {
  /** Entry names replaced by OBFUSCATED_NAME but for `keepNames` ("type/name"): BundleConfig's collapsed names. */
  readonly collapseNames?: boolean;
  readonly keepNames?: ReadonlySet<string>;
}

interface FlatEntry {
  readonly id: number;
  readonly entry: PbEntry;
}

interface FlatValue {
  readonly entry: FlatEntry;
  readonly value: PbValue;
  readonly key: number;
}

function bad(detail: string): never {
  throw new ConverterError('INVALID_AAB', `resources.pb: ${detail}`);
}

/** aapt2's cmp_ids_dynamic_after_framework: by id, but framework attributes before dynamic (0x00) ones. */
function compareKeyIds(a: number, b: number): number {
  const pa = a >>> 24;
  const pb = b >>> 24;
  if (pa === FRAMEWORK_PACKAGE && pb === 0) return -1;
  if (pa === 0 && pb === FRAMEWORK_PACKAGE) return 1;
  return a === b ? 0 : a >>> 0 < b >>> 0 ? -1 : 1;
}

interface FlatConfig {
  bytes: Uint8Array;
  parsed: ResTableConfig;
  key: string;
}

/** Configurations already seen in one table, by their bytes, and whether each locale tag parses: a table repeats few of them many times. */
interface ConfigCache {
  configs: Map<string, FlatConfig>;
  /** By the fields set (see fieldsKey): many texts for one binary configuration at most. */
  byFields: Map<string, FlatConfig>;
  locales: Map<string, boolean>;
  defaultConfig?: FlatConfig;
}

function configOf(cv: PbConfigValue, where: string, cache: ConfigCache): FlatConfig {
  const c = cv.config ?? {};
  // Most values have the default configuration: no field set.
  if (cache.defaultConfig && isEmptyConfig(c)) return cache.defaultConfig;
  // The fields as set, as text: a configuration seen before (one locale's hundreds of strings) is
  // found without parsing its locale or building its binary form again.
  const fields = fieldsKey(c);
  const seen = cache.byFields.get(fields);
  if (seen) return seen;
  const flat = binaryConfigOf(c, where, cache);
  cache.byFields.set(fields, flat);
  return flat;
}

/** The fields set in `c` and their values, unambiguously (each value's length before it). */
function fieldsKey(c: object): string {
  let key = '';
  for (const k in c) {
    const v = String((c as Record<string, unknown>)[k]);
    key += `${k}:${v.length}:${v};`;
  }
  return key;
}

function binaryConfigOf(c: NonNullable<PbConfigValue['config']>, where: string, cache: ConfigCache): FlatConfig {
  if (c.locale) {
    let valid = cache.locales.get(c.locale);
    if (valid === undefined) cache.locales.set(c.locale, (valid = parseBcp47(c.locale) !== undefined));
    if (!valid) bad(`${where}: configuração com locale inválido "${c.locale}"`);
  }
  const bytes = configToBinary(c);
  const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let known = cache.configs.get(key);
  if (!known) cache.configs.set(key, (known = { bytes, parsed: configFromBytes(bytes), key }));
  if (isEmptyConfig(c)) cache.defaultConfig = known;
  return known;
}

function isEmptyConfig(c: object): boolean {
  for (const k in c) if (Object.prototype.hasOwnProperty.call(c, k)) return false;
  return true;
}

class PackageWriter {
  private readonly typePool = new StringPoolBuilder(false);
  private readonly keyPool = new StringPoolBuilder(true);
  private readonly typeChunks = new ByteWriter(16 * 1024);
  private readonly patches = new PoolPatches();
  private readonly keyPatches = new PoolPatches();
  readonly aliases = new Map<number, number>();
  private readonly configCache: ConfigCache = { configs: new Map(), byFields: new Map(), locales: new Map() };

  constructor(
    private readonly pkg: PbPackage,
    private readonly id: number,
    private readonly valuePool: StringPoolBuilder,
    private readonly options: FlattenTableOptions,
  ) {}

  write(out: ByteWriter, sharedLibs: ReadonlyMap<number, string>, overlayables: PbResourceTable['overlayable']): void {
    const types = [...(this.pkg.type ?? [])]
      .filter((t) => t.name !== 'styleable' && t.name !== 'macro')
      .map((t) => ({ t, id: t.type_id?.id ?? bad(`tipo "${t.name ?? ''}" sem id`) }))
      .sort((a, b) => a.id - b.id);
    let expected = 1;
    for (const { t, id } of types) {
      if (id < 1 || id > 255) bad(`tipo "${t.name ?? ''}" com id ${id}`);
      if (id < expected) bad(`tipo de id ${id} repetido`);
      while (id > expected) this.typePool.ref(`?${expected++}`);
      expected++;
      this.typePool.ref(t.name ?? '');
      this.writeType(t, id);
    }
    this.typePool.finalize();
    this.keyPool.finalize();

    const start = out.startChunk(ChunkType.TABLE_PACKAGE, 288);
    out.u32(this.id).utf16Fixed(this.pkg.package_name ?? '', 128);
    const typeStringsAt = out.length;
    out.u32(0).u32(0).u32(0).u32(0).u32(0);
    out.setU32(typeStringsAt, out.length - start);
    this.typePool.write(out);
    out.setU32(typeStringsAt + 8, out.length - start);
    this.keyPool.write(out);
    const typesAt = out.length;
    this.keyPatches.apply(this.typeChunks);
    out.bytes(this.typeChunks.written());
    // Value-pool indices are patched in by the table once its pool is final.
    this.valuePatchesAt = typesAt;

    if (this.id === 0 || sharedLibs.size > 0) {
      const libs: [number, string][] = [...(this.id === 0 ? [[0, this.pkg.package_name ?? ''] as [number, string]] : []), ...[...sharedLibs].sort((a, b) => a[0] - b[0])];
      const lib = out.startChunk(ChunkType.TABLE_LIBRARY, 12);
      out.u32(libs.length);
      for (const [pid, name] of libs) out.u32(pid).utf16Fixed(name, 128);
      out.endChunk(lib);
    }
    this.writeOverlayables(out, types.map((x) => x.t), overlayables ?? []);
    if (this.aliases.size > 0) {
      const chunk = out.startChunk(ChunkType.TABLE_STAGED_ALIAS, 12);
      out.u32(this.aliases.size);
      for (const [staged, finalized] of [...this.aliases].sort((a, b) => a[0] - b[0])) out.u32(staged).u32(finalized);
      out.endChunk(chunk);
    }
    out.endChunk(start);
  }

  /** Where this package's type chunks start in the table body (the value patches' base). */
  private valuePatchesAt = 0;

  /** Writes this package's value-pool indices into the table body (the value pool must be final). */
  applyValuePatches(body: ByteWriter): void {
    this.patches.apply(body, this.valuePatchesAt);
  }

  private keyFor(typeName: string, entry: PbEntry): number {
    const name = entry.name ?? '';
    const collapse = this.options.collapseNames === true && !(this.options.keepNames?.has(`${typeName}/${name}`) ?? false);
    const ref = this.keyPool.ref(collapse ? OBFUSCATED_NAME : name);
    return this.keyRefs.push(ref) - 1;
  }

  private readonly keyRefs: PoolRef[] = [];

  private writeType(t: PbType, typeId: number): void {
    const typeName = t.name ?? '';
    const entries: FlatEntry[] = (t.entry ?? []).map((e) => {
      if (!e.entry_id) bad(`${typeName}/${e.name ?? ''} sem id`);
      const id = e.entry_id.id ?? 0;
      if (id > 0xffff) bad(`${typeName}/${e.name ?? ''} com id ${id}`);
      return { id, entry: e };
    });
    entries.sort((a, b) => a.id - b.id);
    for (let i = 1; i < entries.length; i++) if (entries[i].id === entries[i - 1].id) bad(`${typeName}: id de entrada ${entries[i].id} repetido`);

    // Spec: entry count is the last id + 1 (ids may leave holes).
    const count = entries.length > 0 ? entries[entries.length - 1].id + 1 : 0;
    const byConfig = new Map<string, { bytes: Uint8Array; parsed: ResTableConfig; values: FlatValue[] }>();
    const masks = new Uint32Array(count);
    for (const fe of entries) {
      const e = fe.entry;
      if (e.visibility?.level === 2) masks[fe.id] |= SPEC_PUBLIC;
      if (e.visibility?.staged_api) masks[fe.id] |= SPEC_STAGED_API;
      if (e.staged_id?.staged_id !== undefined) this.aliases.set(e.staged_id.staged_id >>> 0, makeResId(this.id, typeId, fe.id));
      const key = this.keyFor(typeName, e);
      const configs: ResTableConfig[] = [];
      const seen = new Set<string>();
      for (const cv of e.config_value ?? []) {
        const c = configOf(cv, `${typeName}/${e.name ?? ''}`, this.configCache);
        if (seen.has(c.key)) bad(`${typeName}/${e.name ?? ''}: configuração repetida`);
        seen.add(c.key);
        configs.push(c.parsed);
        let group = byConfig.get(c.key);
        if (!group) byConfig.set(c.key, (group = { bytes: c.bytes, parsed: c.parsed, values: [] }));
        if (!cv.value) bad(`${typeName}/${e.name ?? ''}: valor ausente`);
        group.values.push({ entry: fe, value: cv.value, key });
      }
      // Each bit says some field differs among the configurations: against the first one is enough (not every pair).
      for (let i = 1; i < configs.length; i++) masks[fe.id] |= configDiff(configs[0], configs[i]);
    }
    const out = this.typeChunks;
    const spec = out.startChunk(ChunkType.TABLE_TYPE_SPEC, 16);
    out.u8(typeId).u8(0).u16(0).u32(count);
    for (const m of masks) out.u32(m);
    out.endChunk(spec);

    const groups = [...byConfig.values()].sort((a, b) => compareConfigs(a.parsed, b.parsed));
    for (const g of groups) this.writeConfig(typeName, typeId, count, g.bytes, g.values);
  }

  private writeConfig(typeName: string, typeId: number, count: number, config: Uint8Array, values: readonly FlatValue[]): void {
    const out = this.typeChunks;
    const start = out.startChunk(ChunkType.TABLE_TYPE, 20 + config.length);
    out.u8(typeId).u8(0).u16(0).u32(count);
    const entriesStartAt = out.length;
    out.u32(0).bytes(config);
    const offsetsAt = out.length;
    out.fill(0xff, count * 4); // every offset NO_ENTRY until its value is written
    out.setU32(entriesStartAt, out.length - start);
    const base = out.length;
    for (const v of values) {
      out.setU32(offsetsAt + v.entry.id * 4, out.length - base);
      this.writeValue(typeName, v);
    }
    out.endChunk(start);
  }

  private writeValue(typeName: string, v: FlatValue): void {
    const out = this.typeChunks;
    const where = `${typeName}/${v.entry.entry.name ?? ''}`;
    let flags = 0;
    if (v.entry.entry.visibility?.level === 2) flags |= EntryFlag.PUBLIC;
    if (v.value.weak) flags |= EntryFlag.WEAK;
    const key = this.keyRefs[v.key];
    if (v.value.item) {
      out.u16(8).u16(flags);
      this.keyPatches.add(out.length, key);
      out.u32(0);
      writeResValue(out, encodeItem(v.value.item, this.valuePool, where), this.patches);
      return;
    }
    const c = v.value.compound_value;
    if (!c) bad(`${where}: valor sem item nem valor composto`);
    const items: { key: number; value: EncodedValue }[] = [];
    let parent = 0;
    const prim = (dataType: number, data: number): EncodedValue => ({ dataType, data: data >>> 0 });
    if (c.attr) {
      items.push({ key: MapKey.ATTR_TYPE, value: prim(DataType.INT_DEC, c.attr.format_flags ?? 0) });
      const min = c.attr.min_int ?? 0;
      const max = c.attr.max_int ?? 0;
      if (min !== INT_MIN) items.push({ key: MapKey.ATTR_MIN, value: prim(DataType.INT_DEC, min) });
      if (max !== INT_MAX) items.push({ key: MapKey.ATTR_MAX, value: prim(DataType.INT_DEC, max) });
      for (const s of c.attr.symbol ?? []) {
        const id = s.name?.id ?? bad(`${where}: símbolo sem id`);
        items.push({ key: id >>> 0, value: prim(s.type || DataType.INT_DEC, s.value ?? 0) });
      }
    } else if (c.style) {
      if (c.style.parent) parent = (c.style.parent.id ?? bad(`${where}: estilo pai sem id`)) >>> 0;
      const entries = (c.style.entry ?? []).map((e) => ({ key: (e.key?.id ?? bad(`${where}: item de estilo sem id`)) >>> 0, item: e.item }));
      entries.sort((a, b) => compareKeyIds(a.key, b.key));
      for (const e of entries) items.push({ key: e.key, value: encodeItem(e.item, this.valuePool, where) });
    } else if (c.array) {
      (c.array.element ?? []).forEach((e, i) => items.push({ key: MapKey.ATTR_MIN + i, value: encodeItem(e.item, this.valuePool, where) }));
    } else if (c.plural) {
      const byArity = new Map<number, EncodedValue>();
      for (const e of c.plural.entry ?? []) byArity.set(Math.min(e.arity ?? 0, 5), encodeItem(e.item, this.valuePool, where));
      for (const [arity, value] of [...byArity].sort((a, b) => a[0] - b[0])) items.push({ key: PLURAL_KEYS[arity], value });
    } else {
      bad(`${where}: valor composto sem tipo conhecido`);
    }
    out.u16(16).u16(flags | EntryFlag.COMPLEX);
    this.keyPatches.add(out.length, key);
    out.u32(0);
    out.u32(parent).u32(items.length);
    for (const it of items) {
      out.u32(it.key);
      writeResValue(out, it.value, this.patches);
    }
  }

  private writeOverlayables(out: ByteWriter, types: readonly PbType[], overlayables: NonNullable<PbResourceTable['overlayable']>): void {
    const chunks = new Map<string, { actor: string; policies: Map<number, Set<number>> }>();
    for (const t of types) {
      for (const e of t.entry ?? []) {
        const item = e.overlayable_item;
        if (!item) continue;
        const o = overlayables[item.overlayable_idx ?? 0] ?? bad(`${t.name ?? ''}/${e.name ?? ''}: overlayable_idx ${item.overlayable_idx ?? 0} inexistente`);
        const flags = (item.policy ?? []).reduce((f, p) => f | (POLICY_FLAGS[p] ?? 0), 0);
        if (flags === 0) bad(`${t.name ?? ''}/${e.name ?? ''}: overlayable sem política`);
        let chunk = chunks.get(o.name ?? '');
        if (!chunk) chunks.set(o.name ?? '', (chunk = { actor: o.actor ?? '', policies: new Map() }));
        let ids = chunk.policies.get(flags);
        if (!ids) chunk.policies.set(flags, (ids = new Set()));
        ids.add(makeResId(this.id, t.type_id?.id ?? 0, e.entry_id?.id ?? 0));
      }
    }
    for (const [name, chunk] of [...chunks].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (name.length >= 256 || chunk.actor.length >= 256) bad(`nome de overlayable longo demais: ${name}`);
      const start = out.startChunk(ChunkType.TABLE_OVERLAYABLE, 1032);
      out.utf16Fixed(name, 256).utf16Fixed(chunk.actor, 256);
      for (const [flags, ids] of [...chunk.policies].sort((a, b) => a[0] - b[0])) {
        const p = out.startChunk(ChunkType.TABLE_OVERLAYABLE_POLICY, 16);
        out.u32(flags).u32(ids.size);
        for (const id of [...ids].sort((a, b) => a - b)) out.u32(id);
        out.endChunk(p);
      }
      out.endChunk(start);
    }
  }
}

/** Adds, for each staged entry, the clone the runtime finds under its staged id (aapt2's alias entries). */
function withAliasEntries(pkg: PbPackage): PbPackage {
  const clones = new Map<number, PbEntry[]>();
  for (const t of pkg.type ?? []) {
    for (const e of t.entry ?? []) {
      const staged = e.staged_id?.staged_id;
      if (staged === undefined) continue;
      const list = clones.get(typeIdOf(staged)) ?? [];
      list.push({ ...e, entry_id: { id: entryIdOf(staged) }, staged_id: undefined });
      clones.set(typeIdOf(staged), list);
    }
  }
  if (clones.size === 0) return pkg;
  return {
    ...pkg,
    type: (pkg.type ?? []).map((t) => {
      const extra = clones.get(t.type_id?.id ?? 0);
      if (!extra) return t;
      const taken = new Set((t.entry ?? []).map((e) => e.entry_id?.id ?? 0));
      return { ...t, entry: [...(t.entry ?? []), ...extra.filter((e) => !taken.has(e.entry_id.id ?? 0))] };
    }),
  };
}

/** resources.arsc bytes for a proto resource table. */
export function flattenTable(table: PbResourceTable, options: FlattenTableOptions = {}): Uint8Array {
  const valuePool = new StringPoolBuilder(true);
  const packages = [...(table.package ?? [])]
    .map((p) => ({ p: withAliasEntries(p), id: p.package_id?.id ?? bad(`pacote "${p.package_name ?? ''}" sem id`) }))
    .sort((a, b) => a.id - b.id);
  const sharedLibs = new Map<number, string>();
  for (const d of table.dynamic_ref_table ?? []) sharedLibs.set(d.package_id?.id ?? 0, d.package_name ?? '');
  const body = new ByteWriter(64 * 1024);
  const writers: PackageWriter[] = [];
  for (const { p, id } of packages) {
    if (id > 255) bad(`pacote com id ${id}`);
    // A package with an id other than the framework's or the app's maps itself as a shared library.
    if (id !== FRAMEWORK_PACKAGE && id !== APP_PACKAGE && !sharedLibs.has(id)) sharedLibs.set(id, p.package_name ?? '');
    const w = new PackageWriter(p, id, valuePool, options);
    w.write(body, sharedLibs, table.overlayable);
    writers.push(w);
  }
  valuePool.finalize();
  for (const w of writers) w.applyValuePatches(body);

  const out = new ByteWriter(body.length + valuePool.size * 16 + 1024);
  const start = out.startChunk(ChunkType.TABLE, 12);
  out.u32(packages.length);
  valuePool.write(out);
  out.bytes(body.written());
  out.endChunk(start);
  return out.finish();
}

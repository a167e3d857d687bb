/**
 * aapt.pb.ResourceTable bytes for a parsed resources.arsc, as `aapt2 convert` emits them: the bytes
 * `encodeAapt('ResourceTable', buildResourceTableProto(table, ctx))` gives, with the same warnings
 * in the same order, written straight from the table: no message objects per entry and value (a
 * few per value: most of a conversion's garbage for a large table). Simple values and
 * styles, most of a table, are written field by field as the encoder writes them
 * (docs/aab-format.md "Protobuf encoding rules"); the other compound values go through their
 * message and the encoder, one value at a time.
 */
import type { ResEntry, ResourceTable } from '../arsc/model.js';
import { EntryFlag, isInternalId } from '../arsc/values.js';
import { encodeAapt } from '../proto/aapt.js';
import { Writer } from '../proto/protoWriter.js';
import type { PbConfiguration } from '../proto/aapt.js';
import { NO_REFERENCES, valueViewOf, type ReferenceView, type TableView, type ValueView } from '../validate/table.js';
import { valueMessage, orderTable, overlayablePolicies, tableValueContext, type ConfigSlot, type EntryBuild, type OrderedTable, type TableProtoContext } from './tableProto.js';
import { writeResValueItem, type ValueContext } from './valueProto.js';

/** Each value's bytes (an aapt.pb.Value), written as the table is read; slots index `starts`/`ends`. */
const values = new Writer();
/** The table's bytes (copied out). */
const out = new Writer();

export function resourceTableToProto(table: ResourceTable, ctx: TableProtoContext): Uint8Array {
  return writeResourceTable(table, ctx).bytes;
}

/** What the validators read of a value, beyond its configuration, when it is not nothing (see ValueView). */
type ValueFacts = Omit<ValueView, 'config'>;

/** The table's bytes (as resourceTableToProto) and the view the validators read of it (validate/table.ts). */
export function writeResourceTable(table: ResourceTable, ctx: TableProtoContext): { bytes: Uint8Array; view: TableView } {
  const valueCtx = tableValueContext(table, ctx);
  const starts: number[] = [];
  const ends: number[] = [];
  const facts: (ValueFacts | undefined)[] = [];
  values.pos = 0;
  const ordered = orderTable<number>(table, valueCtx.warn, (typeName, e) => {
    const start = values.pos;
    const written = writeValue(values, typeName, e, valueCtx);
    if (!written) {
      values.pos = start;
      return undefined;
    }
    starts.push(start);
    ends.push(values.pos);
    facts.push(written === true ? undefined : written);
    return starts.length - 1;
  });
  const bytes = writeOrdered(ordered, starts, ends);
  return { bytes, view: viewOf(ordered, facts) };
}

/** The view of the table as written: one shared view per configuration for the values with nothing to say. */
function viewOf(ordered: OrderedTable<number>, facts: readonly (ValueFacts | undefined)[]): TableView {
  const plain = new Map<PbConfiguration, ValueView>();
  const valueView = (slot: ConfigSlot<number>): ValueView => {
    const f = facts[slot.value];
    if (f) return { config: slot.config, ...f };
    let v = plain.get(slot.config);
    if (!v) plain.set(slot.config, (v = { config: slot.config, references: NO_REFERENCES }));
    return v;
  };
  return {
    overlayableCount: ordered.overlayables.length,
    packages: ordered.packages.map((p) => ({
      id: p.id,
      name: p.name !== '' ? p.name : undefined,
      types: p.types.map((t) => ({
        id: t.id,
        name: t.name !== '' ? t.name : undefined,
        entries: t.entries.map((e) => ({
          id: e.index,
          name: e.name !== '' ? e.name : undefined,
          ...(e.overlayable ? { overlayable: { index: e.overlayableIndex ?? 0, policies: overlayablePolicies(e.overlayable.flags) } } : {}),
          values: Array.from(e.values.values(), valueView),
        })),
      })),
    })),
  };
}

function writeOrdered(ordered: OrderedTable<number>, starts: readonly number[], ends: readonly number[]): Uint8Array {
  const w = out;
  w.pos = 0;
  for (const p of ordered.packages) {
    w.uint32(0x12);
    const packageAt = w.fork();
    idField(w, 0x0a, 0x08, p.id);
    w.stringField(0x12, p.name);
    for (const t of p.types) {
      w.uint32(0x1a);
      const typeAt = w.fork();
      w.uint32(0x0a); // TypeId, its id always set
      const idAt = w.fork();
      w.uint32(0x08);
      w.uint32(t.id);
      w.ldelim(idAt);
      w.stringField(0x12, t.name);
      for (const e of t.entries) {
        w.uint32(0x1a);
        const entryAt = w.fork();
        writeEntry(w, e, starts, ends);
        w.ldelim(entryAt);
      }
      w.ldelim(typeAt);
    }
    w.ldelim(packageAt);
  }
  for (const o of ordered.overlayables) {
    w.uint32(0x1a);
    const at = w.fork();
    w.stringField(0x0a, o.name);
    w.stringField(0x1a, o.actor);
    w.ldelim(at);
  }
  for (const [id, name] of ordered.libraries) {
    w.uint32(0x2a);
    const at = w.fork();
    idField(w, 0x0a, 0x08, id);
    w.stringField(0x12, name);
    w.ldelim(at);
  }
  values.release();
  return w.copyOut();
}

/** An Entry's fields after its tag: id, name, visibility, overlayable item, config values, staged id. */
function writeEntry(w: Writer, e: EntryBuild<number>, starts: readonly number[], ends: readonly number[]): void {
  idField(w, 0x0a, 0x08, e.index);
  w.stringField(0x12, e.name);
  w.uint32(0x1a); // Visibility, always set
  const visibilityAt = w.fork();
  if (e.isPublic) {
    w.uint32(0x08);
    w.uint32(2);
  }
  if (e.stagedApi) {
    w.uint32(0x20);
    w.uint32(1);
  }
  w.ldelim(visibilityAt);
  if (e.overlayable) {
    w.uint32(0x2a);
    const at = w.fork();
    for (const policy of overlayablePolicies(e.overlayable.flags)) {
      w.uint32(0x18);
      w.uint32(policy);
    }
    const idx = e.overlayableIndex ?? 0;
    if (idx !== 0) {
      w.uint32(0x20);
      w.uint32(idx);
    }
    w.ldelim(at);
  }
  // forEach, not `for...of`: no iterator result per value before V8 optimises this.
  e.values.forEach((slot) => {
    w.uint32(0x32);
    const at = w.fork();
    w.uint32(0x0a); // the Configuration, always set: its bytes are its key
    const key = slot.configKey;
    w.uint32(key.length);
    w.ensure(key.length);
    w.pos += w.buf.write(key, w.pos, 'latin1');
    const start = starts[slot.value]!;
    const length = ends[slot.value]! - start;
    w.uint32(0x12);
    w.uint32(length);
    w.ensure(length);
    values.buf.copy(w.buf, w.pos, start, start + length);
    w.pos += length;
    w.ldelim(at);
  });
  if (e.stagedId !== undefined) {
    w.uint32(0x3a);
    const at = w.fork();
    if (e.stagedId !== 0) {
      w.uint32(0x10);
      w.uint32(e.stagedId);
    }
    w.ldelim(at);
  }
}

/** A field holding an id message: `{ id }`, or `{}` when the id is 0 (as the builder leaves it out). */
function idField(w: Writer, tag: number, idTag: number, id: number): void {
  w.uint32(tag);
  if (id === 0) {
    w.uint32(0);
    return;
  }
  const at = w.fork();
  w.uint32(idTag);
  w.uint32(id);
  w.ldelim(at);
}

/** A Reference `{ id }` (`{}` for 0) as a field of its own. */
function referenceField(w: Writer, tag: number, id: number): void {
  idField(w, tag, 0x10, id >>> 0);
}

/**
 * An entry's aapt.pb.Value, as valueMessage makes it, written at `w`'s position: true, or what the
 * validators read of it when that is not nothing; false for a compound value aapt2 refuses in
 * this type (nothing written, nothing warned: the caller warns).
 */
function writeValue(w: Writer, typeName: string, e: ResEntry, ctx: ValueContext): ValueFacts | boolean {
  const v = e.value;
  if (v.kind === 'simple' || typeName === 'style' || typeName === 'configVarying') {
    if ((e.flags & EntryFlag.WEAK) !== 0) {
      w.uint32(0x18);
      w.uint32(1);
    }
    if (v.kind === 'simple') {
      w.uint32(0x22);
      const at = w.fork();
      const file = writeResValueItem(w, typeName, v.value, ctx);
      w.ldelim(at);
      // Its reference, if any, has no name and is a value's: none the validators look at.
      return file ? { file, references: NO_REFERENCES } : true;
    }
    // CompoundValue { style: Style { parent, entry: [{ key, item }] } } (compoundProto.ts)
    w.uint32(0x2a);
    const compoundAt = w.fork();
    w.uint32(0x12);
    const styleAt = w.fork();
    if (v.parent !== 0) referenceField(w, 0x0a, v.parent);
    const items = v.items;
    // A parent is written only with its id, item references have no name: only a key without an id is for the validators.
    let references: ReferenceView[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const m = items[i]!;
      if (isInternalId(m.name)) continue;
      if (m.name >>> 0 === 0) (references ??= []).push({ name: '', hasId: false, role: 'style key' });
      w.uint32(0x1a);
      const entryAt = w.fork();
      referenceField(w, 0x1a, m.name);
      w.uint32(0x22);
      const itemAt = w.fork();
      writeResValueItem(w, typeName, m.value, ctx);
      w.ldelim(itemAt);
      w.ldelim(entryAt);
    }
    w.ldelim(styleAt);
    w.ldelim(compoundAt);
    return references ? { references } : true;
  }
  const message = valueMessage(typeName, e, ctx);
  if (!message) return false;
  const bytes = encodeAapt('Value', message);
  w.ensure(bytes.length);
  w.buf.set(bytes, w.pos);
  w.pos += bytes.length;
  const { config: _, ...facts } = valueViewOf({}, message);
  return facts.file || facts.problem !== undefined || facts.references.length > 0 ? facts : true;
}

/** docs/aab-format.md "Validation: aapt2's proto reader": what aapt2's proto deserializer (run by build-apks) needs, or it fails or crashes. */
import type { PbConfiguration, PbItem, PbReference, PbResourceTable, PbValue } from '../proto/aapt.js';
import { AAPT2_RESOURCE_TYPES, configValues, describe } from './table.js';
import { problem, type BundleProblem, type ModuleValidator } from './types.js';

async function table(m: Parameters<ModuleValidator['check']>[0]): Promise<PbResourceTable | undefined> {
  return (await m.resourceTable())?.value;
}

export const aapt2TypeNames: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-type-names',
  async check(m) {
    const out: BundleProblem[] = [];
    for (const pkg of (await table(m))?.package ?? []) {
      for (const t of pkg.type ?? []) {
        if (!AAPT2_RESOURCE_TYPES.has(t.name ?? '')) out.push(problem(this.rule, `Resource type '${t.name ?? ''}' is unknown to aapt2.`));
      }
    }
    return out;
  },
};

/** Keys by Configuration object: the converter shares one object among a type chunk's entries. */
const configKeys = new WeakMap<PbConfiguration, string>();

function configKey(c: PbConfiguration | undefined): string {
  let key = c ? configKeys.get(c) : undefined;
  if (key === undefined) {
    const o = (c ?? {}) as Record<string, unknown>;
    key = JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
    if (c) configKeys.set(c, key);
  }
  return key;
}

export const aapt2UniqueConfigs: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-unique-configs',
  async check(m) {
    const out: BundleProblem[] = [];
    for (const pkg of (await table(m))?.package ?? []) {
      for (const type of pkg.type ?? []) {
        for (const entry of type.entry ?? []) {
          if ((entry.config_value?.length ?? 0) < 2) continue; // most entries: one value, nothing to compare
          const seen = new Set<string>();
          for (const cv of entry.config_value ?? []) {
            const key = configKey(cv.config);
            if (seen.has(key)) out.push(problem(this.rule, `Duplicate configuration in resource table for ${describe(pkg, type, entry)}.`));
            seen.add(key);
          }
        }
      }
    }
    return out;
  },
};

const LOCALE = /^[a-zA-Z]{2,3}(-[a-zA-Z]{4})?(-([a-zA-Z]{2}|[0-9]{3}))?(-([a-zA-Z0-9]{5,8}|[0-9][a-zA-Z0-9]{3}))*(-u-nu-[a-zA-Z0-9]{3,8})?$/;

/** Whether aapt2's LocaleValue::InitFromBcp47Tag would take this tag ("" = no locale). */
export function isValidLocale(tag: string): boolean {
  return tag === '' || LOCALE.test(tag);
}

export const aapt2Locales: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-locales',
  async check(m) {
    const bad = new Set<string>();
    for (const { cv } of configValues(await table(m))) {
      const l = cv.config?.locale ?? '';
      if (!isValidLocale(l)) bad.add(l);
    }
    return [...bad].map((l) => problem(this.rule, `Configuration has invalid locale '${l}'.`));
  },
};

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

export const aapt2ValuesSet: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-values-set',
  async check(m) {
    const out: BundleProblem[] = [];
    for (const { pkg, type, entry, cv } of configValues(await table(m))) {
      const why = valueProblem(cv.value);
      if (why) out.push(problem(this.rule, `Value of ${describe(pkg, type, entry)} would make aapt2 fail: ${why}.`));
    }
    return out;
  },
};

interface ReferenceSite {
  ref: PbReference;
  role: string;
}
const NO_REFERENCES: readonly ReferenceSite[] = [];

/** The references a value holds (most hold none: no list is made for them). */
function references(v: PbValue | undefined): readonly ReferenceSite[] {
  const c = v?.compound_value;
  if (!v?.item?.ref && !c) return NO_REFERENCES;
  const out: ReferenceSite[] = [];
  if (v?.item?.ref) out.push({ ref: v.item.ref, role: 'reference' });
  if (c?.style?.parent) out.push({ ref: c.style.parent, role: 'style parent' });
  for (const e of c?.style?.entry ?? []) {
    if (e.key) out.push({ ref: e.key, role: 'style key' });
    if (e.item?.ref) out.push({ ref: e.item.ref, role: 'reference' });
  }
  for (const s of c?.attr?.symbol ?? []) if (s.name) out.push({ ref: s.name, role: 'attribute symbol' });
  for (const e of c?.array?.element ?? []) if (e.item?.ref) out.push({ ref: e.item.ref, role: 'reference' });
  for (const e of c?.plural?.entry ?? []) if (e.item?.ref) out.push({ ref: e.item.ref, role: 'reference' });
  return out;
}

const REFERENCE_NAME = /^(?:[^:/]+:)?([^/]+)\/.+$/;

/** A non-empty Reference.name must parse as [package:]type/entry; keys, parents and symbols need an id. */
export const aapt2References: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-references',
  async check(m) {
    const out: BundleProblem[] = [];
    // Whether each name parses, once per name: a table names the same attributes and styles
    // thousands of times.
    const nameParses = new Map<string, boolean>();
    const parses = (name: string): boolean => {
      let ok = nameParses.get(name);
      if (ok === undefined) {
        const match = REFERENCE_NAME.exec(name);
        nameParses.set(name, (ok = match !== null && AAPT2_RESOURCE_TYPES.has(match[1]!)));
      }
      return ok;
    };
    for (const { pkg, type, entry, cv } of configValues(await table(m))) {
      for (const { ref, role } of references(cv.value)) {
        const name = ref.name ?? '';
        if (name !== '' && !parses(name)) {
          out.push(problem(this.rule, `Reference in ${describe(pkg, type, entry)} has invalid resource name '${name}'.`));
        }
        if (role !== 'reference' && !ref.id) out.push(problem(this.rule, `The ${role} in ${describe(pkg, type, entry)} has no resource id.`));
      }
    }
    return out;
  },
};

export const aapt2Overlayables: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-overlayables',
  async check(m) {
    const t = await table(m);
    const count = t?.overlayable?.length ?? 0;
    const out: BundleProblem[] = [];
    for (const pkg of t?.package ?? []) {
      for (const type of pkg.type ?? []) {
        for (const entry of type.entry ?? []) {
          const item = entry.overlayable_item;
          if (!item) continue;
          if ((item.overlayable_idx ?? 0) >= count) out.push(problem(this.rule, `Overlayable index of ${describe(pkg, type, entry)} is out of range.`));
          if ((item.policy ?? []).some((p) => p < 0 || p > 9)) out.push(problem(this.rule, `Overlayable policy of ${describe(pkg, type, entry)} is unknown.`));
        }
      }
    }
    return out;
  },
};

export const AAPT2_RULES = [aapt2TypeNames, aapt2UniqueConfigs, aapt2Locales, aapt2ValuesSet, aapt2References, aapt2Overlayables];

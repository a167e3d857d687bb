/** docs/aab-format.md "Validation: aapt2's proto reader": what aapt2's proto deserializer (run by build-apks) needs, or it fails or crashes. */
import type { PbConfiguration } from '../proto/aapt.js';
import { AAPT2_RESOURCE_TYPES, configValues, describe, type TableView } from './table.js';
import { problem, type BundleProblem, type ModuleValidator } from './types.js';

async function table(m: Parameters<ModuleValidator['check']>[0]): Promise<TableView | undefined> {
  return (await m.resourceTable())?.value;
}

export const aapt2TypeNames: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-type-names',
  async check(m) {
    const out: BundleProblem[] = [];
    for (const pkg of (await table(m))?.packages ?? []) {
      for (const t of pkg.types) {
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
    for (const pkg of (await table(m))?.packages ?? []) {
      for (const type of pkg.types) {
        for (const entry of type.entries) {
          if (entry.values.length < 2) continue; // most entries: one value, nothing to compare
          const seen = new Set<string>();
          for (const value of entry.values) {
            const key = configKey(value.config);
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
    const sites = configValues(await table(m));
    for (let i = 0; i < sites.length; i++) {
      const { value } = sites[i]!;
      const l = value.config.locale ?? '';
      if (!isValidLocale(l)) bad.add(l);
    }
    return [...bad].map((l) => problem(this.rule, `Configuration has invalid locale '${l}'.`));
  },
};

export const aapt2ValuesSet: ModuleValidator = {
  kind: 'module',
  rule: 'aapt2-values-set',
  async check(m) {
    const out: BundleProblem[] = [];
    const sites = configValues(await table(m));
    for (let i = 0; i < sites.length; i++) {
      const { pkg, type, entry, value } = sites[i]!;
      const why = value.problem;
      if (why) out.push(problem(this.rule, `Value of ${describe(pkg, type, entry)} would make aapt2 fail: ${why}.`));
    }
    return out;
  },
};

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
    const sites = configValues(await table(m));
    for (let i = 0; i < sites.length; i++) {
      const { pkg, type, entry, value } = sites[i]!;
      const references = value.references;
      for (let r = 0; r < references.length; r++) {
        const { name, hasId, role } = references[r]!;
        if (name !== '' && !parses(name)) {
          out.push(problem(this.rule, `Reference in ${describe(pkg, type, entry)} has invalid resource name '${name}'.`));
        }
        if (role !== 'reference' && !hasId) out.push(problem(this.rule, `The ${role} in ${describe(pkg, type, entry)} has no resource id.`));
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
    const count = t?.overlayableCount ?? 0;
    const out: BundleProblem[] = [];
    for (const pkg of t?.packages ?? []) {
      for (const type of pkg.types) {
        for (const entry of type.entries) {
          const item = entry.overlayable;
          if (!item) continue;
          if (item.index >= count) out.push(problem(this.rule, `Overlayable index of ${describe(pkg, type, entry)} is out of range.`));
          if (item.policies.some((p) => p < 0 || p > 9)) out.push(problem(this.rule, `Overlayable policy of ${describe(pkg, type, entry)} is unknown.`));
        }
      }
    }
    return out;
  },
};

export const AAPT2_RULES = [aapt2TypeNames, aapt2UniqueConfigs, aapt2Locales, aapt2ValuesSet, aapt2References, aapt2Overlayables];

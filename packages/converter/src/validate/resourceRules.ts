/** docs/aab-format.md "Validation: bundle and module": ResourceTableValidator, resource ids, and proto XML files (ResourceAnalyzer). */
import { RESOURCES_PB } from '../bundle/layout.js';
import { configValues, describe, FILE_TYPE, hexId, resourceId } from './table.js';
import { problem, type BundleProblem, type ModuleContext, type ModuleValidator } from './types.js';

function resFiles(m: ModuleContext): string[] {
  return [...m.files.keys()].filter((p) => p.startsWith('res/'));
}

function list(paths: readonly string[]): string {
  return `[${paths.slice(0, 10).join(', ')}${paths.length > 10 ? `, … (+${paths.length - 10})` : ''}]`;
}

export const resourceTablePresent: ModuleValidator = {
  kind: 'module',
  rule: 'resource-table-present',
  async check(m) {
    const d = await m.resourceTable();
    const at = `${m.name}/${RESOURCES_PB}`;
    if (d?.error) return [problem(this.rule, `The resource table of module '${m.name}' is not a valid ResourceTable proto: ${d.error}`, at)];
    if (!d && resFiles(m).length > 0) return [problem(this.rule, `Module '${m.name}' contains resource files but is missing a resource table.`, at)];
    return [];
  },
};

export const resourceFileReferences: ModuleValidator = {
  kind: 'module',
  rule: 'resource-file-references',
  async check(m) {
    const table = (await m.resourceTable())?.value;
    if (!table) return [];
    const out: BundleProblem[] = [];
    const referenced = new Set<string>();
    const outside = new Set<string>();
    const sites = configValues(table);
    for (let i = 0; i < sites.length; i++) {
      const { value } = sites[i]!;
      const path = value.file?.path;
      if (path === undefined) continue;
      if (!path.startsWith('res/')) outside.add(path);
      referenced.add(path);
    }
    if (outside.size > 0) out.push(problem(this.rule, `Resource table of module '${m.name}' references files outside 'res/': ${list([...outside])}.`));
    const missing = [...referenced].filter((p) => !m.files.has(p));
    if (missing.length > 0) out.push(problem(this.rule, `Resource table of module '${m.name}' contains references to non-existing files: ${list(missing)}.`));
    const unreferenced = resFiles(m).filter((p) => !referenced.has(p));
    if (unreferenced.length > 0) {
      out.push(problem(this.rule, `Module '${m.name}' contains resource files that are not referenced from the resource table: ${list(unreferenced)}.`));
    }
    return out;
  },
};

export const resourceIds: ModuleValidator = {
  kind: 'module',
  rule: 'resource-ids',
  async check(m) {
    const table = (await m.resourceTable())?.value;
    const out: BundleProblem[] = [];
    const seen = new Set<number>();
    for (const pkg of table?.packages ?? []) {
      // Id messages have presence; an id of 0 is the omitted proto3 default inside a present message.
      const pid = pkg.id;
      if (pid === undefined || pid > 0xff) out.push(problem(this.rule, `Package '${pkg.name ?? ''}' has an invalid or missing package id.`));
      for (const type of pkg.types) {
        const tid = type.id;
        if (tid === undefined || tid < 1 || tid > 0xff) out.push(problem(this.rule, `Type '${type.name ?? ''}' has an invalid or missing type id.`));
        for (const entry of type.entries) {
          const eid = entry.id;
          if (eid === undefined || eid > 0xffff) {
            out.push(problem(this.rule, `Entry '${type.name ?? ''}/${entry.name ?? ''}' has an invalid or missing entry id.`));
            continue;
          }
          const id = resourceId(pkg, type, entry);
          if (seen.has(id)) out.push(problem(this.rule, `Duplicate resource id ${hexId(id)} (${describe(pkg, type, entry)}).`));
          seen.add(id);
        }
      }
    }
    return out;
  },
};

/** Files referenced as PROTO_XML must parse as an XmlNode with a root element; BINARY_XML cannot be in a bundle. */
export const protoXmlFiles: ModuleValidator = {
  kind: 'module',
  rule: 'resource-proto-xml',
  async check(m) {
    const table = (await m.resourceTable())?.value;
    const out: BundleProblem[] = [];
    const checked = new Set<string>();
    const sites = configValues(table);
    for (let i = 0; i < sites.length; i++) {
      const { pkg, type, entry, value } = sites[i]!;
      const file = value.file;
      if (!file?.path || checked.has(file.path)) continue;
      if (file.type === FILE_TYPE.BINARY_XML) {
        checked.add(file.path);
        out.push(problem(this.rule, `Resource ${describe(pkg, type, entry)} references '${file.path}' as BINARY_XML, which a bundle cannot hold.`, `${m.name}/${file.path}`));
        continue;
      }
      if (file.type !== FILE_TYPE.PROTO_XML || !m.files.has(file.path)) continue;
      checked.add(file.path);
      const d = await m.xmlHasRoot(file.path);
      if (d?.error) out.push(problem(this.rule, `'${file.path}' is not a valid XmlNode proto: ${d.error}`, `${m.name}/${file.path}`));
      else if (!d?.value) out.push(problem(this.rule, `'${file.path}' has no root element.`, `${m.name}/${file.path}`));
    }
    return out;
  },
};

export const RESOURCE_RULES = [resourceTablePresent, resourceFileReferences, resourceIds, protoXmlFiles];

import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// `aabify` (every command, `convert --local` included) loads the shared modules the CLI and the
// engine import at start: one that builds yup schemas costs every run of the CLI ~6 ms
// (src/index.ts). Their schemas live in *Schemas.ts modules, imported where they are used
// (the server, the dashboard) or loaded with import() (the CLI's release flags).

const packages = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const sharedSrc = join(packages, 'shared', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The modules a file imports at its start: static imports that are not type-only. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^import\s+(type\s+)?[^'";]*?from\s+'([^']+)';/gms)) if (!m[1]) out.push(m[2]!);
  for (const m of text.matchAll(/^export\s+(type\s+)?(?:\*|\{[^}]*\})\s+from\s+'([^']+)';/gm)) if (!m[1]) out.push(m[2]!);
  return out;
}

/** The shared module a specifier names (`@aabify/shared` is index.ts). */
function sharedFile(specifier: string): string {
  const name = specifier === '@aabify/shared' ? 'index' : specifier.slice('@aabify/shared/'.length);
  return join(sharedSrc, `${name}.ts`);
}

/** Every package a shared module loads at start, through the shared modules it imports. */
function packagesLoaded(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file)) return found;
  seen.add(file);
  for (const spec of staticImports(file)) {
    if (spec.startsWith('./')) for (const p of packagesLoaded(join(dirname(file), spec.replace(/\.js$/, '.ts')), seen)) found.add(p);
    else found.add(spec);
  }
  return found;
}

describe('shared modules the CLI and the engine load at start', () => {
  const importers = ['cli', 'converter'].flatMap((p) => sourceFiles(join(packages, p, 'src')));
  const imported = new Map<string, string[]>();
  for (const file of importers) {
    for (const spec of staticImports(file).filter((s) => s === '@aabify/shared' || s.startsWith('@aabify/shared/'))) {
      imported.set(spec, [...(imported.get(spec) ?? []), relative(packages, file)]);
    }
  }

  it('theCliAndTheEngine_importSomeSharedModules', () => {
    // The scan itself: it finds the imports it is meant to check.
    expect([...imported.keys()]).to.include.members(['@aabify/shared/keystores', '@aabify/shared/conversions', '@aabify/shared/play']);
  });

  it('noneOfThem_buildsYupSchemas', () => {
    for (const [spec, by] of imported) {
      expect(packagesLoaded(sharedFile(spec)).has('yup'), `${spec} (imported by ${by.join(', ')}) loads yup at start`).to.equal(false);
    }
  });

  it('theSchemaModules_doLoadYup', () => {
    // The check above would pass on a scan that misses imports; here it must see yup.
    for (const name of ['keystoreSchemas', 'playSchemas', 'conversionSchemas', 'accountSchemas', 'index']) {
      expect(packagesLoaded(join(sharedSrc, `${name}.ts`)).has('yup'), name).to.equal(true);
    }
  });
});

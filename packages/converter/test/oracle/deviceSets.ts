/**
 * Compares what a device installs from two split sets, whatever the split layout: bundletool
 * cuts a bundle into splits by what varies in it, so a bundle made from a device's own splits
 * (one density, its languages, its ABIs) is served in fewer splits than the original. What must
 * be equal is the union the device ends up with: every resource value (resource, configuration,
 * value), the base manifest, and every other entry byte for byte.
 */
import { basename } from 'node:path';
import { firstDifference } from './diff.js';
import { SIGNATURE_FILE, dumpResources, dumpXmlTree } from './tools.js';
import { normaliseXmlDump } from './xmlTree.js';
import { ZipArchive } from './zip.js';
import { BUNDLETOOL_ADDED_ENTRIES } from './roundTrip.js';
import { BUNDLETOOL_INJECTED_RESOURCES } from './resourceDump.js';

const indent = (l: string): number => l.length - l.trimStart().length;

/** Every `resource → (config) value` of a dump as one line each (nested lines of a value folded in). */
export function resourceValues(lines: readonly string[]): string[] {
  const out: string[] = [];
  let resource: string | undefined;
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i].trim();
    const m = /^resource (0x[0-9a-f]+) (\S+)/.exec(t);
    if (m) {
      resource = BUNDLETOOL_INJECTED_RESOURCES.has(m[2]) ? undefined : `${m[1]} ${m[2]}`;
      depth = indent(lines[i]);
      continue;
    }
    if (/^(Package|type) /.test(t) || t === 'Binary APK' || t === 'Proto APK') {
      resource = undefined;
      continue;
    }
    if (!resource || indent(lines[i]) <= depth) continue;
    let value = t;
    while (i + 1 < lines.length && indent(lines[i + 1]) > indent(lines[i]) && !/^resource /.test(lines[i + 1].trim())) value += ` | ${lines[++i].trim()}`;
    out.push(`${resource} ${value}`);
  }
  return out;
}

function hasTable(apk: string): boolean {
  return ZipArchive.open(apk).entries.some((e) => e.name === 'resources.arsc');
}

/**
 * The union of the splits' values, references written as ids: a split's dump names a reference
 * only when the referenced resource is in that split, which depends on the split layout.
 */
async function unionValues(aapt2: string, apks: readonly string[]): Promise<string[]> {
  const dumps: string[][] = [];
  for (const apk of apks) if (hasTable(apk)) dumps.push(await dumpResources(aapt2, apk));
  const ids = new Map<string, string>();
  for (const d of dumps) for (const l of d) {
    const m = /^\s*resource (0x[0-9a-f]+) (\S+)/.exec(l);
    if (m) ids.set(m[2], m[1]);
  }
  const byId = (text: string): string => text.replace(/([@?])([A-Za-z][\w-]*\/[\w.$-]+)/g, (all, sigil: string, name: string) => (ids.has(name) ? `${sigil}${ids.get(name)}` : all));
  const all = new Set<string>();
  for (const d of dumps) for (const v of resourceValues(d)) all.add(byId(v));
  return [...all].sort();
}

function unionEntries(apks: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const apk of apks) {
    const zip = ZipArchive.open(apk);
    for (const e of zip.byName().values()) {
      if (e.name.endsWith('/') || SIGNATURE_FILE.test(e.name) || e.name === 'AndroidManifest.xml' || e.name === 'resources.arsc') continue;
      if (BUNDLETOOL_ADDED_ENTRIES.has(e.name) || e.name === 'stamp-cert-sha256') continue;
      out.set(e.name, zip.read(e));
    }
  }
  return out;
}

/** `base-master_2.apk` → `base-master.apk`: the variant number depends on how many variants the bundle makes. */
export function splitName(path: string): string {
  return basename(path).replace(/_\d+(?=\.apk$)/, '');
}

export async function compareDeviceSets(aapt2: string, expected: readonly string[], actual: readonly string[]): Promise<string[]> {
  const problems: string[] = [];
  const labels: [string, string] = ['device set from the original bundle', 'device set from the converted one'];
  const res = firstDifference(await unionValues(aapt2, expected), await unionValues(aapt2, actual), { labels });
  if (res) problems.push(`resource values differ; ${res.text}`);
  // Every module's master split carries its module's manifest (config splits get bundletool's own).
  for (const a of expected.filter((p) => splitName(p).endsWith('-master.apk'))) {
    const c = actual.find((p) => splitName(p) === splitName(a));
    if (!c) {
      problems.push(`${splitName(a)} is missing from the converted set`);
      continue;
    }
    const [ma, mc] = await Promise.all([dumpXmlTree(aapt2, a, 'AndroidManifest.xml'), dumpXmlTree(aapt2, c, 'AndroidManifest.xml')]);
    const d = firstDifference(normaliseXmlDump(ma, { manifest: true }), normaliseXmlDump(mc, { manifest: true }), { labels });
    if (d) problems.push(`${splitName(a)} manifest differs; ${d.text}`);
  }
  const ea = unionEntries(expected);
  const ec = unionEntries(actual);
  const missing = [...ea.keys()].filter((n) => !ec.has(n));
  const extra = [...ec.keys()].filter((n) => !ea.has(n));
  const differing = [...ea.keys()].filter((n) => ec.has(n) && !ea.get(n)!.equals(ec.get(n)!));
  if (missing.length > 0) problems.push(`entries missing: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ` (+${missing.length - 10})` : ''}`);
  if (extra.length > 0) problems.push(`entries added: ${extra.slice(0, 10).join(', ')}`);
  if (differing.length > 0) problems.push(`entries whose bytes differ: ${differing.slice(0, 10).join(', ')}${differing.length > 10 ? ` (+${differing.length - 10})` : ''}`);
  return problems;
}

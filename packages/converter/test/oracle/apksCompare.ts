/**
 * Compares an APK the engine built from a bundle with the one bundletool built from the same
 * bundle, as Google's tools read them: `aapt2 dump resources`, `aapt2 dump xmltree` of the
 * manifest and of every res/ XML file, and every other entry byte for byte (inflated) with its
 * compression method (stored or deflated), signature files aside (each side signs its own way).
 * No normalisation: the dumps must be equal line for line.
 */
import { readFileSync } from 'node:fs';
import { firstDifference } from './diff.js';
import { SIGNATURE_FILE, dumpResources, dumpXmlTrees, run } from './tools.js';
import { ZipArchive, type ZipEntry } from './zip.js';

const LABELS: [string, string] = ['bundletool', 'aabify'];

function listed(title: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).map((n) => `    ${n}`);
  if (names.length > 10) shown.push(`    ... and ${names.length - 10} more`);
  return `${title} (${names.length}):\n${shown.join('\n')}`;
}

function comparable(e: ZipEntry): boolean {
  return !e.name.endsWith('/') && !SIGNATURE_FILE.test(e.name);
}

const isXml = (name: string): boolean => name === 'AndroidManifest.xml' || (name.startsWith('res/') && name.endsWith('.xml'));

/** Every difference between the two APKs, as readable messages; empty when they say the same. */
export async function compareApks(aapt2: string, expected: string, actual: string): Promise<string[]> {
  const problems: string[] = [];
  const a = ZipArchive.open(expected);
  const b = ZipArchive.open(actual);
  const hasTable = (z: ZipArchive): boolean => z.entries.some((e) => e.name === 'resources.arsc');
  // A config split of native libraries has no resource table: aapt2 has nothing to dump then.
  if (hasTable(a) || hasTable(b)) {
    const [resA, resB] = await Promise.all([dumpResources(aapt2, expected), dumpResources(aapt2, actual)]);
    const resDiff = firstDifference(resA, resB, { labels: LABELS });
    if (resDiff) problems.push(`aapt2 dump resources differs; ${resDiff.text}`);
  }

  const ea = new Map([...a.byName()].filter(([, e]) => comparable(e)));
  const eb = new Map([...b.byName()].filter(([, e]) => comparable(e)));
  const missing = [...ea.keys()].filter((n) => !eb.has(n));
  const extra = [...eb.keys()].filter((n) => !ea.has(n));
  if (missing.length > 0) problems.push(listed('entries missing from aabify’s APK', missing));
  if (extra.length > 0) problems.push(listed('entries only in aabify’s APK', extra));
  const differing: string[] = [];
  const methods: string[] = [];
  const xml: string[] = [];
  for (const [name, x] of ea) {
    const y = eb.get(name);
    if (!y) continue;
    if ((x.method === 0) !== (y.method === 0)) methods.push(`${name} (${x.method === 0 ? 'stored' : 'deflated'} by bundletool, ${y.method === 0 ? 'stored' : 'deflated'} by aabify)`);
    if (name === 'resources.arsc') continue;
    const bx = a.read(x);
    const by = b.read(y);
    // Binary XML is compared through aapt2's reading of it (string pool order is free).
    if (isXml(name) && bx.length >= 8 && bx.readUInt16LE(0) === 0x0003) xml.push(name);
    else if (!bx.equals(by)) differing.push(`${name} (${bx.length} bytes by bundletool, ${by.length} by aabify)`);
  }
  if (differing.length > 0) problems.push(listed('entries whose bytes differ', differing));
  if (methods.length > 0) problems.push(listed('entries stored on one side, deflated on the other', methods));
  if (xml.length > 0) {
    const [xa, xb] = await Promise.all([dumpXmlTrees(aapt2, expected, xml), dumpXmlTrees(aapt2, actual, xml)]);
    const d = firstDifference(xa, xb, { labels: LABELS });
    if (d) problems.push(`aapt2 dump xmltree differs (${xml.length} files); ${d.text}`);
  }
  return problems;
}

/** Stored entries whose data is not aligned: 4 bytes for every one, `soAlignment` for native libraries. */
export function misalignedEntries(apk: string, soAlignment: number): string[] {
  const bytes = readFileSync(apk);
  const out: string[] = [];
  for (const e of ZipArchive.open(apk).entries) {
    if (e.method !== 0 || e.name.endsWith('/')) continue;
    const at = e.localHeaderOffset;
    const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
    const want = e.name.endsWith('.so') ? soAlignment : 4;
    if (start % want !== 0) out.push(`${e.name} at ${start} (not a multiple of ${want})`);
  }
  return out;
}

export interface ApksignerVerdict {
  verifies: boolean;
  v1: boolean;
  v2: boolean;
  v3: boolean;
  output: string;
}

/** Debian's `apksigner verify --verbose --print-certs`. */
export async function apksignerVerify(apksigner: string, apk: string, minSdkVersion?: number): Promise<ApksignerVerdict> {
  const args = ['verify', '--verbose', '--print-certs', ...(minSdkVersion !== undefined ? ['--min-sdk-version', String(minSdkVersion)] : []), apk];
  const text = await run(apksigner, args).then(
    (r) => r.stdout.toString('utf8'),
    (e: Error) => e.message,
  );
  const scheme = (n: number): boolean => new RegExp(`Verified using v${n} scheme[^:]*: true`).test(text);
  return { verifies: /^Verifies$/m.test(text), v1: scheme(1), v2: scheme(2), v3: scheme(3), output: text };
}

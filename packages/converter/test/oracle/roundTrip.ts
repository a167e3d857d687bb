/**
 * Compares a source APK with the universal APK bundletool built from its AAB, and lists every
 * difference that is not bundletool's own doing or a repair the engine reported:
 * - `aapt2 dump resources`: every package, type, entry, id, configuration and value;
 * - `aapt2 dump xmltree` of the manifest, element by element, attribute by attribute;
 * - every other entry: res/ binary XML through `aapt2 dump xmltree`, the rest byte for byte
 *   (inflated), apart from APK signature files, which no bundle keeps; and what the APK stored
 *   uncompressed must still be stored.
 */
import { firstDifference } from './diff.js';
import { normaliseResourceDump } from './resourceDump.js';
import { SIGNATURE_FILE, dumpResources, dumpXmlTree, dumpXmlTrees } from './tools.js';
import { NO_REPAIRS, namesInDump, normaliseXmlDump, type RepairAllowance } from './xmlTree.js';
import { ZipArchive, type ZipEntry } from './zip.js';

export interface ReportWarning {
  code: string;
  message: string;
  detail?: string;
}

/** Entries bundletool adds to every universal APK. */
export const BUNDLETOOL_ADDED_ENTRIES = new Set(['res/xml/splits0.xml']);

/** Entries compared through dumps rather than bytes. */
const DUMPED_ENTRIES = new Set(['AndroidManifest.xml', 'resources.arsc']);

/** Manifest attributes an engine may add that the source does not have (so are not in its dump). */
const ADDABLE_ATTRIBUTES = ['versionCode', 'versionName', 'hasCode', 'minSdkVersion', 'targetSdkVersion'];
/** Elements an engine may remove from a manifest (docs/aab-format.md "Validation: bundle and module"). */
const REMOVABLE_ELEMENTS = ['uses-split', 'uses-sdk-library'];

function warningText(w: ReportWarning): string {
  return `${w.code} ${w.message} ${w.detail ?? ''}`;
}

function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\w.-])${escaped}(?![\\w-])`).test(text);
}

/**
 * Warning codes by which the engine reports a change it made to the manifest. Other warnings only
 * inform (DEBUGGABLE_APP names android:debuggable but changes nothing), so they allow nothing; a
 * new repair code fails the round trip until it is listed here.
 */
export const MANIFEST_REPAIR_CODES = new Set([
  'VERSION_CODE_MISSING',
  'VERSION_CODE_OVERRIDDEN',
  'VERSION_CODE_NORMALIZED',
  'VERSION_NAME_OVERRIDDEN',
  'SDK_VERSION_NORMALIZED',
  'SDK_CODENAME_REPLACED',
  'HAS_CODE_SET_FALSE',
  'BUNDLETOOL_ATTRIBUTE_REMOVED',
  'BUNDLETOOL_METADATA_REMOVED',
  'EXTRACT_NATIVE_LIBS_TO_CONFIG',
]);

/**
 * The manifest attributes and elements the engine said it repaired: those its repair warnings
 * name (code, message or detail). Anything unnamed must come through unchanged.
 */
export function repairAllowance(warnings: readonly ReportWarning[], sourceManifestDump: readonly string[]): RepairAllowance {
  const names = namesInDump(sourceManifestDump);
  const attributeCandidates = new Set([...names.attributes, ...ADDABLE_ATTRIBUTES]);
  const attributes = new Set<string>();
  const elements = new Set<string>();
  for (const w of warnings) {
    if (!MANIFEST_REPAIR_CODES.has(w.code)) continue;
    const text = warningText(w);
    for (const a of attributeCandidates) if (mentions(text, a)) attributes.add(a);
    for (const e of REMOVABLE_ELEMENTS) if (mentions(text, e)) elements.add(e);
  }
  return { attributes, elements };
}

/** Whether a warning names this entry (a file the engine reported it dropped). */
export function entryReported(warnings: readonly ReportWarning[], name: string): boolean {
  return warnings.some((w) => warningText(w).includes(name));
}

const KNOWN_ABIS = 'armeabi|armeabi-v7a|arm64-v8a|x86|x86_64|mips|mips64|riscv64|arm64-v8a-hwasan';
const NATIVE_LIBRARY = new RegExp(`^lib/(${KNOWN_ABIS})/([^/]+\\.so|wrap\\.sh)$`);

const LIB_DIRECTORY_FILE = new RegExp(`^lib/(${KNOWN_ABIS})/[^/]+$`);

/**
 * Where the engine put a source entry it reported moving (NATIVE_FILES_MOVED: files of a known
 * ABI directory that are not libraries go to assets/lib/<abi>/), checked against the same rule;
 * when the APK already has that asset the engine drops the lib/ file instead (NATIVE_FILES_DROPPED).
 */
export function movedEntries(warnings: readonly ReportWarning[], sourceNames: ReadonlySet<string>): (name: string) => string | undefined {
  if (!warnings.some((w) => w.code === 'NATIVE_FILES_MOVED')) return () => undefined;
  return (name) => {
    if (!LIB_DIRECTORY_FILE.test(name) || NATIVE_LIBRARY.test(name)) return undefined;
    const target = `assets/${name}`;
    return sourceNames.has(target) ? undefined : target;
  };
}

/** Files an `aapt2 dump resources` output references: `(file) res/x.png type=PNG`. */
export function referencedFiles(resourceDump: readonly string[]): Set<string> {
  const files = new Set<string>();
  for (const l of resourceDump) {
    const m = /\(file\) (\S+) type=/.exec(l);
    if (m) files.add(m[1]);
  }
  return files;
}

/**
 * Which source entries the engine may leave out: those a warning names, and whole classes of
 * files a warning code announces (its detail lists only the first 20), each checked against an
 * independent reason why the file has no place in a bundle.
 */
export function droppableEntries(warnings: readonly ReportWarning[], sourceResourceDump: readonly string[]): (name: string) => boolean {
  const codes = new Set(warnings.map((w) => w.code));
  const referenced = referencedFiles(sourceResourceDump);
  return (name) => {
    if (entryReported(warnings, name)) return true;
    if (codes.has('UNREFERENCED_RESOURCES_DROPPED') && name.startsWith('res/') && !referenced.has(name)) return true;
    if (codes.has('RESOURCES_WITHOUT_TABLE_DROPPED') && name.startsWith('res/')) return true;
    if (codes.has('NATIVE_FILES_DROPPED') && name.startsWith('lib/') && !NATIVE_LIBRARY.test(name)) return true;
    if (codes.has('DEX_GAP_DROPPED') && /^classes\d*\.dex$/.test(name)) return true;
    if (codes.has('ASSET_TARGETING_NAME_DROPPED') && /^assets\/(.*\/)?[^/]*#[^/]*\//.test(name)) return true;
    return false;
  };
}

export function isBinaryXml(bytes: Buffer): boolean {
  return bytes.length >= 8 && bytes.readUInt16LE(0) === 0x0003 && bytes.readUInt16LE(2) === 0x0008;
}

export interface EntryComparison {
  /** In the source, not in the universal APK, and not reported. */
  missing: string[];
  /** In the universal APK, not in the source, and not bundletool's. */
  extra: string[];
  /** Same name, different content (non-XML), with sizes. */
  differing: string[];
  /** Binary XML under res/ present on both sides: compare through dumps. */
  xmlFiles: string[];
  /**
   * Stored uncompressed in the APK, compressed after the round trip: the app may open it with
   * openFd/openRawResourceFd, which needs it stored (docs/aab-format.md "What we set in BundleConfig").
   */
  compressed: string[];
}

/**
 * bundletool alone decides how dex files are stored: uncompressed only in its uncompressed-dex
 * (Android S+) variant, compressed in a universal APK, whatever the APK did (docs/aab-format.md "What we set in BundleConfig").
 */
const DEX = /^classes\d*\.dex$/;

function comparable(e: ZipEntry): boolean {
  return !e.name.endsWith('/') && !SIGNATURE_FILE.test(e.name) && e.name !== 'stamp-cert-sha256' && !DUMPED_ENTRIES.has(e.name);
}

export function compareEntries(
  source: ZipArchive,
  universal: ZipArchive,
  droppable: (name: string) => boolean = () => false,
  keptCompressed: (name: string) => boolean = () => false,
  movedTo: (name: string) => string | undefined = () => undefined,
): EntryComparison {
  const src = new Map([...source.byName()].filter(([, e]) => comparable(e)));
  const out = new Map([...universal.byName()].filter(([, e]) => comparable(e)));
  const result: EntryComparison = { missing: [], extra: [], differing: [], xmlFiles: [], compressed: [] };
  const movedTargets = new Set<string>();
  for (const [name, e] of src) {
    const target = movedTo(name) ?? name;
    if (target !== name) movedTargets.add(target);
    const o = out.get(target);
    if (!o) {
      if (!droppable(name)) result.missing.push(name);
      continue;
    }
    if (e.method === 0 && o.method !== 0 && !DEX.test(name) && !keptCompressed(name)) result.compressed.push(name);
    const a = source.read(e);
    if (name.startsWith('res/') && isBinaryXml(a)) {
      result.xmlFiles.push(name);
      continue;
    }
    const b = universal.read(o);
    if (!a.equals(b)) result.differing.push(`${name} (${a.length} bytes in the APK, ${b.length} after the round trip)`);
  }
  for (const name of out.keys()) {
    if (!src.has(name) && !movedTargets.has(name) && !BUNDLETOOL_ADDED_ENTRIES.has(name)) result.extra.push(name);
  }
  return result;
}

export interface RoundTripInput {
  aapt2: string;
  source: string;
  universal: string;
  warnings?: readonly ReportWarning[];
  /** Whether entries stored in the APK must stay stored (default true; see EntryComparison). */
  checkStored?: boolean;
}

const LABELS: [string, string] = ['source APK', 'universal APK from our AAB'];

function listed(title: string, names: readonly string[]): string {
  const shown = names.slice(0, 10).map((n) => `    ${n}`);
  if (names.length > 10) shown.push(`    ... and ${names.length - 10} more`);
  return `${title} (${names.length}):\n${shown.join('\n')}`;
}

/** Every unexplained difference, as readable messages; empty when the round trip is faithful. */
export async function compareRoundTrip(input: RoundTripInput): Promise<string[]> {
  const { aapt2, source, universal } = input;
  const warnings = input.warnings ?? [];
  const problems: string[] = [];

  const [resA, resB] = await Promise.all([dumpResources(aapt2, source), dumpResources(aapt2, universal)]);
  const resDiff = firstDifference(normaliseResourceDump(resA), normaliseResourceDump(resB), { labels: LABELS });
  if (resDiff) problems.push(`aapt2 dump resources differs; ${resDiff.text}`);

  const [manA, manB] = await Promise.all([
    dumpXmlTree(aapt2, source, 'AndroidManifest.xml'),
    dumpXmlTree(aapt2, universal, 'AndroidManifest.xml'),
  ]);
  const repairs = repairAllowance(warnings, manA);
  const manDiff = firstDifference(
    normaliseXmlDump(manA, { manifest: true, repairs }),
    normaliseXmlDump(manB, { manifest: true, repairs }),
    { labels: LABELS },
  );
  if (manDiff) problems.push(`AndroidManifest.xml (aapt2 dump xmltree) differs; ${manDiff.text}`);

  const zipA = ZipArchive.open(source);
  const zipB = ZipArchive.open(universal);
  const unprotected = (name: string): boolean => warnings.some((w) => w.code === 'STORED_ENTRY_NOT_PROTECTED' && warningText(w).includes(name));
  const moved = movedEntries(warnings, new Set(zipA.byName().keys()));
  const entries = compareEntries(zipA, zipB, droppableEntries(warnings, resA), unprotected, moved);
  if (entries.missing.length > 0) problems.push(listed('entries missing after the round trip', entries.missing));
  if (entries.extra.length > 0) problems.push(listed('entries added by the round trip', entries.extra));
  if (entries.differing.length > 0) problems.push(listed('entries whose bytes differ', entries.differing));
  if (input.checkStored !== false && entries.compressed.length > 0) problems.push(listed('entries stored uncompressed in the APK but compressed after the round trip', entries.compressed));

  const xmlProblem = await compareXmlFiles(aapt2, source, universal, entries.xmlFiles);
  if (xmlProblem) problems.push(xmlProblem);
  return problems;
}

/** All res/ XML files in one aapt2 call per side; on a mismatch, finds the first differing file. */
async function compareXmlFiles(aapt2: string, source: string, universal: string, files: readonly string[]): Promise<string | undefined> {
  if (files.length === 0) return undefined;
  const [a, b] = await Promise.all([dumpXmlTrees(aapt2, source, files), dumpXmlTrees(aapt2, universal, files)]);
  if (!firstDifference(normaliseXmlDump(a), normaliseXmlDump(b))) return undefined;
  for (const f of files) {
    const [fa, fb] = await Promise.all([dumpXmlTree(aapt2, source, f), dumpXmlTree(aapt2, universal, f)]);
    const d = firstDifference(normaliseXmlDump(fa, { repairs: NO_REPAIRS }), normaliseXmlDump(fb, { repairs: NO_REPAIRS }), { labels: LABELS });
    if (d) return `${f} (aapt2 dump xmltree) differs; ${d.text}`;
  }
  return 'res/ XML dumps differ as a whole but no single file differs (dump concatenation?)';
}

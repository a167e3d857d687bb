/**
 * Every corpus app's pre-publication checklist (`checkApp`, as `aabify check` prints it), with
 * what it says Google Play refuses checked against independent tools: Debian's aapt (badging and
 * the manifest's xmltree) for debuggable, testOnly, targetSdk and the components without
 * android:exported; GNU readelf for the alignment of the 64-bit libraries' PT_LOAD segments; the
 * APK's own listing for the ABIs. `AABIFY_PRINT_CHECKLISTS=1` prints every checklist.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prePublicationChecklist, type PlayCheckStatus } from '@aabify/shared/playChecklist';
import { checkApp } from '../src/index.js';
import { listCorpus, requireCorpus } from './helpers/corpus.js';
import { requireOracles, type Oracles } from './helpers/oracles.js';
import { dumpBadging } from './oracle/badging.js';
import { run } from './oracle/tools.js';
import { elementName, parseAttribute, parseXmlTree, type DumpNode } from './oracle/xmlTree.js';
import { ZipArchive } from './oracle/zip.js';

const AT = new Date('2026-11-27T12:00:00Z');
/** Play's targetSdk floor at AT (playTargetSdkRequirement). */
const TARGET_FLOOR = 36;
const ABI_64: Record<string, string> = { armeabi: 'arm64-v8a', 'armeabi-v7a': 'arm64-v8a', x86: 'x86_64' };

type Expected = Partial<Record<string, PlayCheckStatus>>;

function attrs(node: DumpNode): Map<string, string> {
  return new Map(node.attributes.flatMap((a) => {
    const p = parseAttribute(a.text);
    return p ? [[p.name, p.value] as const] : [];
  }));
}

function walk(nodes: readonly DumpNode[], visit: (n: DumpNode, parent?: DumpNode) => void, parent?: DumpNode): void {
  for (const n of nodes) {
    visit(n, parent);
    walk(n.children, visit, n);
  }
}

/** What aapt, readelf and the zip listing say the checklist must show for these codes. */
async function expectedStatuses(o: Pick<Oracles, 'aapt' | 'readelf'>, apk: string, dir: string): Promise<Expected> {
  const badgingText = (await run(o.aapt, ['dump', 'badging', apk])).stdout.toString('utf8');
  const badging = await dumpBadging(o.aapt, apk);
  const tree = parseXmlTree((await run(o.aapt, ['dump', 'xmltree', apk, 'AndroidManifest.xml'])).stdout.toString('utf8').split('\n'));
  const target = badging.targetSdk;
  const out: Expected = {};
  out.debuggable = /^application-debuggable$/m.test(badgingText) ? 'blocker' : 'ok';
  // No targetSdkVersion at all is the oldest target; a codename (IceCreamSandwich) gets no row.
  if ((target !== undefined && target < TARGET_FLOOR) || !/^targetSdkVersion:/m.test(badgingText)) out.targetSdk = 'blocker';

  let testOnly = false;
  let undeclared = 0;
  walk(tree, (n) => {
    const name = elementName(n.text);
    const a = attrs(n);
    if (name === 'application' && a.get('testOnly')?.endsWith('0xffffffff')) testOnly = true;
    if (['activity', 'activity-alias', 'service', 'receiver'].includes(name ?? '') && n.children.some((c) => elementName(c.text) === 'intent-filter') && !a.has('exported')) undeclared++;
  });
  if (testOnly) out.testOnly = 'blocker';
  if (undeclared > 0) out.exported = target !== undefined && target >= 31 ? 'blocker' : 'warning';

  const zip = ZipArchive.open(apk);
  const libs = zip.entries.filter((e) => /^lib\/[^/]+\/[^/]+\.so$/.test(e.name));
  const abis = new Set(libs.map((e) => e.name.split('/')[1]));
  if ([...abis].some((a) => ABI_64[a] && !abis.has(ABI_64[a]))) out.abi64 = 'blocker';
  else if (abis.has('arm64-v8a') || abis.has('x86_64')) out.abi64 = 'ok';
  let unaligned = false;
  for (const e of libs.filter((l) => ['arm64-v8a', 'x86_64'].includes(l.name.split('/')[1]))) {
    const file = join(dir, e.name.replace(/\//g, '_'));
    writeFileSync(file, zip.read(e));
    const loads = (await run(o.readelf, ['-lW', file])).stdout.toString('utf8').split('\n').filter((l) => /^\s*LOAD\s/.test(l));
    if (loads.some((l) => Number(l.trim().split(/\s+/).pop()) < 0x4000)) unaligned = true;
  }
  if (unaligned) out.pageSize16k = target !== undefined && target >= 35 ? 'blocker' : 'warning';
  else if (abis.has('arm64-v8a') || abis.has('x86_64')) out.pageSize16k = 'ok';
  return out;
}

describe('every corpus app: the pre-publication checklist says what independent tools say', function () {
  this.timeout(120_000);
  const corpus = listCorpus() ?? [];
  let o: Pick<Oracles, 'aapt' | 'readelf'>;
  let dir = '';
  before(function () {
    o = requireOracles(this, 'aapt', 'readelf');
    requireCorpus(this);
    dir = mkdtempSync(join(tmpdir(), 'aabify-checklists-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  if (corpus.length === 0) {
    it('corpus_absent_skipped', function () {
      requireCorpus(this);
    });
  }

  for (const apk of corpus) {
    it(`checklist_${apk.name}_blockersAndNativeRowsAreTrue`, async () => {
      const app = await checkApp(apk.path);
      const rows = prePublicationChecklist(app, AT).filter((c) => !app.notChecked.includes(c.code));
      if (process.env.AABIFY_PRINT_CHECKLISTS === '1') {
        console.log(`\n      ${apk.file}:\n${rows.map((r) => `        [${r.status}] ${r.code}: ${r.title}`).join('\n')}`);
      }
      const expected = await expectedStatuses(o, apk.path, dir);
      const shown = Object.fromEntries(rows.map((r) => [r.code, r.status]));
      for (const [code, status] of Object.entries(expected)) expect(shown[code], `${apk.file}: ${code}`).to.equal(status);
      // No blocker beyond those the tools confirm.
      const blockers = rows.filter((r) => r.status === 'blocker').map((r) => r.code);
      expect(blockers.filter((c) => expected[c] !== 'blocker'), `${apk.file}: unconfirmed blockers`).to.deep.equal([]);
    });
  }
});

import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildZip, TempDir } from './helpers/zipBuilder.js';

const src = (p: string): string => pathToFileURL(fileURLToPath(new URL(`../src/${p}`, import.meta.url))).href;

/**
 * In a process of its own (V8's flags are the process's): optionally keeps the young generation
 * small, lets the engine start its verifier thread (whose heap set-up resets V8's flags), then
 * allocates objects that survive scavenges — once the thread has proven the entries, or at once,
 * while the thread is still booting — and prints the new space's size in MB.
 */
function newSpaceMbAfterChurn(zip: string, keep: boolean, churnWhileThreadBoots = false): number {
  const churn = `
    const kept = [];
    for (let i = 0; i < 3e6; i++) {
      kept.push({ i, a: [i] });
      if (kept.length > 200000) kept.splice(0, 100000);
    }`;
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { tuneV8ForConversion } from '${src('v8flags.ts')}';
    import { BackgroundVerifier, ZipReader } from '${src('zip/index.ts')}';
    if (${keep}) tuneV8ForConversion();
    const r = await ZipReader.open(${JSON.stringify(zip)});
    const v = new BackgroundVerifier(r, r.entries, undefined, { workerFrom: 0 });
    ${churnWhileThreadBoots ? churn : ''}
    if (!(await Promise.all(r.entries.map((e) => v.settle(e)))).every(Boolean)) throw new Error('not proven');
    ${churnWhileThreadBoots ? '' : churn}
    await v.cancel();
    await r.close();
    console.log(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576);
  `;
  const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(res.status, res.stderr).to.equal(0);
  return Number(res.stdout.trim());
}

describe('v8flags', () => {
  let tmp: TempDir;
  beforeEach(() => {
    tmp = new TempDir();
  });
  afterEach(() => tmp.cleanup());

  it('tuneV8ForConversion_newSpaceStaysSmallAfterTheVerifierThreadStarts', function () {
    this.timeout(60_000);
    const zip = tmp.file('a.zip', buildZip([{ name: 'a', data: randomBytes(300_000) }]));
    expect(newSpaceMbAfterChurn(zip, true)).to.be.at.most(8);
    // The same allocations without it: V8 grows the new space (what the call prevents).
    expect(newSpaceMbAfterChurn(zip, false)).to.be.above(8);
  });

  it('tuneV8ForConversion_mainThreadAllocatingWhileTheVerifierThreadBoots_newSpaceStillSmall', function () {
    // The thread's heap set-up resets the flags a few ms after it is created, ~35 ms before its
    // own first statement sets them again: the engine sets them again as soon as that set-up is
    // done, so the main thread's scavenges in between cannot double its new space. The engine
    // waits for the set-up 30 ms at most (v8flags.ts): on a starved machine (CI runs two suites
    // side by side) the thread can come later, and the growth that allows is the documented
    // limit, so the smallest of up to three runs counts. Flags never set again fail all three.
    this.timeout(90_000);
    const zip = tmp.file('a.zip', buildZip([{ name: 'a', data: randomBytes(300_000) }]));
    let smallest = Number.POSITIVE_INFINITY;
    for (let run = 0; run < 3 && smallest > 8; run++) smallest = Math.min(smallest, newSpaceMbAfterChurn(zip, true, true));
    expect(smallest).to.be.at.most(8);
    expect(newSpaceMbAfterChurn(zip, false, true)).to.be.above(8);
  });
});

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enableMemorySaverMode } from '../src/memorySaver.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const serverDir = fileURLToPath(new URL('..', import.meta.url));
const MODULE = new URL('../src/memorySaver.ts', import.meta.url).href;

/**
 * A Node whose V8 pools freed pages (V8 13+, Node 24+): this one, else the newest line
 * scripts/fetch-node.mjs put in .cache/node.
 */
function nodeWithPagePool(): string | undefined {
  if (Number(process.versions.v8.split('.')[0]) >= 13) return process.execPath;
  const cache = join(repoRoot, '.cache', 'node');
  if (!existsSync(cache)) return undefined;
  const newest = readdirSync(cache)
    .filter((v) => Number(v.split('.')[0]) >= 24 && existsSync(join(cache, v, 'bin', 'node')))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .at(-1);
  return newest ? join(cache, newest, 'bin', 'node') : undefined;
}

/**
 * One process on `node`: memory saver mode as the server's entry sets it (or not), then one
 * thread that builds and drops a conversion's worth of objects twenty times over and stays
 * alive, as an engine thread between tasks. Answers how much the process's RSS grew.
 */
function rssGrowthWithAThreadThatAllocated(node: string, saver: boolean): { enabled: boolean; grownMb: number } {
  const script = `
    import { Worker } from 'node:worker_threads';
    import { once } from 'node:events';
    const { enableMemorySaverMode } = await import(${JSON.stringify(MODULE)});
    const enabled = ${saver} ? enableMemorySaverMode() : false;
    const before = process.memoryUsage().rss;
    const thread = new Worker(\`
      const { parentPort } = process.getBuiltinModule('node:worker_threads');
      let entries = [];
      for (let round = 0; round < 20; round++) {
        entries = [];
        for (let i = 0; i < 40960; i++) entries.push({ i, name: 'entry ' + i, values: new Array(20).fill(i) });
      }
      entries = null;
      parentPort.postMessage('done');
      setInterval(() => {}, 1000);\`, { eval: true });
    await once(thread, 'message');
    const grownMb = (process.memoryUsage().rss - before) / 1048576;
    console.log(JSON.stringify({ enabled, grownMb }));
    await thread.terminate();`;
  const out = execFileSync(node, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: serverDir, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1)!) as { enabled: boolean; grownMb: number };
}

describe('memory saver mode (the server entry sets it)', function () {
  this.timeout(120000);

  it('memorySaver_nodeWithPagePool_aThreadBetweenTasksGivesBackWhatItFreed', function () {
    const node = nodeWithPagePool();
    if (!node) {
      const reason = 'nenhum Node 24 ou mais novo (node scripts/fetch-node.mjs 24)';
      if (process.env.CI === 'true') throw new Error(reason);
      console.log(`    (pulado: ${reason})`);
      this.skip();
    }
    // The smaller of two runs each way: a busy machine only ever makes a run hold more.
    const without = Math.min(...[0, 1].map(() => rssGrowthWithAThreadThatAllocated(node, false).grownMb));
    const runs = [0, 1].map(() => rssGrowthWithAThreadThatAllocated(node, true));
    expect(runs.every((r) => r.enabled)).to.equal(true);
    const withSaver = Math.min(...runs.map((r) => r.grownMb));
    // Without the mode the thread keeps its freed pages resident (~240 MB here); with it,
    // only its live heap and its own start-up cost (~33 MB).
    expect(withSaver, `RSS grew ${withSaver.toFixed(0)} MB with the mode, ${without.toFixed(0)} MB without`).to.be.below(without / 2);
  });

  it('memorySaver_v8WithoutTheMode_orSetOnTheCommandLine_leftAsItIs', () => {
    // Node 20 and 22 (V8 11 and 12) have no such flag: setting it would print V8's error.
    expect(enableMemorySaverMode('11.3.244.8-node.38', [])).to.equal(false);
    expect(enableMemorySaverMode('12.4.254.21-node.33', [])).to.equal(false);
    // An operator's own choice wins, either way.
    expect(enableMemorySaverMode('13.6.233.17-node.63', ['--no-memory-saver-mode'])).to.equal(false);
    expect(enableMemorySaverMode('13.6.233.17-node.63', ['--memory-saver-mode=false'])).to.equal(false);
  });
});

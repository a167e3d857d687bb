/**
 * Start-up of the CLI as the published package runs it (the release bundle `npm run pack:cli`
 * ships, packages/cli/dist/aabify.js, rebuilt first): `aabify --help`, `aabify --version` and
 * `aabify convert --local` of the corpus APKs of about 1 MB, each a new process, against bare
 * `node -e 0`. Targets: `--help` under 150 ms and `convert --local` of a 1 MB APK
 * under 250 ms, whole process. Prints min and median wall time and CPU time (user + sys, from
 * `/usr/bin/time`, 10 ms steps) and the load average: on a busy machine the minimum and the CPU
 * time are the steadier figures. Each command's minimum is also given above `node -e 0`'s minimum
 * in the same run: what the CLI adds to Node's own start, which varies from host to host (62 ms
 * on the machine the targets were set on, 72-87 ms on slower ones). With `--against REV`, the same
 * commands of that git revision's release bundle run alternately with the working tree's.
 *
 *   npx tsx bench/cli-start.ts [--runs 20] [--against HEAD~5]
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { listCorpus } from '../packages/converter/test/helpers/corpus.js';
import { BENCH_OUT, argValue, buildCli, buildRevisionCli, loadLine, measureNode } from './measure.js';

const runs = Number(argValue('--runs', '20'));
const against = argValue('--against');
const bundles: { label: string; bundle: string }[] = [{ label: against ? 'after' : '', bundle: buildCli() }];
if (against) bundles.unshift({ label: 'before', bundle: buildRevisionCli(against).bundle });

/** Corpus APKs of 0.8 to 1.5 MB: "a 1 MB APK". */
const smallApks = (listCorpus() ?? []).filter((a) => a.bytes >= 800_000 && a.bytes <= 1_500_000).sort((a, b) => a.bytes - b.bytes);
// A fresh checkout has no bench/out yet.
mkdirSync(BENCH_OUT, { recursive: true });
const out = join(BENCH_OUT, 'cli-start.aab');
const env = { ...process.env, AABIFY_URL: '' };

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs each side's command `runs` times, the sides alternating, and prints each side's figures
 * (with `nodeMinMs`, `node -e 0`'s minimum in this run, each minimum above it); returns the first
 * side's minimum.
 */
async function measure(what: string, sides: { label: string; script?: string }[], args: string[], nodeMinMs?: number): Promise<number> {
  const wall = sides.map((): number[] => []);
  const cpu = sides.map((): number[] => []);
  for (let i = 0; i < runs + 2; i++) {
    for (const [k, side] of sides.entries()) {
      const m = side.script ? await measureNode(side.script, args, env) : await measureNode('-e', ['0'], env);
      if (m.status !== 0) throw new Error(`${what} exited ${m.status}: ${m.stderr.slice(-400)}`);
      if (i < 2) continue; // two warm-up runs fill the file cache
      wall[k].push(m.wallMs);
      if (m.cpuMs !== undefined) cpu[k].push(m.cpuMs);
    }
  }
  for (const [k, side] of sides.entries()) {
    const c = cpu[k];
    const cpuText = c.length ? ` · CPU min ${Math.min(...c).toFixed(0)} / median ${median(c).toFixed(0)} ms` : '';
    const min = Math.min(...wall[k]);
    const aboveNode = nodeMinMs !== undefined ? ` · node -e 0 + ${(min - nodeMinMs).toFixed(0)} ms` : '';
    console.log(`${`${side.label} ${what}`.trim().padEnd(52)} wall min ${min.toFixed(0)} / median ${median(wall[k]).toFixed(0)} ms${cpuText}${aboveNode}`);
  }
  return Math.min(...wall[0]);
}

const sides = bundles.map(({ label, bundle }) => ({ label, script: bundle }));
console.log(`node ${process.versions.node}, ${loadLine()}; ${runs} runs each`);
const nodeMinMs = await measure('node -e 0', [{ label: '' }], []);
await measure('aabify --help', sides, ['--help'], nodeMinMs);
await measure('aabify --version', sides, ['--version'], nodeMinMs);
for (const apk of smallApks) {
  await measure(`convert --local ${apk.file} (${(apk.bytes / 1e6).toFixed(1)} MB)`, sides, ['convert', '--local', apk.path, '-o', out, '--overwrite', '--json'], nodeMinMs);
}
rmSync(out, { force: true });
console.log(loadLine());

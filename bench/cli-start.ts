/**
 * Start-up of the CLI: `aabify --help` (and `--version`) run as a new process, against bare
 * `node -e 0`, on the bundle `npm run pack:cli` ships (packages/cli/dist/aabify.js, rebuilt
 * first). Target: `aabify --help` under 150 ms for the whole process. Prints min, median and
 * mean wall time and the load average (on a busy machine the minimum is the steadier figure;
 * `hyperfine -N 'node packages/cli/dist/aabify.js --help'` gives the same with CPU times).
 *
 *   npx tsx bench/cli-start.ts [--runs 30]
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CLI_DIR = join(REPO, 'packages', 'cli');
const BUNDLE = join(CLI_DIR, 'dist', 'aabify.js');
const at = process.argv.indexOf('--runs');
const runs = at > 0 ? Number(process.argv[at + 1]) : 30;

const built = spawnSync(process.execPath, ['build.mjs', '--release'], { cwd: CLI_DIR, stdio: 'inherit' });
if (built.status !== 0) process.exit(1);

function measure(label: string, args: string[]): void {
  const times: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const start = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore', env: { ...process.env, AABIFY_URL: '' } });
    const ms = performance.now() - start;
    if (r.status !== 0) throw new Error(`${label} exited ${r.status}`);
    if (i >= 3) times.push(ms); // three warm-up runs fill the file cache
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(`${label.padEnd(22)} min ${times[0].toFixed(0)} ms · median ${times[Math.floor(times.length / 2)].toFixed(0)} ms · mean ${mean.toFixed(0)} ms (${runs} runs)`);
}

console.log(`node ${process.versions.node}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
measure('node -e 0', ['-e', '0']);
measure('aabify --help', [BUNDLE, '--help']);
measure('aabify --version', [BUNDLE, '--version']);

// Root test command: every package's mocha suite (or its parts, `test:<part>` scripts), several at
// once (at most one per core, the longest first), each run even when another failed, so one run shows every failure. A suite's
// output is printed whole when it ends, under its own heading; the closing line gives the
// totals, and the exit code is non-zero on any failure.
//
//   node scripts/test.mjs                     # every package
//   node scripts/test.mjs converter cli       # some packages
//   node scripts/test.mjs --node 22,24        # also the suites that must pass on other Node lines
//   node scripts/test.mjs --jobs 1            # one suite at a time
//
// --node MAJOR[,MAJOR]: for each line (binaries from scripts/fetch-node.mjs), the engine's corpus
// tests, the CLI package's whole suite (the packed CLI installed and run included) and one whole
// server flow (scripts/server-flow.mjs) run on that Node too.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const MOCHA = join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js');
const MOCHA_CONFIG = join(repo, '.mocharc.cjs');
/** The engine's tests over the whole corpus: what a Node line's zlib, crypto or V8 could change. */
const CORPUS_TESTS = ['test/convertCorpus.test.ts', 'test/resourcesCorpus.test.ts'];
/**
 * Longest suites first, so the last to start is a short one: each suite's wall time in seconds
 * when run alone, one after another, on a busy 2-core machine (the serial run of 2026-11-27).
 */
const WEIGHT = {
  // Wall seconds at load ~20 (2026-11-28): the browser suites wait more than they compute (CPU a
  // third of their wall), so they are two parts that pack beside the CPU-bound ones.
  '@aabify/server test:browser': 1050,
  '@aabify/server test:sweep': 420,
  '@aabify/converter test:splits': 430,
  // 410 s, plus ~300 s for build-apks' fidelity tests over the corpus (apksFidelity.test.ts, load 9)
  '@aabify/converter test:engine': 700,
  '@aabify/server test:api': 600,
  '@aabify/cli': 420,
  '@aabify/dashboard': 17,
  '@aabify/shared': 1,
};

function parseArgs(argv) {
  const opts = { only: [], nodes: [], jobs: availableParallelism() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--node') opts.nodes.push(...value().split(',').filter(Boolean));
    else if (a === '--jobs') opts.jobs = Number(value());
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else opts.only.push(a);
  }
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1) usage('--jobs must be a positive integer');
  return opts;
}

function usage(message) {
  console.error(`test: ${message}\nusage: node scripts/test.mjs [PACKAGE ...] [--node MAJOR[,MAJOR]] [--jobs N]`);
  process.exit(2);
}

const opts = parseArgs(process.argv.slice(2));
const listed = spawnSync('npx', ['lerna', 'ls', '--all', '--toposort', '--json', '--loglevel', 'silent'], { cwd: repo, env, encoding: 'utf8' });
if (listed.status !== 0) {
  console.error(listed.stderr);
  process.exit(1);
}
const packages = JSON.parse(listed.stdout).filter(
  (p) => opts.only.length === 0 || opts.only.includes(p.name) || opts.only.includes(p.name.replace('@aabify/', '')),
);
const summaryDir = mkdtempSync(join(tmpdir(), 'aabify-test-'));

/** A suite to run: a command in a folder, with its own file of mocha summaries. */
function job(title, cwd, cmd, args, weight, extraEnv = {}) {
  return { title, cwd, cmd, args, weight, env: extraEnv, summary: join(summaryDir, `${title.replace(/[^\w.-]+/g, '_')}.jsonl`) };
}

/**
 * A package whose suite is in parts (`test:<part>` scripts, which between them run what `test`
 * runs) gives one job per part, so one long suite does not keep a core to itself to the end.
 */
function packageJobs(p) {
  const scripts = JSON.parse(readFileSync(join(p.location, 'package.json'), 'utf8')).scripts ?? {};
  const parts = Object.keys(scripts).filter((name) => name.startsWith('test:'));
  if (parts.length === 0) return [job(p.name, p.location, 'npm', ['test', '--silent'], WEIGHT[p.name] ?? 10)];
  return parts.map((part) => job(`${p.name} ${part}`, p.location, 'npm', ['run', part, '--silent'], WEIGHT[`${p.name} ${part}`] ?? 10));
}

const jobs = packages.flatMap(packageJobs);
for (const major of opts.nodes) {
  const fetched = spawnSync(process.execPath, [join(repo, 'scripts', 'fetch-node.mjs'), major], { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const node = fetched.stdout.trim();
  if (fetched.status !== 0 || !existsSync(node)) {
    console.error(`test: no Node ${major} (scripts/fetch-node.mjs failed)`);
    process.exit(1);
  }
  // Its bin folder first on PATH: what the suites spawn as `node` (or `npm`) runs on it too.
  const onPath = { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const mocha = (files) => [MOCHA, '--config', MOCHA_CONFIG, ...files];
  jobs.push(
    job(`@aabify/converter corpus on Node ${major}`, join(repo, 'packages', 'converter'), node, mocha(CORPUS_TESTS), 60, onPath),
    job(`@aabify/cli on Node ${major}`, join(repo, 'packages', 'cli'), node, mocha(['test/**/*.test.ts']), WEIGHT['@aabify/cli'], onPath),
    job(`server flow on Node ${major}`, repo, node, [join(repo, 'scripts', 'server-flow.mjs')], 20, onPath),
  );
}
jobs.sort((a, b) => b.weight - a.weight);

/**
 * CPU seconds (user + system) of this process's children that have ended so far, from Linux's
 * /proc/self/stat (cutime + cstime: each counts its own waited-for descendants); undefined
 * elsewhere. Read when a suite's process ends, the growth since the last reading is that suite's.
 */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS;
  } catch {
    return undefined;
  }
}
let cpuSeen = childrenCpuSeconds();

/**
 * The suites still running, with their output so far. If this run is stopped, each suite's whole
 * process group is stopped too (servers and browsers included) and what it printed is shown.
 */
const running = new Map();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const [j, { child, chunks }] of running) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      process.stdout.write(`\n### ${j.title} (stopped by ${signal} while running)\n\n${Buffer.concat(chunks).toString('utf8')}\n`);
    }
    process.exit(130);
  });
}

/** Runs one suite with its output collected; resolves with its exit status, wall and CPU time. */
function runJob(j) {
  return new Promise((resolve) => {
    const started = Date.now();
    // A process group of its own, so that stopping this run can stop everything the suite started.
    const child = spawn(j.cmd, j.args, { cwd: j.cwd, env: { ...env, ...j.env, AABIFY_TEST_SUMMARY: j.summary }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const chunks = [];
    running.set(j, { child, chunks });
    let cpu;
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('error', (e) => chunks.push(Buffer.from(`${e.message}\n`)));
    child.on('exit', () => {
      const now = childrenCpuSeconds();
      if (now !== undefined && cpuSeen !== undefined) cpu = now - cpuSeen;
      cpuSeen = now;
    });
    child.on('close', (code, signal) => {
      running.delete(j);
      resolve({ status: code ?? signal, seconds: (Date.now() - started) / 1000, cpu, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}


const timing = (r) => `${r.seconds.toFixed(0)} s${r.cpu === undefined ? '' : `, CPU ${r.cpu.toFixed(0)} s`}`;

const results = new Map();
const started = Date.now();
let next = 0;
async function worker() {
  while (next < jobs.length) {
    const j = jobs[next++];
    console.log(`… ${j.title} started`);
    const r = await runJob(j);
    results.set(j, r);
    console.log(`\n### ${j.title} (${r.status === 0 ? 'ok' : `failed: ${r.status}`}, ${timing(r)})\n`);
    process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(opts.jobs, jobs.length) }, worker));

let passed = 0, failed = 0, skipped = 0;
const failedJobs = [];
/** Each failed test with its suite and error, printed again last. */
const failedTests = [];
for (const j of jobs) {
  const r = results.get(j);
  const lines = existsSync(j.summary) ? readFileSync(j.summary, 'utf8').split('\n').filter(Boolean) : [];
  for (const line of lines) {
    const s = JSON.parse(line);
    passed += s.passes; failed += s.failures; skipped += s.pending;
    for (const f of s.failed ?? []) failedTests.push({ job: j.title, ...f });
  }
  if (r.status !== 0) {
    failedJobs.push(j.title);
    // A suite that crashed before reporting still counts as a failure.
    if (lines.length === 0) failed += 1;
  }
}
console.log(`\nSuites (wall, CPU): ${jobs.map((j) => `${j.title} ${timing(results.get(j))}`).join(' · ')} — ${((Date.now() - started) / 1000).toFixed(0)} s in all, ${opts.jobs} at a time`);
if (failedJobs.length) console.log(`Falharam: ${failedJobs.join(', ')}`);
for (const f of failedTests) {
  const where = f.file ? ` (${f.file.replace(`${repo}/`, '')})` : '';
  console.log(`\n✖ ${f.job}: ${f.title}${where}\n${f.error.replace(/^/gm, '    ')}`);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedJobs.length > 0 || failed > 0 ? 1 : 0);

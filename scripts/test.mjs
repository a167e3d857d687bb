// Root test command: every package's mocha suite, one after another in dependency order (as
// lerna sorts them), each run even when an earlier one failed, so one run shows every failure.
// Prints one closing line with the totals; exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const listed = spawnSync('npx', ['lerna', 'ls', '--all', '--toposort', '--json', '--loglevel', 'silent'], { env, encoding: 'utf8' });
if (listed.status !== 0) {
  console.error(listed.stderr);
  process.exit(1);
}
const only = process.argv.slice(2);
const packages = JSON.parse(listed.stdout)
  .filter((p) => only.length === 0 || only.includes(p.name) || only.includes(p.name.replace('@aabify/', '')));

const summary = join(mkdtempSync(join(tmpdir(), 'aabify-test-')), 'summary.jsonl');
const failedPackages = [];
for (const pkg of packages) {
  console.log(`\n### ${pkg.name}`);
  const run = spawnSync('npm', ['test', '--silent'], { cwd: pkg.location, stdio: 'inherit', env: { ...env, AABIFY_TEST_SUMMARY: summary } });
  if (run.status !== 0) failedPackages.push(pkg.name);
}

let passed = 0, failed = 0, skipped = 0;
const reported = new Set();
if (existsSync(summary)) {
  for (const line of readFileSync(summary, 'utf8').split('\n').filter(Boolean)) {
    const s = JSON.parse(line);
    passed += s.passes; failed += s.failures; skipped += s.pending;
    reported.add(s.cwd);
  }
}
// A suite that crashed before reporting still counts as a failure.
for (const pkg of packages) if (failedPackages.includes(pkg.name) && !reported.has(pkg.location)) failed += 1;
if (failedPackages.length) console.log(`\nFalharam: ${failedPackages.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedPackages.length > 0 || failed > 0 ? 1 : 0);

// Root test command: runs every package's mocha suite in dependency order through lerna,
// then prints one closing line with the totals. Exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const summary = join(mkdtempSync(join(tmpdir(), 'aabify-test-')), 'summary.jsonl');
const args = ['lerna', 'run', 'test', '--concurrency', '1', '--stream', '--no-bail', ...process.argv.slice(2)];
const run = spawnSync('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, AABIFY_TEST_SUMMARY: summary, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_SKIP_NX_CACHE: 'true' },
});
let passed = 0, failed = 0, skipped = 0;
if (existsSync(summary)) {
  for (const line of readFileSync(summary, 'utf8').split('\n').filter(Boolean)) {
    const s = JSON.parse(line);
    passed += s.passes; failed += s.failures; skipped += s.pending;
  }
}
const code = run.status ?? 1;
if (code !== 0 && failed === 0) failed = 1; // a suite that crashed before reporting still fails the run
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(code !== 0 || failed > 0 ? 1 : 0);

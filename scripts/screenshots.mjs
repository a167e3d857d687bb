// `npm run screenshots`: every screen of the dashboard at 390 and 1280 px, light and dark,
// written to test-artifacts/screenshots/screens/ (git-ignored) with an index.md listing them.
// It runs the route sweep (packages/server/test/e2e/sweep.test.ts), so the same checks hold.
// Needs Chromium and the APK corpus like the browser tests; builds what is missing first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'packages', 'dashboard', 'dist', 'index.html'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync(
  'npx',
  ['mocha', '--config', '../../.mocharc.cjs', '--require', './test/setup.ts', 'test/e2e/sweep.test.ts'],
  { cwd: join(root, 'packages', 'server'), stdio: 'inherit', env: { ...process.env, AABIFY_SCREENSHOTS: '1' } },
);
if (run.status === 0) console.log(`Capturas em ${join(root, 'test-artifacts', 'screenshots', 'screens')} (lista: index.md)`);
process.exit(run.status ?? 1);

/**
 * Real-browser tests: playwright-core driving Debian's Chromium against a server started by
 * the test. Without Chromium the test skips with a line saying so — except in CI, which has
 * it, where a missing browser fails the run.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
export const SCREENSHOT_DIR = join(repoRoot, 'test-artifacts', 'screenshots');

/** Skips the current test/suite when Chromium is absent (never in CI). */
export function requireChromium(ctx: Mocha.Context): void {
  if (existsSync(CHROMIUM_PATH)) return;
  if (process.env.CI === 'true') throw new Error(`Chromium não encontrado em ${CHROMIUM_PATH} (instale o pacote Debian "chromium")`);
  console.log(`    (pulado: Chromium não encontrado em ${CHROMIUM_PATH}; instale o pacote Debian "chromium")`);
  ctx.skip();
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** Builds the dashboard when its bundle is missing, so `npm test` works on a fresh clone. */
export function ensureDashboardBuilt(): string {
  const dir = join(repoRoot, 'packages', 'dashboard');
  const dist = join(dir, 'dist');
  // api-docs.html (the /api/docs page) came later than index.html: an older build lacks it.
  if (!existsSync(join(dist, 'index.html')) || !existsSync(join(dist, 'api-docs.html'))) {
    const r = spawnSync(process.execPath, ['build.mjs'], { cwd: dir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('falha ao compilar o painel');
  }
  return dist;
}

/**
 * Builds the dashboard now, whatever is in dist: for tests of a screen newer than a build a
 * developer may have lying around (CI builds before testing anyway).
 */
export function buildDashboardNow(): string {
  const dir = join(repoRoot, 'packages', 'dashboard');
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`falha ao compilar o painel: ${r.stderr}`);
  return join(dir, 'dist');
}

export async function screenshotPath(name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}

/**
 * A web-first assertion: reads the page again until the assertion holds or the time is up,
 * because the page updates after the action that a test awaited (React renders, lazy screens,
 * socket events). Without it a read right after a click can see the previous state.
 */
export async function soon<T>(read: () => Promise<T>, assert: (value: T) => void, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    try {
      assert(value);
      return value;
    } catch (err) {
      if (Date.now() >= deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

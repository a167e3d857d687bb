/**
 * Real-browser tests: playwright-core driving Debian's Chromium against a server started by
 * the test. Without Chromium the test skips with a line saying so — except in CI, which has
 * it, where a missing browser fails the run.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

let dashboardBuild: string | undefined;

/**
 * The dashboard as these tests serve it: built from the working tree once per test process, into
 * a folder of its own — never `dist/`, which a developer's server or another suite running beside
 * this one may be serving (the build empties its folder first). Removed when the process exits.
 */
export function ensureDashboardBuilt(): string {
  if (dashboardBuild) return dashboardBuild;
  const out = mkdtempSync(join(tmpdir(), 'aabify-dashboard-'));
  const r = spawnSync(process.execPath, ['build.mjs'], { cwd: join(repoRoot, 'packages', 'dashboard'), encoding: 'utf8', env: { ...process.env, AABIFY_DASHBOARD_OUTDIR: out } });
  if (r.status !== 0) throw new Error(`falha ao compilar o painel: ${r.stderr}`);
  process.on('exit', () => rmSync(out, { recursive: true, force: true }));
  dashboardBuild = out;
  return out;
}

/** The same build: every browser test serves the working tree's dashboard. */
export const buildDashboardNow = ensureDashboardBuilt;

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

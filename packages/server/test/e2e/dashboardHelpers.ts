/**
 * Helpers of the dashboard's browser flows: pages that record console errors, a session put
 * straight into localStorage (as a sign-in leaves it), screenshots in both themes, and a
 * recorder of what the conversion page showed over time.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiUser } from '@aabify/shared';
import type { User } from '../../src/models/index.js';
import { presentUser } from '../../src/presenters/user.js';
import { tokenFor } from '../helpers/factories.js';
import { screenshotPath } from '../helpers/browser.js';
import type { TestServer } from '../helpers/server.js';

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far. */
  errors: string[];
}

/** Console errors the browser itself prints for failed network requests we provoke on purpose. */
const EXPECTED_NETWORK_NOISE = /Failed to load resource|WebSocket connection to|net::ERR_/;

export async function openPage(
  browser: Browser,
  opts: { theme?: 'light' | 'dark'; session?: { token: string; user: ApiUser }; width?: number } = {},
): Promise<OpenPage> {
  const context = await browser.newContext({
    colorScheme: opts.theme ?? 'light',
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    acceptDownloads: true,
    viewport: { width: opts.width ?? 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  if (opts.session) {
    await context.addInitScript((s: { token: string; user: string }) => {
      if (!sessionStorage.getItem('e2e-session-set')) {
        localStorage.setItem('aabify-token', s.token);
        localStorage.setItem('aabify-user', s.user);
        sessionStorage.setItem('e2e-session-set', '1');
      }
    }, { token: opts.session.token, user: JSON.stringify(opts.session.user) });
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !EXPECTED_NETWORK_NOISE.test(m.text()) && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

export function sessionOf(server: TestServer, user: User): { token: string; user: ApiUser } {
  return { token: tokenFor(server, user), user: presentUser(user) };
}

/** Screenshots of the current screen in the light and the dark theme (then back to the first). */
export async function shootBoth(page: Page, name: string): Promise<void> {
  const original = await page.getAttribute('html', 'data-bs-theme');
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-bs-theme', t), theme);
    await page.screenshot({ path: await screenshotPath(`dashboard-${name}-${theme}`), fullPage: true });
  }
  await page.evaluate((t) => document.documentElement.setAttribute('data-bs-theme', t ?? 'light'), original);
}

export interface ConverterTimeline {
  trackerStates: string[];
  sawQueueCard: boolean;
  sawProcessingCard: boolean;
  logCounts: number[];
  indicator: string[];
  sawUpdatedFlash: boolean;
  sawLostBanner: boolean;
  percents: string[];
}

/** Records, on every DOM change, what the conversion page shows (read with readTimeline). */
export async function recordConverterTimeline(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const t = { trackerStates: [] as string[], sawQueueCard: false, sawProcessingCard: false, logCounts: [] as number[], indicator: [] as string[], sawUpdatedFlash: false, sawLostBanner: false, percents: [] as string[] };
    (window as unknown as { __timeline: typeof t }).__timeline = t;
    const push = <T>(list: T[], v: T) => list[list.length - 1] !== v && list.push(v);
    const look = () => {
      const steps = [...document.querySelectorAll('[data-testid="tracker"] [data-step]')].map((e) => `${e.getAttribute('data-step')}:${e.getAttribute('data-state')}`).join(',');
      if (steps) push(t.trackerStates, steps);
      if (document.querySelector('[data-testid="queue-card"]')) t.sawQueueCard = true;
      if (document.querySelector('[data-testid="processing-card"]')) t.sawProcessingCard = true;
      if (document.querySelector('[data-testid="updated-flash"]')) t.sawUpdatedFlash = true;
      if (document.querySelector('[data-testid="connection-lost"]')) t.sawLostBanner = true;
      const count = document.querySelector('[data-testid="log-count-all"]')?.textContent;
      if (count) push(t.logCounts, Number(count));
      const ind = document.querySelector('[data-testid="connection-indicator"]')?.textContent;
      if (ind) push(t.indicator, ind);
      const pct = document.querySelector('[data-testid="status-percent"]')?.textContent;
      if (pct) push(t.percents, pct);
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

export function readTimeline(page: Page): Promise<ConverterTimeline> {
  return page.evaluate(() => (window as unknown as { __timeline: ConverterTimeline }).__timeline);
}

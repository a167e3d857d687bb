/**
 * Helpers of the dashboard's browser flows: pages that record console errors, a session put
 * straight into localStorage (as a sign-in leaves it), screenshots in both themes, and a
 * recorder of what the conversion page showed over time.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ApiUser } from '@aabify/shared';
import type { User } from '../../src/models/index.js';
import { presentUser } from '../../src/accounts/userPresenter.js';
import { buildAdmin, tokenFor } from '../helpers/factories.js';
import { ensureDashboardBuilt, launchBrowser, requireChromium, screenshotPath } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SLOW_ENGINE } from '../helpers/conversions.js';

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
    await page.screenshot({ path: await screenshotPath(`dashboard-${name}-${theme}`), fullPage: true, animations: 'disabled' });
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
// A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.
const TIMELINE_SCRIPT = `(() => {
  const t = { trackerStates: [], sawQueueCard: false, sawProcessingCard: false, logCounts: [], indicator: [], sawUpdatedFlash: false, sawLostBanner: false, percents: [] };
  window.__timeline = t;
  const push = (list, v) => { if (list[list.length - 1] !== v) list.push(v); };
  const q = (id) => document.querySelector('[data-testid="' + id + '"]');
  const look = () => {
    const steps = Array.from(document.querySelectorAll('[data-testid="tracker"] [data-step]')).map((e) => e.getAttribute('data-step') + ':' + e.getAttribute('data-state')).join(',');
    if (steps) push(t.trackerStates, steps);
    if (q('queue-card')) t.sawQueueCard = true;
    if (q('processing-card')) t.sawProcessingCard = true;
    if (q('updated-flash')) t.sawUpdatedFlash = true;
    if (q('connection-lost')) t.sawLostBanner = true;
    const count = q('log-count-all');
    if (count) push(t.logCounts, Number(count.textContent));
    const ind = q('connection-indicator');
    if (ind) push(t.indicator, ind.textContent);
    const pct = q('status-percent');
    if (pct) push(t.percents, pct.textContent);
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`;

/** Records, on every DOM change, what the conversion page shows (read with readTimeline). */
export async function recordConverterTimeline(page: Page): Promise<void> {
  await page.addInitScript(TIMELINE_SCRIPT);
}

/** Forgets what was recorded so far (same page). */
export async function resetTimeline(page: Page): Promise<void> {
  await page.evaluate(TIMELINE_SCRIPT);
}

export function readTimeline(page: Page): Promise<ConverterTimeline> {
  return page.evaluate(() => (window as unknown as { __timeline: ConverterTimeline }).__timeline);
}

/** How long a flow waits for a screen, a URL or a toast. */
export const UI_WAIT_MS = 15000;

export async function waitForPath(page: Page, expected: string): Promise<void> {
  await page.waitForURL((u) => u.pathname === expected, { timeout: UI_WAIT_MS });
}

/** Waits for a toast holding this text. */
export function toastWith(page: Page, text: string): Promise<void> {
  return page.getByTestId('toast').filter({ hasText: text }).first().waitFor({ timeout: UI_WAIT_MS });
}

/**
 * A server serving the built dashboard whose engine takes 2.5 s per stage (so a browser can
 * watch a conversion run), with first-run setup already done by this admin.
 */
export async function startSlowConversionServer(adminEmail: string): Promise<TestServer> {
  const server = await startTestServer(
    { DASHBOARD_DIR: ensureDashboardBuilt() },
    { conversions: { engine: { module: SLOW_ENGINE, config: { stageDelayMs: 2500 } }, claimRetryMs: 200 } },
  );
  const r = await fetch(`${server.url}/api/setup/initialize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: adminEmail, password: 'admin-senha-123' }),
  });
  if (r.status !== 201) throw new Error(`setup/initialize answered ${r.status}`);
  return server;
}

/** What `useDashboardSuite` gives a describe block's tests once its `before` hooks ran. */
export interface DashboardSuite {
  readonly server: TestServer;
  readonly browser: Browser;
}

/**
 * A describe block's server (serving the built dashboard) and browser: started in a `before`
 * hook, stopped after the block. Call it inside `describe`, after any `before` hook the server's
 * environment depends on (`env` is read when the server starts, e.g. an SMTP server's URL).
 * An administrator exists unless `withAdmin` is false, so the app shows its screens, not
 * first-run setup.
 */
export function useDashboardSuite(options: { env?: () => Record<string, string> | Promise<Record<string, string>>; withAdmin?: boolean } = {}): DashboardSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  before(async function () {
    requireChromium(this);
    server = await startTestServer({ ...(await options.env?.()), DASHBOARD_DIR: ensureDashboardBuilt() });
    if (options.withAdmin !== false) await buildAdmin(server);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} not started: useDashboardSuite's before hook has not run`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

/** Picks a theme in the top bar's (or auth screen's) 'Tema' menu: 'Claro', 'Escuro' or 'Sistema'. */
export async function chooseTheme(page: Page, label: 'Claro' | 'Escuro' | 'Sistema'): Promise<void> {
  await page.getByTestId('theme-toggle').click();
  await page.getByRole('menuitemradio', { name: label }).click();
}

/** A company's billing details as the purchase's billing form takes them (a valid CNPJ). */
export const E2E_COMPANY = {
  document: '11.222.333/0001-81',
  name: 'Aplicativos Ação Ltda',
  cep: '30130010',
  street: 'Avenida Afonso Pena',
  number: '1500',
  district: 'Centro',
  city: 'Belo Horizonte',
  state: 'MG',
} as const;

/** Fills the billing details form a first purchase opens (the e-mail comes prefilled with the account's). */
export async function fillBillingForm(page: Page, details: Partial<Record<keyof typeof E2E_COMPANY, string>> = E2E_COMPANY): Promise<void> {
  const form = page.getByTestId('billing-form');
  await form.waitFor({ timeout: UI_WAIT_MS });
  const labels: Record<Exclude<keyof typeof E2E_COMPANY, 'state'>, string> = {
    document: 'CPF ou CNPJ',
    name: 'Nome completo ou razão social',
    cep: 'CEP',
    street: 'Logradouro',
    number: 'Número',
    district: 'Bairro',
    city: 'Município',
  };
  for (const [key, label] of Object.entries(labels) as [keyof typeof labels, string][]) {
    const value = details[key];
    if (value !== undefined) await form.getByLabel(label, { exact: true }).fill(value);
  }
  if (details.state !== undefined) await form.getByLabel('UF').selectOption(details.state);
}


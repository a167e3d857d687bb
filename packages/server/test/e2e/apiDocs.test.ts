/**
 * /api/docs in a real browser under a strict Content-Security-Policy (`script-src 'self'`, no
 * inline script or style): the reference reads /api/openapi.json and shows every resource's
 * routes, a route's parameters, body and answers, and the filter narrows them.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ensureDashboardBuilt, launchBrowser, requireChromium, screenshotPath, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const STRICT_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'";

describe('the API reference at /api/docs', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    requireChromium(this);
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('apiDocs_strictCsp_rendersEveryResourceAndFilters', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(e.message));
    // The page as a server with helmet's strict policy would send it.
    await page.route('**/api/docs', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': STRICT_CSP } });
    });
    const res = await page.goto(`${server.url}/api/docs`);
    expect(res?.status()).to.equal(200);
    await page.getByRole('heading', { name: /aabify API/ }).waitFor();
    const operations = await soon(() => page.locator('details.card').count(), (n) => expect(n).to.be.greaterThan(90));
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Record<string, object> };
    expect(operations).to.equal(Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0));

    const status = page.locator('details.card', { hasText: '/api/conversion/status/{id}' });
    await status.locator('summary').click();
    await status.getByText('Respostas').waitFor();
    expect(await status.textContent()).to.contain('sessão ou token de API').and.contain('404').and.contain('fileName');
    await page.screenshot({ path: await screenshotPath('api-docs'), fullPage: false });

    await page.getByLabel('Filtrar rotas').fill('keystore');
    await soon(() => page.locator('details.card').count(), (n) => expect(n).to.equal(3));
    expect(violations, violations.join('\n')).to.deep.equal([]);
    await context.close();
  });
});

import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon, screenshotPath } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('dashboard in a real browser', function () {
  this.timeout(120000);
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

  it('page_loads_showsTheFirstScreenAndTogglesThemeThatPersists', async () => {
    const context = await browser.newContext({ colorScheme: 'light', locale: 'pt-BR' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(server.url);
    await soon(() => page.getAttribute('html', 'lang'), (v) => expect(v).to.equal('pt-BR'));
    // A fresh server: every path shows the first-run setup screen.
    await page.getByRole('heading', { name: 'Configuração Inicial' }).waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('light'));

    await page.getByRole('button', { name: 'Mudar para o tema escuro' }).click();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await page.screenshot({ path: await screenshotPath('setup-dark'), fullPage: true, animations: 'disabled' });

    await page.reload();
    await page.getByRole('heading', { name: 'Configuração Inicial' }).waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('noStoredChoice_followsSystemPreference', async () => {
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(server.url);
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await soon(() => page.getByRole('button', { name: 'Mudar para o tema claro' }).count(), (v) => expect(v).to.equal(1));
    await context.close();
  });
});

import { expect } from 'chai';
import { soon, screenshotPath } from '../helpers/browser.js';
import { chooseTheme, useDashboardSuite } from './dashboardHelpers.js';

describe('dashboard in a real browser', function () {
  this.timeout(120000);
  const ui = useDashboardSuite({ withAdmin: false });


  it('page_loads_showsTheFirstScreenAndTogglesThemeThatPersists', async () => {
    const context = await ui.browser.newContext({ colorScheme: 'light', locale: 'pt-BR' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(ui.server.url);
    await soon(() => page.getAttribute('html', 'lang'), (v) => expect(v).to.equal('pt-BR'));
    // A fresh server: every path shows the first-run setup screen.
    await page.getByRole('heading', { name: 'Configuração Inicial' }).waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('light'));

    await soon(() => page.getByTestId('theme-toggle').textContent(), (v) => expect(v).to.equal('Tema: Sistema'));
    await chooseTheme(page, 'Escuro');
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await soon(() => page.getByTestId('theme-toggle').textContent(), (v) => expect(v).to.equal('Tema: Escuro'));
    await page.screenshot({ path: await screenshotPath('setup-dark'), fullPage: true, animations: 'disabled' });

    await page.reload();
    await page.getByRole('heading', { name: 'Configuração Inicial' }).waitFor();
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('noStoredChoice_followsSystemPreference', async () => {
    const context = await ui.browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(ui.server.url);
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await soon(() => page.getByTestId('theme-toggle').textContent(), (v) => expect(v).to.equal('Tema: Sistema'));
    await context.close();
  });

  it('sistema_afterAChoice_followsTheSystemAgainAndForgetsTheStoredChoice', async () => {
    const context = await ui.browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(ui.server.url);
    await chooseTheme(page, 'Claro');
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('light'));
    await chooseTheme(page, 'Sistema');
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('dark'));
    await soon(() => page.evaluate(() => localStorage.getItem('aabify-theme')), (v) => expect(v).to.equal(null));
    // The system changes its mind while the page is open: the page follows.
    await page.emulateMedia({ colorScheme: 'light' });
    await soon(() => page.getAttribute('html', 'data-bs-theme'), (v) => expect(v).to.equal('light'));
    await context.close();
  });
});

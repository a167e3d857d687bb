/**
 * The help centre in a real browser: /ajuda reachable signed out, its search finding
 * "assinatura", an article opening, the support contact from the settings, and the screens that
 * used to cite repository files linking articles (Tokens de API also the API reference).
 */
import { expect } from 'chai';
import { soon } from '../helpers/browser.js';
import { buildAdmin, buildUser } from '../helpers/factories.js';
import { openPage, sessionOf, shootBoth, useDashboardSuite, waitForPath } from './dashboardHelpers.js';

describe('dashboard: help centre in a real browser', function () {
  this.timeout(120_000);
  const ui = useDashboardSuite();


  it('help_isReachableSignedOut_searchFindsAssinatura_andShowsTheSupportContact', async () => {
    await ui.server.ctx.settings.set('support.email', 'suporte@empresa.com.br');
    await ui.server.ctx.settings.set('support.whatsapp', '+55 11 91234-5678');
    const { page, context, errors } = await openPage(ui.browser);
    await page.goto(`${ui.server.url}/ajuda`);
    await page.getByRole('heading', { name: 'Ajuda' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/ajuda');
    await soon(() => page.getByTestId('help-result').count(), (v) => expect(v).to.equal(7));
    await soon(() => page.getByTestId('support-email').textContent(), (v) => expect(v).to.equal('suporte@empresa.com.br'));
    expect(await page.getByTestId('support-whatsapp').getAttribute('href')).to.equal('https://wa.me/5511912345678');

    await page.getByLabel('Buscar na ajuda').fill('assinatura');
    await soon(() => page.getByTestId('help-result').first().textContent(), (v) => expect(v).to.contain('Assinatura do app e a chave de upload'));
    const results = await page.getByTestId('help-result').count();
    expect(results).to.be.within(1, 6);
    await shootBoth(page, 'help-search');
    await page.getByTestId('help-result').first().click();
    await waitForPath(page, '/ajuda/assinatura-e-chave-de-upload');
    await soon(() => page.getByTestId('help-article').textContent(), (v) => expect(v).to.contain('chave de upload'));

    await page.goto(`${ui.server.url}/ajuda`);
    await page.getByLabel('Buscar na ajuda').fill('palavra-que-nao-existe');
    await page.getByTestId('help-no-results').waitFor();
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('screensThatCitedRepositoryFiles_linkHelpArticles_andTokensLinkTheApiReference', async () => {
    const customer = await buildUser(ui.server);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    await page.goto(`${ui.server.url}/account/api-tokens`);
    const docs = page.getByTestId('api-docs-link');
    await docs.waitFor();
    expect(await docs.getAttribute('href')).to.equal('/api/docs');
    expect(await page.getByRole('link', { name: 'O CLI do aabify e pipelines de CI' }).getAttribute('href')).to.equal('/ajuda/cli-e-ci');
    expect(await page.locator('body').textContent()).to.not.contain('docs/');
    await page.goto(`${ui.server.url}/account/google-play`);
    await page.getByRole('link', { name: 'Publicar no Google Play' }).waitFor();
    expect(await page.locator('body').textContent()).to.not.contain('docs/');
    await page.getByRole('link', { name: 'Publicar no Google Play' }).click();
    await waitForPath(page, '/ajuda/publicar-no-google-play');
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('emptyPlans_showsTheSupportContact_andTheAdminDashboardSaysWhatStopsTheShop', async () => {
    await ui.server.ctx.settings.set('support.email', 'suporte@empresa.com.br');
    const customer = await buildUser(ui.server);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    await page.goto(`${ui.server.url}/plans`);
    await soon(() => page.getByTestId('plans-empty').getByTestId('support-email').textContent(), (v) => expect(v).to.equal('suporte@empresa.com.br'));
    await context.close();

    const admin = await buildAdmin(ui.server);
    const adminPage = await openPage(ui.browser, { session: sessionOf(ui.server, admin) });
    await adminPage.page.goto(`${ui.server.url}/admin`);
    const warnings = adminPage.page.getByTestId('operator-warnings');
    await warnings.waitFor();
    for (const code of ['NO_BUYABLE_PLAN', 'NO_SMTP', 'NO_PUBLIC_URL']) await adminPage.page.getByTestId(`operator-warning-${code}`).waitFor();
    await shootBoth(adminPage.page, 'admin-operator-warnings');
    await adminPage.page.getByTestId('operator-warning-NO_BUYABLE_PLAN').getByRole('link').click();
    await waitForPath(adminPage.page, '/admin/plans');
    expect([...errors, ...adminPage.errors]).to.deep.equal([]);
    await adminPage.context.close();
  });
});

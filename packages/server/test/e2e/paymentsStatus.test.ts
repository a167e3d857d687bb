/**
 * The payment provider as the admin sees it in a real browser: a Mercado
 * Pago key saved under another data dir's encryption key puts a red banner on every admin
 * screen, marks the key in Configurações, and the banner goes once the key is saved again;
 * with nothing configured the screens say plainly that the sandbox moves no real money; the plan
 * form says which provider charges the chosen currency, or that none does, before saving.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { PAYMENT_MESSAGES as M, planCurrencyUnsupportedMessage } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, screenshotPath, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { buildAdmin } from '../helpers/factories.js';
import type { User } from '../../src/models/index.js';
import { openPage, sessionOf, type OpenPage } from './dashboardHelpers.js';
import { MercadoPagoStandIn } from '../helpers/mercadoPagoStandIn.js';

const TOKEN = 'APP_USR-5550001-real-money-token-7788';

describe('admin screens: payment provider state in a real browser', function () {
  this.timeout(180000);
  let browser: Browser;
  let server: TestServer | undefined;
  let open: OpenPage | undefined;

  before(async function () {
    requireChromium(this);
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await open?.context.close();
    await server?.stop();
    open = undefined;
    server = undefined;
  });
  after(async () => browser?.close());

  async function adminPage(srv: TestServer, admin: User): Promise<Page> {
    open = await openPage(browser, { session: sessionOf(srv, admin), width: 1400 });
    return open.page;
  }

  it('keyUnderAnotherEncryptionKey_bannerOnEveryAdminScreenUntilSavedAgain', async () => {
    const databaseUrl = await createTestDatabase();
    const first = await startTestServer({}, { databaseUrl });
    await first.ctx.settings.set('payments.mercadopago.accessToken', TOKEN);
    await first.stop();
    // Another ENCRYPTION_KEY than the first process's: the stored key cannot be read.
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt(), ENCRYPTION_KEY: 'f0'.repeat(32) }, { databaseUrl });
    const page = await adminPage(server, await buildAdmin(server));

    await page.goto(`${server.url}/admin`);
    const banner = page.getByTestId('payments-unavailable-banner');
    await banner.waitFor();
    expect(await banner.textContent()).to.contain(M.unavailableTitle).and.contain(M.unavailableReasons.ACCESS_TOKEN_UNREADABLE);
    expect(await banner.textContent()).to.contain('A chave do Mercado Pago não pôde ser lida (foi salva com outra chave de criptografia). Cadastre-a de novo em Configurações.');
    await page.screenshot({ path: await screenshotPath('admin-payments-unavailable'), fullPage: true, animations: 'disabled' });

    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Compras' }).click();
    await page.getByTestId('payment-provider').waitFor();
    expect(await page.getByTestId('payments-unavailable-banner').isVisible()).to.equal(true);
    await soon(() => page.getByTestId('payment-provider').textContent(), (v) => expect(v).to.contain('Mercado Pago').and.contain('indisponível'));

    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Configurações' }).click();
    const problem = page.getByTestId('setting-payments-mercadopago-accessToken-problem');
    await problem.waitFor();
    expect(await problem.textContent()).to.contain('foi salvo com outra chave de criptografia');
    expect(await page.content()).to.not.contain(TOKEN);

    // Saving the key again (under this data dir's key) ends the error state at once.
    await page.locator('#setting-payments-mercadopago-accessToken-input').fill(TOKEN);
    await page.getByTestId('setting-payments-mercadopago-accessToken-save').click();
    await page.getByTestId('payments-unavailable-banner').waitFor({ state: 'detached' });
    await soon(() => page.getByTestId('payment-provider').textContent(), (v) => expect(v).to.contain('Mercado Pago').and.not.contain('indisponível'));
  });

  it('nothingConfigured_screensSaySandboxNoRealMoney', async () => {
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    const page = await adminPage(server, await buildAdmin(server));
    await page.goto(`${server.url}/admin/purchases`);
    await soon(() => page.getByTestId('payment-provider').textContent(), (v) => expect(v).to.contain('Sandbox: pagamentos simulados, nenhum dinheiro real'));
    expect(await page.getByTestId('payments-unavailable-banner').count()).to.equal(0);
  });

  it('planForm_withMercadoPagoOnly_saysBrlIsChargedAndUsdCannotBeActivated_beforeSaving', async () => {
    const mp = await MercadoPagoStandIn.start({ accessToken: TOKEN, webhookSecret: 'segredo-do-webhook-plano' });
    try {
      server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt(), MERCADOPAGO_ACCESS_TOKEN: TOKEN, MERCADOPAGO_API_URL: mp.url });
      const page = await adminPage(server, await buildAdmin(server));
      await page.goto(`${server.url}/admin/plans`);
      await page.getByRole('button', { name: 'Novo Plano' }).click();
      const form = page.getByTestId('plan-form');
      const hint = form.getByTestId('plan-currency-hint');
      await soon(() => hint.textContent(), (v) => expect(v).to.match(/^Cobrado por Mercado Pago \(PIX, cartão/));
      expect(await hint.getAttribute('data-warning')).to.equal('false');

      await form.getByLabel('Moeda').selectOption('USD');
      await soon(() => hint.textContent(), (v) => expect(v).to.equal(planCurrencyUnsupportedMessage('USD')));
      expect(await hint.getAttribute('data-warning')).to.equal('true');
      // Saving it active anyway is refused on the same field.
      await form.getByLabel('Nome').fill('Plano em dólar');
      await form.getByLabel('Preço').pressSequentially('9,90');
      await form.getByLabel('Créditos').fill('5');
      await form.getByTestId('plan-form-submit').click();
      await soon(() => form.locator('#plan-currency ~ .invalid-feedback').textContent(), (v) => expect(v).to.equal(planCurrencyUnsupportedMessage('USD')));
      expect(await server.ctx.models.Plan.count({ where: { name: 'Plano em dólar' } })).to.equal(0);
    } finally {
      await mp.close();
    }
  });
});

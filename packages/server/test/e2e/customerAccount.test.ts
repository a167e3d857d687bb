/**
 * A customer's own screens in a real browser: the Painel names the plan and lists the five most
 * recent conversions (each a link to its page); Conta › Perfil saves the name, switches an
 * optional e-mail off, and changes the e-mail through the link mailed to the new address.
 */
import { expect } from 'chai';
import { soon } from '../helpers/browser.js';
import { buildCreditUser, uniqueEmail } from '../helpers/factories.js';
import { buildPlan } from '../helpers/planFactories.js';
import { buildConversion } from '../helpers/adminFactories.js';
import { freePort } from '../helpers/postgres.js';
import { linkUrl, startTestSmtp, type TestSmtp } from '../helpers/smtpServer.js';
import { openPage, sessionOf, shootBoth, toastWith, useDashboardSuite, waitForPath } from './dashboardHelpers.js';

describe('dashboard: Painel and Conta › Perfil of a customer', function () {
  this.timeout(180000);
  let smtp: TestSmtp;

  before(async function () {
    smtp = await startTestSmtp();
  });
  after(async () => {
    await smtp?.close();
  });
  const ui = useDashboardSuite({ env: async () => {
    const port = await freePort();
    return { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url };
  } });

  it('painel_namesThePlanAndLinksTheFiveNewestConversions', async () => {
    const plan = await buildPlan(ui.server, { name: 'Pacote Profissional' });
    const customer = await buildCreditUser(ui.server, 8, { currentPlanId: plan.id });
    const made = [];
    for (let i = 0; i < 6; i++) {
      made.push(await buildConversion(ui.server, customer, { fileName: `app-${i}.apk`, status: 'completed', completedAt: new Date(), createdAt: new Date(Date.now() - (6 - i) * 60_000) }));
    }
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    try {
      await page.goto(`${ui.server.url}/dashboard`);
      await soon(() => page.getByTestId('plan-name').textContent(), (v) => expect(v).to.equal('Pacote Profissional'));
      const recent = page.getByTestId('recent-conversion');
      await soon(() => recent.count(), (n) => expect(n).to.equal(5));
      expect((await recent.allTextContents()).map((t) => /app-\d/.exec(t)?.[0])).to.deep.equal(['app-5', 'app-4', 'app-3', 'app-2', 'app-1']);
      await shootBoth(page, 'painel-recent');
      await recent.first().click();
      await waitForPath(page, `/conversions/${made[5]!.id}`);
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('perfil_nameSwitchAndEmailChangeThroughTheMailedLink', async () => {
    const customer = await buildCreditUser(ui.server, 2, { name: 'Cliente Antigo', emailVerifiedAt: new Date() });
    const newEmail = uniqueEmail('perfil-nova');
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, customer) });
    try {
      await page.goto(`${ui.server.url}/dashboard`);
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('link', { name: 'Perfil' }).click();
      await waitForPath(page, '/account/profile');
      await page.getByLabel('Nome', { exact: true }).fill('Joana Ação');
      await page.getByRole('button', { name: 'Salvar nome' }).click();
      await toastWith(page, 'Perfil salvo.');
      await soon(() => page.getByTestId('topbar-name').textContent(), (v) => expect(v).to.equal('Joana Ação'));
      expect((await customer.reload()).name).to.equal('Joana Ação');

      const failures = page.getByRole('checkbox', { name: /Conversão com falha/ });
      await failures.click();
      await toastWith(page, 'Preferências salvas.');
      await soon(async () => (await customer.reload()).notifyConversionFailures, (v) => expect(v).to.equal(false));
      expect(await page.getByRole('checkbox', { name: /Novidades do produto/ }).isChecked()).to.equal(false);

      await page.getByLabel('Novo e-mail').fill(newEmail);
      await page.getByRole('button', { name: 'Enviar link de confirmação' }).click();
      await soon(() => page.getByTestId('email-change-sent').textContent(), (v) => expect(v).to.include(newEmail));
      expect(await page.getByTestId('profile-email').textContent()).to.equal(customer.email);
      await shootBoth(page, 'profile');

      const mail = await smtp.waitFor((m) => m.rcptTo.includes(newEmail));
      await page.goto(linkUrl(mail, '/confirm-email-change'));
      await soon(() => page.getByTestId('email-change-done').textContent(), (v) => expect(v).to.include(newEmail));
      await page.goto(`${ui.server.url}/account/profile`);
      await soon(() => page.getByTestId('profile-email').textContent(), (v) => expect(v).to.equal(newEmail));
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});

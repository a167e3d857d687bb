/**
 * E-mail in a real browser: 'Esqueci minha senha' end to end with the mail read from a real SMTP
 * server on loopback and its link opened; and, without SMTP_URL, an admin reading a message in
 * Admin › E-mails (sandboxed frame, link hidden), the confirmation banner's 'Reenviar e-mail'
 * and the account menu's conversion-notice switch.
 */
import { createServer } from 'node:net';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, type AuthResponse } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor, uniqueEmail } from '../helpers/factories.js';
import { linkUrl, startTestSmtp, type TestSmtp } from '../helpers/smtpServer.js';
import { chooseTheme, openPage, sessionOf, shootBoth, toastWith, waitForPath } from './dashboardHelpers.js';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('email in a real browser', function () {
  this.timeout(180_000);
  let browser: Browser;

  before(async function () {
    requireChromium(this);
    browser = await launchBrowser();
  });
  after(async () => browser?.close());

  describe('with SMTP', () => {
    let smtp: TestSmtp;
    let server: TestServer;

    before(async () => {
      smtp = await startTestSmtp();
      // PUBLIC_URL is this very server, so the e-mailed link opens it.
      const port = await freePort();
      server = await startTestServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, DASHBOARD_DIR: ensureDashboardBuilt() });
      await buildAdmin(server);
    });
    after(async () => {
      await server?.stop();
      await smtp?.close();
    });

    it('forgotPassword_mailLinkNewPassword_signsInWithIt', async () => {
      const user = await buildCreditUser(server, 3, { name: 'Carla' });
      const { page, context, errors } = await openPage(browser);
      await page.goto(`${server.url}/login`);
      await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
      await waitForPath(page, '/forgot-password');
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByRole('button', { name: 'Enviar link' }).click();
      await soon(() => page.getByTestId('forgot-sent').textContent(), (v) => expect(v).to.include('enviamos um link'));
      await shootBoth(page, 'forgot-password-sent');

      const mail = await smtp.waitFor((m) => m.rcptTo.includes(user.email));
      const link = linkUrl(mail, '/reset-password');
      expect(link.startsWith(`${server.url.replace('localhost', '127.0.0.1')}/reset-password?token=`)).to.equal(true);
      await page.goto(link);
      await page.getByLabel('Nova senha', { exact: true }).fill('senha-nova-do-navegador');
      await page.getByLabel('Confirmar nova senha').fill('senha-nova-do-navegador');
      await shootBoth(page, 'reset-password');
      await page.getByRole('button', { name: 'Salvar nova senha' }).click();
      await toastWith(page, 'Senha alterada');
      await waitForPath(page, '/dashboard');
      await soon(() => page.getByTestId('topbar-name').textContent(), (v) => expect(v).to.equal('Carla'));

      // Signed out, the new password signs in; the link does not work twice.
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('button', { name: 'Sair', exact: true }).click();
      await waitForPath(page, '/login');
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Senha').fill('senha-nova-do-navegador');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await waitForPath(page, '/dashboard');

      // A used link is said as the page opens, before anything is typed: no form to fill in vain.
      await page.goto(link);
      await soon(() => page.getByTestId('reset-link-error').textContent(), (v) => expect(v).to.include('já foi usado ou expirou'));
      expect(await page.getByLabel('Nova senha', { exact: true }).count()).to.equal(0);
      await shootBoth(page, 'reset-password-used-link');
      await page.goto(`${server.url}/reset-password?token=${'x'.repeat(43)}`);
      await soon(() => page.getByTestId('reset-link-error').textContent(), (v) => expect(v).to.include('já foi usado ou expirou'));
      expect(await page.getByRole('button', { name: 'Salvar nova senha' }).count()).to.equal(0);
      expect(errors).to.deep.equal([]);
      await context.close();
    });
    it('verifyEmail_linkOpenedSignedOut_ownerSetsANewPassword_registrantLosesTheAccount', async () => {
      // Someone registered the address and is signed in; the mailbox's owner opens the welcome link.
      const email = uniqueEmail('dona-da-caixa');
      expect((await api(server).post('/auth/register', { acceptTerms: true, email, password: 'senha-de-quem-cadastrou' })).status).to.equal(201);
      const registrant = await api(server).post<AuthResponse>('/auth/login', { email, password: 'senha-de-quem-cadastrou' });
      const link = linkUrl(await smtp.waitFor((m) => m.to === email && /Bem-vindo/.test(m.subject)), '/verify-email');

      const { page, context, errors } = await openPage(browser, { width: 390 });
      await page.goto(link);
      await soon(() => page.getByTestId('verify-account-email').textContent(), (v) => expect(v).to.equal(email));
      await page.getByText(EMAIL_MESSAGES.verifySignInRequired).waitFor();
      await shootBoth(page, 'verify-email-password');
      await page.getByRole('button', { name: 'Não criei esta conta ou não sei a senha' }).click();
      await page.getByTestId('verify-new-password-warning').waitFor();
      await page.getByLabel('Nova senha', { exact: true }).fill('senha-da-dona-1');
      await page.getByLabel('Confirmar nova senha').fill('senha-diferente');
      await page.getByRole('button', { name: 'Criar senha e confirmar' }).click();
      await soon(() => page.getByText(ACCOUNT_MESSAGES.passwordsDontMatch).count(), (n) => expect(n).to.equal(1));
      await shootBoth(page, 'verify-email-new-password');
      await page.getByLabel('Confirmar nova senha').fill('senha-da-dona-1');
      await page.getByRole('button', { name: 'Criar senha e confirmar' }).click();
      await toastWith(page, 'E-mail confirmado e nova senha criada');
      await soon(() => page.getByTestId('topbar-email').textContent(), (v) => expect(v).to.equal(email));
      expect(errors).to.deep.equal([]);
      await context.close();

      // The registrant's session and password no longer open the account.
      expect((await api(server).get('/auth/me', registrant.body.token)).status).to.equal(401);
      expect((await api(server).post('/auth/login', { email, password: 'senha-de-quem-cadastrou' })).status).to.equal(401);
      const me = await api(server).post<AuthResponse>('/auth/login', { email, password: 'senha-da-dona-1' });
      expect(me.body.user.emailVerified).to.equal(true);
    });

    it('verifyEmail_linkOpenedSignedOut_withThePassword_signsIn_andSignedInConfirmsAtOnce', async () => {
      const email = uniqueEmail('outro-aparelho');
      expect((await api(server).post('/auth/register', { acceptTerms: true, email, password: 'minha-senha-1', name: 'Bia' })).status).to.equal(201);
      const link = linkUrl(await smtp.waitFor((m) => m.to === email && /Bem-vindo/.test(m.subject)), '/verify-email');

      // On another device: the account's password confirms and signs in.
      const { page, context, errors } = await openPage(browser);
      await page.goto(link);
      await page.getByLabel('Senha desta conta').fill('senha-errada');
      await page.getByRole('button', { name: 'Confirmar e entrar' }).click();
      await soon(() => page.getByText(EMAIL_MESSAGES.verifyPasswordWrong).count(), (n) => expect(n).to.equal(1));
      await page.getByLabel('Senha desta conta').fill('minha-senha-1');
      await page.getByRole('button', { name: 'Confirmar e entrar' }).click();
      await toastWith(page, EMAIL_MESSAGES.emailVerifiedSignedIn);
      // Signed in (a new account without a plan lands on /plans).
      await soon(() => page.getByTestId('topbar-name').textContent(), (v) => expect(v).to.equal('Bia'));
      expect(errors).to.deep.equal([]);
      await context.close();

      // Signed in to the account (the banner's "Reenviar e-mail"), the link confirms at once.
      const user = await buildUser(server, { name: 'Caio' });
      expect((await api(server).post('/auth/resend-verification', undefined, tokenFor(server, user))).status).to.equal(200);
      const resent = linkUrl(await smtp.waitFor((m) => m.to === user.email && /Confirme seu e-mail/.test(m.subject)), '/verify-email');
      const signedIn = await openPage(browser, { session: sessionOf(server, user) });
      await signedIn.page.goto(resent);
      await soon(() => signedIn.page.getByTestId('verify-result').textContent(), (v) => expect(v).to.equal(EMAIL_MESSAGES.emailVerified));
      expect(Boolean((await user.reload()).emailVerifiedAt)).to.equal(true);
      expect(signedIn.errors).to.deep.equal([]);
      await signedIn.context.close();
    });
  });

  describe('without SMTP (outbox)', () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    });
    after(async () => server?.stop());

    it('forgotPassword_withoutSmtp_saysNoLinkWillArriveShowsTheSupportContact_andTheAdminIsWarned', async () => {
      await server.ctx.settings.set('support.email', 'suporte@empresa.com.br');
      const admin = await buildAdmin(server);
      const user = await buildUser(server);
      const { page, context, errors } = await openPage(browser);
      try {
        await page.goto(`${server.url}/forgot-password`);
        await page.getByLabel('E-mail').fill(user.email);
        await page.getByRole('button', { name: 'Enviar link' }).click();
        const notice = page.getByTestId('forgot-no-delivery');
        await soon(() => notice.textContent(), (v) => expect(v).to.equal(EMAIL_MESSAGES.forgotPasswordNoDelivery));
        expect(await page.locator('body').textContent()).to.not.contain('1 hora');
        expect(await page.getByTestId('forgot-sent').count()).to.equal(0);
        await soon(() => page.getByTestId('support-email').textContent(), (v) => expect(v).to.equal('suporte@empresa.com.br'));
        await shootBoth(page, 'forgot-password-no-smtp');
        expect(errors).to.deep.equal([]);
      } finally {
        await context.close();
      }
      // The admin dashboard says a customer asked, and where to see it.
      const adminPage = await openPage(browser, { session: sessionOf(server, admin) });
      try {
        await adminPage.page.goto(`${server.url}/admin`);
        await soon(() => adminPage.page.locator('body').textContent(), (v) => expect(v).to.contain('Clientes pediram uma nova senha'), 15_000);
      } finally {
        await adminPage.context.close();
      }
    });

    it('adminEmails_viewMessage_sandboxedFrameLinkHidden', async () => {
      const admin = await buildAdmin(server);
      const user = await buildUser(server, { name: 'Duda' });
      expect((await api(server).post('/auth/forgot-password', { email: user.email })).status).to.equal(200);
      await soon(() => server.ctx.models.EmailMessage.count({ where: { to: user.email } }), (n) => expect(n).to.equal(1));

      const { page, context, errors } = await openPage(browser, { session: sessionOf(server, admin), width: 1400 });
      await page.goto(`${server.url}/admin`);
      await page.getByTestId('admin-sidebar').getByRole('link', { name: 'E-mails' }).click();
      await waitForPath(page, '/admin/emails');
      await page.getByTestId('outbox-notice').waitFor();
      const row = page.getByTestId('email-row').filter({ hasText: user.email });
      await soon(() => row.getByTestId('email-status').textContent(), (v) => expect(v).to.equal('Na fila'));
      await shootBoth(page, 'admin-emails');
      await row.getByRole('button', { name: /^Ver e-mail/ }).click();
      const frame = page.getByTestId('email-html');
      await frame.waitFor();
      expect(await frame.getAttribute('sandbox')).to.equal('');
      const body = page.frameLocator('[data-testid="email-html"]').locator('body');
      await soon(() => body.textContent(), (v) => {
        expect(v).to.include('Olá, Duda!');
        expect(v).to.include('link de uso único oculto');
      });
      expect(await page.frameLocator('[data-testid="email-html"]').locator('a[href*="token="]').count()).to.equal(0);
      await shootBoth(page, 'admin-email-viewer');
      await page.getByRole('tab', { name: 'Texto' }).or(page.getByRole('button', { name: 'Texto' })).first().click();
      await soon(() => page.getByTestId('email-text').textContent(), (v) => expect(v).to.include('Criar nova senha: [link de uso único oculto'));
      // The test's session script runs in every frame; in the sandboxed one it finds no storage
      // (no same-origin), which is the sandbox working. Nothing else may be logged.
      const sandboxed = errors.filter((e) => e.includes('The document is sandboxed'));
      expect(errors.filter((e) => !sandboxed.includes(e))).to.deep.equal([]);
      await context.close();
    });

    it('unconfirmedAddress_bannerResends_andConversionNoticeSwitch', async () => {
      const admin = await buildAdmin(server);
      // Without SMTP an admin cannot switch it on (nobody would get the link) …
      expect((await api(server).put('/admin/config/accounts.requireVerifiedEmail', { value: true }, tokenFor(server, admin))).status).to.equal(409);
      // … but it may have been on before SMTP_URL was removed.
      await server.ctx.settings.set('accounts.requireVerifiedEmail', true);
      try {
        const user = await buildCreditUser(server, 3);
        const { page, context, errors } = await openPage(browser, { session: sessionOf(server, user) });
        await page.goto(`${server.url}/dashboard`);
        const banner = page.getByTestId('verify-email-banner');
        await banner.waitFor();
        expect(await banner.textContent()).to.include(user.email);
        await banner.getByRole('button', { name: 'Reenviar e-mail' }).click();
        // Never "sent" when nothing can be delivered: the customer is told to ask support.
        await toastWith(page, EMAIL_MESSAGES.verificationNotDeliverable);
        expect(await server.ctx.models.EmailMessage.count({ where: { to: user.email, kind: 'verify_email' } })).to.equal(0);
        // The browser logs the refused call (503): expected here.
        errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('503')));
        await shootBoth(page, 'verify-email-banner');
        // "Reenviar e-mail" readable on the banner in both themes (WCAG AA: 4.5:1 for its text).
        for (const theme of ['Escuro', 'Claro'] as const) {
          await chooseTheme(page, theme);
          // Read again until the theme's colour transition has ended.
          await soon(
            async () => {
              const colors = await banner.getByRole('button', { name: 'Reenviar e-mail' }).evaluate((button) => [
                getComputedStyle(button).color,
                getComputedStyle(button.closest('[data-testid="verify-email-banner"]')!).backgroundColor,
              ]);
              return contrastRatio(colors[0]!, colors[1]!);
            },
            (ratio) => expect(ratio, `contrast in ${theme}`).to.be.at.least(4.5),
          );
        }

        // The optional e-mails' switches live in Conta › Perfil.
        await page.getByRole('button', { name: 'Menu da conta' }).click();
        await page.getByRole('link', { name: 'Perfil' }).click();
        await waitForPath(page, '/account/profile');
        const toggle = page.getByRole('checkbox', { name: /Conversão concluída/ });
        expect(await toggle.isChecked()).to.equal(true);
        await toggle.click();
        await toastWith(page, 'Preferências salvas.');
        await soon(async () => (await user.reload()).notifyConversions, (v) => expect(v).to.equal(false));
        expect((await user.reload()).notifyConversionFailures).to.equal(true);
        expect(errors).to.deep.equal([]);
        await context.close();
      } finally {
        await server.ctx.settings.unset('accounts.requireVerifiedEmail');
      }
    });
  });
});

/** WCAG contrast ratio of two opaque CSS colours (`rgb(r, g, b)`). */
function contrastRatio(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => Number(v) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

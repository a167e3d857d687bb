/**
 * Conta › Segurança in a real browser (Debian's Chromium) against a real server: an admin
 * enrols in two-factor sign-in from the account menu (QR code and key, first code, ten recovery
 * codes shown once), signs out, signs in again with the app's code in one browser and with a
 * recovery code in another; "Sessões ativas" lists both and "Encerrar" ends the other one
 * (that browser is sent back to sign-in). A token made in a session older than ten minutes asks
 * the password first and keeps the scopes chosen. Then the admin setting: an admin without
 * two-factor sign-in lands on the enrolment and nowhere else until done.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { SECURITY_MESSAGES, type ApiTokenJson, type TwoFactorStatus } from '@aabify/shared';
import { buildDashboardNow, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, tokenFor } from '../helpers/factories.js';
import { totpCode } from '../helpers/twoFactor.js';
import { openPage, shootBoth, toastWith, waitForPath } from './dashboardHelpers.js';
import type { User } from '../../src/models/index.js';

const STEP_MS = 30_000;

describe('dashboard: two-factor sign-in and sessions in a real browser', function () {
  this.timeout(240_000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    requireChromium(this);
    server = await startTestServer({ DASHBOARD_DIR: buildDashboardNow() });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The password step of /login; answers once the next screen (code step or home) is there. */
  async function enterPassword(page: Page, user: User): Promise<void> {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha').fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }
  async function enterCode(page: Page, code: string): Promise<void> {
    await page.getByTestId('two-factor-step').waitFor();
    await page.getByLabel('Código de verificação').fill(code);
    await page.getByTestId('two-factor-submit').click();
  }
  async function openSecurity(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('link', { name: 'Segurança', exact: true }).click();
    await waitForPath(page, '/account/security');
  }

  it('enrol_signOut_signInWithCodeAndWithRecoveryCode_sessionsListedOneEnded_tokenAfterThePasswordPrompt', async () => {
    const admin = await buildAdmin(server, { emailVerifiedAt: new Date() });
    const a = await openPage(browser);
    const b = await openPage(browser);
    try {
      // Signed in with the password alone, then Conta › Segurança.
      await enterPassword(a.page, admin);
      await waitForPath(a.page, '/admin');
      await openSecurity(a.page);
      await soon(() => a.page.getByTestId('two-factor-status').textContent(), (v) => expect(v).to.contain('Desativada'));
      await shootBoth(a.page, 'security-off');

      // Enrolment: the QR code and the key, a first code, the recovery codes once.
      await a.page.getByTestId('two-factor-begin').click();
      await a.page.getByAltText('Código QR para o aplicativo autenticador').waitFor();
      const secret = (await a.page.getByTestId('two-factor-secret').textContent())!.trim();
      expect(secret).to.match(/^[A-Z2-7]{32}$/);
      await shootBoth(a.page, 'security-enrol');
      await a.page.getByLabel('Código de 6 dígitos do aplicativo').fill(totpCode(secret));
      await a.page.getByTestId('two-factor-enable').click();
      await toastWith(a.page, SECURITY_MESSAGES.twoFactorEnabled);
      const codes = await a.page.getByTestId('recovery-code').allTextContents();
      expect(codes).to.have.length(10);
      await shootBoth(a.page, 'security-recovery-codes');
      await a.page.getByTestId('recovery-codes-done').click();
      await soon(() => a.page.getByTestId('two-factor-status').textContent(), (v) => expect(v).to.contain('Ativa desde').and.contain('restantes: 10'));

      // Signed out; in again with the password and then the app's code (the next one: the first was spent).
      await a.page.getByRole('button', { name: 'Menu da conta' }).click();
      await a.page.getByRole('button', { name: 'Sair', exact: true }).click();
      await waitForPath(a.page, '/login');
      await enterPassword(a.page, admin);
      await a.page.getByRole('heading', { name: 'Verificação em duas etapas' }).waitFor();
      await shootBoth(a.page, 'sign-in-code-step');
      await enterCode(a.page, totpCode(secret, Date.now() - 10 * STEP_MS));
      await soon(() => a.page.getByText(SECURITY_MESSAGES.twoFactorCodeInvalid).count(), (v) => expect(v).to.be.greaterThan(0));
      await enterCode(a.page, totpCode(secret, Date.now() + STEP_MS));
      await waitForPath(a.page, '/admin');

      // Another browser: the password and a recovery code.
      await enterPassword(b.page, admin);
      await enterCode(b.page, codes[0]!.toUpperCase());
      await waitForPath(b.page, '/admin');
      await openSecurity(b.page);
      await soon(() => b.page.getByTestId('two-factor-status').textContent(), (v) => expect(v).to.contain('restantes: 9'));

      // Admin › Auditoria: the refused code, then the sign-ins with their second step (the app's code, a recovery code).
      await b.page.goto(`${server.url}/admin/audit`);
      await b.page.getByTestId('audit-list').waitFor();
      const viewer = b.page.getByTestId('audit-viewer');
      const auditRows = () => b.page.getByTestId('audit-row');
      await b.page.getByLabel('Ação', { exact: true }).selectOption('auth.sign_in_failed');
      // Nobody was signed in to refuse: the row names the account it was about.
      await soon(() => auditRows().count(), (v) => expect(v).to.equal(1));
      await auditRows().getByRole('button', { name: 'Ver evento: Tentativa de entrada recusada' }).click();
      await soon(() => viewer.getByTestId('audit-details').textContent(), (v) => expect(v).to.contain('wrong_code'));
      await shootBoth(b.page, 'admin-audit-two-factor');
      await viewer.getByRole('button', { name: 'Fechar' }).click();
      await b.page.getByLabel('Ação', { exact: true }).selectOption('auth.sign_in');
      await b.page.getByLabel('Quem', { exact: true }).fill(admin.email);
      // Newest first: the recovery code, the app's code, the first sign-in with the password alone.
      await soon(() => auditRows().count(), (v) => expect(v).to.equal(3));
      for (const [index, factor] of [[0, 'recovery'], [1, 'totp']] as const) {
        await auditRows().nth(index).getByRole('button', { name: 'Ver evento: Entrada na conta' }).click();
        await soon(() => viewer.getByTestId('audit-details').textContent(), (v) => expect(v).to.contain('secondFactor').and.contain(factor));
        await viewer.getByRole('button', { name: 'Fechar' }).click();
      }
      await openSecurity(b.page);

      // Both sessions listed, this one marked; "Encerrar" ends the other.
      const rows = b.page.getByTestId('session-row');
      await soon(() => rows.count(), (v) => expect(v).to.equal(2));
      await soon(() => rows.first().textContent(), (v) => expect(v).to.contain('esta sessão').and.contain('Chrome'));
      await shootBoth(b.page, 'security-sessions');
      await rows.nth(1).getByTestId('session-end').click();
      await b.page.getByRole('dialog').getByTestId('confirm-button').click();
      await toastWith(b.page, 'Sessão encerrada.');
      await soon(() => rows.count(), (v) => expect(v).to.equal(1));
      // The ended browser's next call is refused and it is sent to sign in.
      await a.page.goto(`${server.url}/history`);
      await waitForPath(a.page, '/login');

      // A session older than ten minutes: a token asks the password first, with the scopes chosen kept.
      await server.ctx.models.Session.update({ verifiedAt: new Date(Date.now() - 11 * 60_000) }, { where: { userId: admin.id } });
      await b.page.getByRole('button', { name: 'Menu da conta' }).click();
      await b.page.getByRole('link', { name: 'Tokens de API', exact: true }).click();
      await waitForPath(b.page, '/account/api-tokens');
      await b.page.getByLabel('Nome do token').fill('Publicação');
      await b.page.getByLabel(/Downloads/).uncheck();
      await b.page.getByLabel(/Publicação/).check();
      await b.page.getByTestId('api-token-submit').click();
      const prompt = b.page.getByTestId('reauth-modal');
      await prompt.getByLabel('Senha').waitFor();
      await shootBoth(b.page, 'reauth-prompt');
      await prompt.getByLabel('Senha').fill('errada-123');
      await prompt.getByTestId('reauth-submit').click();
      await prompt.getByText(SECURITY_MESSAGES.passwordWrong).waitFor();
      await prompt.getByLabel('Senha').fill(DEFAULT_PASSWORD);
      await prompt.getByTestId('reauth-submit').click();
      await b.page.getByTestId('api-token-secret').waitFor();
      const row = b.page.getByTestId('api-token-row').filter({ hasText: 'Publicação' });
      await soon(() => row.getByTestId('api-token-scopes-cell').textContent(), (v) => expect(v).to.equal('Leitura, Conversões, Publicação'));
      const session = tokenFor(server, admin);
      const tokens = (await api(server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', session)).body.tokens;
      expect(tokens.map((t) => t.scopes)).to.deep.equal([['read', 'conversions', 'publishing']]);
      expect([...a.errors, ...b.errors]).to.deep.equal([]);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('adminRequiredSetting_adminWithoutItLandsOnEnrolment_andIsFreedOnceDone', async () => {
    await server.ctx.settings.set('accounts.requireAdminTwoFactor', true);
    const admin = await buildAdmin(server);
    const { page, context, errors } = await openPage(browser);
    try {
      await enterPassword(page, admin);
      await waitForPath(page, '/account/security');
      await page.getByTestId('two-factor-required').waitFor();
      expect(await page.getByTestId('sessions-section').count()).to.equal(0);
      // Anywhere else, back to the enrolment.
      await page.goto(`${server.url}/admin/users`);
      await waitForPath(page, '/account/security');
      await shootBoth(page, 'security-required');

      await page.getByTestId('two-factor-begin').click();
      const secret = (await page.getByTestId('two-factor-secret').textContent())!.trim();
      await page.getByLabel('Código de 6 dígitos do aplicativo').fill(totpCode(secret));
      await page.getByTestId('two-factor-enable').click();
      await page.getByTestId('recovery-codes-done').click();
      await waitForPath(page, '/admin');
      const status = await api(server).get<TwoFactorStatus>('/auth/2fa', tokenFor(server, admin));
      expect(status.body).to.include({ enabled: true, requiredForAccount: true });
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
      await server.ctx.settings.unset('accounts.requireAdminTwoFactor');
    }
  });
});

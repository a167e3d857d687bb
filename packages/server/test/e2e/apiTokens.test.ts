/**
 * 'Tokens de API' in a real browser (Debian's Chromium) against a real server that delivers
 * e-mail (a real SMTP server on loopback, so unconfirmed accounts are refused tokens): reached
 * from the account menu, a token created with its secret shown once, copied, working as a
 * bearer and gone for good once the box is closed; listed by name and prefix; revoked after a
 * confirmation, after which the bearer gets 401. Then the server's pt-BR refusals: the limit of
 * tokens (409) and an unconfirmed address (403) with 'Reenviar e-mail', which sends the link.
 */
import { expect } from 'chai';
import { ACCOUNT_MESSAGES, API_TOKENS_PER_USER, EMAIL_MESSAGES, type ApiTokenJson } from '@aabify/shared';
import { soon } from '../helpers/browser.js';
import { api } from '../helpers/http.js';
import { buildCreditUser, tokenFor } from '../helpers/factories.js';
import { startTestSmtp, type TestSmtp } from '../helpers/smtpServer.js';
import { openPage, sessionOf, shootBoth, toastWith, useDashboardSuite, waitForPath } from './dashboardHelpers.js';

const noSideScroll = () => document.documentElement.scrollWidth - document.documentElement.clientWidth;

describe('dashboard: personal API tokens in a real browser', function () {
  this.timeout(180_000);
  let smtp: TestSmtp;

  before(async function () {
    smtp = await startTestSmtp();
  });
  after(async () => {
    await smtp?.close();
  });
  const ui = useDashboardSuite({ env: () => ({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test' }) });

  const me = (bearer: string) => fetch(`${ui.server.url}/api/auth/me`, { headers: { authorization: `Bearer ${bearer}` } });

  it('apiTokens_createShownOnceWorksAsBearerListedRevoked_fromTheAccountMenu', async () => {
    const user = await buildCreditUser(ui.server, 3, { emailVerifiedAt: new Date() });
    const session = tokenFor(ui.server, user);
    const { page, context, errors } = await openPage(ui.browser, { session: sessionOf(ui.server, user) });
    try {
      // Conta › Tokens de API, beside the other account screens.
      await page.goto(`${ui.server.url}/dashboard`);
      await page.getByRole('button', { name: 'Menu da conta' }).click();
      await page.getByRole('link', { name: 'Tokens de API', exact: true }).click();
      await waitForPath(page, '/account/api-tokens');
      await page.getByRole('heading', { name: 'Tokens de API', level: 1 }).waitFor();
      await soon(() => page.getByTestId('api-tokens-empty').textContent(), (v) => expect(v).to.contain('AABIFY_TOKEN').and.contain('token'));
      await shootBoth(page, 'api-tokens-empty');

      // The shared schema's rule and message, beside the field.
      await page.getByTestId('api-token-submit').click();
      await page.getByText(ACCOUNT_MESSAGES.apiTokenNameRequired).waitFor();
      await soon(() => page.getByLabel('Nome do token').getAttribute('aria-invalid'), (v) => expect(v).to.equal('true'));

      // Created: the secret once, with the server's message and a copy button.
      await page.getByLabel('Nome do token').fill('GitHub Actions');
      await page.getByTestId('api-token-submit').click();
      const secretBox = page.getByTestId('api-token-secret');
      await secretBox.waitFor();
      const secret = await secretBox.getByLabel('Seu novo token').inputValue();
      expect(secret).to.match(/^aab_[A-Za-z0-9_-]{20,}$/);
      expect(await secretBox.textContent()).to.contain(ACCOUNT_MESSAGES.apiTokenCreated);
      await secretBox.getByRole('button', { name: 'Copiar token' }).click();
      await soon(() => page.evaluate(() => navigator.clipboard.readText()), (v) => expect(v).to.equal(secret));
      await soon(() => page.getByTestId('api-token-copy').textContent(), (v) => expect(v).to.equal('Copiado!'));
      await soon(() => page.getByLabel('Nome do token').inputValue(), (v) => expect(v).to.equal(''));

      // The list: name, prefix, creation date, never used yet.
      const listed = await api(ui.server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', session);
      expect(listed.body.tokens).to.have.length(1);
      const { prefix } = listed.body.tokens[0]!;
      expect(secret.startsWith(prefix)).to.equal(true);
      const row = page.getByTestId('api-token-row').filter({ hasText: 'GitHub Actions' });
      await soon(() => row.getByTestId('api-token-prefix').textContent(), (v) => expect(v).to.equal(`${prefix}…`));
      await soon(() => row.textContent(), (v) => expect(v).to.contain('nunca usado').and.match(/\d{2}\/\d{2}\/\d{4}/));
      await shootBoth(page, 'api-tokens-created');

      // The secret acts as its owner.
      const asBearer = await me(secret);
      expect(asBearer.status).to.equal(200);
      expect(((await asBearer.json()) as { email: string }).email).to.equal(user.email);

      // Closed, it is gone for good: not on the page, not after a reload.
      await secretBox.getByRole('button', { name: 'Já copiei, fechar' }).click();
      await soon(() => page.getByTestId('api-token-secret').count(), (v) => expect(v).to.equal(0));
      expect(await page.content()).to.not.contain(secret);
      await page.reload();
      await row.waitFor();
      expect(await page.content()).to.not.contain(secret);
      // Used since (the call to /auth/me above): a date instead of 'nunca usado'.
      await soon(() => row.getByTestId('api-token-last-used').textContent(), (v) => expect(v).to.match(/\d{2}\/\d{2}\/\d{4}/));

      // Revoked after a confirmation that says what stops working.
      await row.getByRole('button', { name: 'Revogar o token GitHub Actions' }).click();
      const dialog = page.getByRole('dialog');
      await soon(() => dialog.textContent(), (v) => expect(v).to.contain('Revogar token').and.contain('GitHub Actions').and.contain('deixarão de funcionar'));
      await shootBoth(page, 'api-tokens-revoke');
      await dialog.getByTestId('confirm-button').click();
      await toastWith(page, 'Token revogado.');
      await page.getByTestId('api-tokens-empty').waitFor();
      expect((await me(secret)).status).to.equal(401);
      expect((await api(ui.server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', session)).body.tokens).to.deep.equal([]);

      // A phone: the list as cards and the secret's box fit without a sideways scroll.
      await api(ui.server).post('/auth/tokens', { name: 'Pipeline de release do aplicativo principal com um nome bem comprido para caber' }, session);
      await page.setViewportSize({ width: 360, height: 800 });
      await page.reload();
      await page.getByTestId('api-token-row').first().waitFor();
      await page.getByLabel('Nome do token').fill('GitLab CI');
      await page.getByTestId('api-token-submit').click();
      await page.getByTestId('api-token-secret').waitFor();
      await soon(() => page.getByTestId('api-token-row').count(), (v) => expect(v).to.equal(2));
      await soon(() => page.evaluate(noSideScroll), (v) => expect(v).to.be.at.most(0));
      await shootBoth(page, 'api-tokens-360');
      expect(errors).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });

  it('apiTokens_limitReachedAndUnconfirmedEmail_serverMessagesAndResend', async () => {
    // Already at the limit: the server's 409 message, in the form.
    const full = await buildCreditUser(ui.server, 3, { emailVerifiedAt: new Date() });
    const fullSession = tokenFor(ui.server, full);
    for (let i = 0; i < API_TOKENS_PER_USER; i++) {
      expect((await api(ui.server).post('/auth/tokens', { name: `token ${i + 1}` }, fullSession)).status).to.equal(201);
    }
    const a = await openPage(ui.browser, { session: sessionOf(ui.server, full) });
    try {
      await a.page.goto(`${ui.server.url}/account/api-tokens`);
      await soon(() => a.page.getByTestId('api-token-row').count(), (v) => expect(v).to.equal(API_TOKENS_PER_USER));
      await a.page.getByLabel('Nome do token').fill('Mais um');
      await a.page.getByTestId('api-token-submit').click();
      await soon(() => a.page.getByTestId('api-token-refusal').textContent(), (v) => expect(v).to.contain(ACCOUNT_MESSAGES.apiTokenLimit));
      expect(await a.page.getByTestId('api-token-secret').count()).to.equal(0);
      expect(a.errors).to.deep.equal([]);
    } finally {
      await a.context.close();
    }

    // An unconfirmed address: the server's 403 message and the resend that already exists.
    const unconfirmed = await buildCreditUser(ui.server, 3);
    const b = await openPage(ui.browser, { session: sessionOf(ui.server, unconfirmed) });
    try {
      await b.page.goto(`${ui.server.url}/account/api-tokens`);
      await b.page.getByTestId('api-tokens-empty').waitFor();
      await b.page.getByLabel('Nome do token').fill('CI');
      await b.page.getByTestId('api-token-submit').click();
      const refusal = b.page.getByTestId('api-token-refusal');
      await soon(() => refusal.textContent(), (v) => expect(v).to.contain(ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail));
      await shootBoth(b.page, 'api-tokens-unconfirmed');
      await refusal.getByRole('button', { name: 'Reenviar e-mail' }).click();
      await toastWith(b.page, EMAIL_MESSAGES.verificationSent);
      const mail = await smtp.waitFor((m) => m.to === unconfirmed.email);
      expect(mail.text).to.contain('http://aabify.test/verify-email');
      expect((await api(ui.server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', tokenFor(ui.server, unconfirmed))).body.tokens).to.deep.equal([]);
      expect(b.errors).to.deep.equal([]);
    } finally {
      await b.context.close();
    }
  });
});

/**
 * E-mail through a real SMTP server on loopback (test/helpers/smtpServer.ts): password
 * recovery end to end over HTTP, register without enumeration, address confirmation and the
 * requireVerifiedEmail setting, receipts, notices, retries with backoff, and logs that never
 * carry a token or a password.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import {
  EMAIL_MESSAGES,
  type AuthResponse,
  type CreatePixResponse,
  type MessageResponse,
  type RegisterResponse,
} from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildSubscriber, buildUser, DEFAULT_PASSWORD, tokenFor, uniqueEmail } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, socketFor, uploadBytes, waitFor } from './helpers/conversions.js';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { linkToken, startTestSmtp, type ReceivedMail, type TestSmtp } from './helpers/smtpServer.js';
import { expirePendingPayments } from '../src/payments/paymentExpirer.js';
import { hashLinkToken } from '../src/mail/links.js';
import { QueryTypes } from 'sequelize';
import { createSequelize } from '../src/db/database.js';
import { createMigrator } from '../src/db/migrate.js';
import { createTestDatabase } from './helpers/postgres.js';

type Err = { message: string; code: string; fields?: Record<string, string> };
const PUBLIC_URL = 'http://aabify.test';

describe('email (SMTP on loopback)', function () {
  this.timeout(60_000);
  let smtp: TestSmtp;
  let server: TestServer;
  const logLines: string[] = [];

  before(async () => {
    smtp = await startTestSmtp();
    // Every log line of the server, at the most detailed level (SQL included), kept in memory.
    const memory = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer(
      { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'aabify <no-reply@aabify.test>' },
      { logger: pino({ level: 'trace' }, memory), mail: { retryDelayMs: 200, maxAttempts: 3 } },
    );
  });
  after(async () => {
    await server?.stop();
    await smtp?.close();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  const to = (address: string, subject?: RegExp) => (m: ReceivedMail) => m.rcptTo.includes(address) && (!subject || subject.test(m.subject));
  const messagesTo = (address: string) => server.ctx.models.EmailMessage.findAll({ where: { to: address }, order: [['createdAt', 'ASC']] });
  /** The first outbox message to `address` once it reaches `status` (polled; gives up after 30 s). */
  async function messageWithStatus(address: string, status: 'sent' | 'failed') {
    for (let i = 0; i < 300; i++) {
      const [message] = await messagesTo(address);
      if (message?.status === status) return message;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no ${status} message to ${address}`);
  }

  describe('password recovery', () => {
    it('resetFlow_requestMailResetSignIn_oldSessionRefusedTokenSingleUse', async () => {
      const user = await buildUser(server, { name: 'Rita' });
      const oldSession = tokenFor(server, user);
      const logStart = logLines.length;
      // A socket opened with the old password: the reset closes it.
      const socket = socketFor(server, oldSession);
      let socketClosedBy = '';
      socket.on('disconnect', (reason) => (socketClosedBy = reason));
      await connected(socket);

      const forgot = await api(server).post<MessageResponse>('/auth/forgot-password', { email: user.email.toUpperCase() });
      expect(forgot.status).to.equal(200);
      expect(forgot.body).to.deep.equal({ message: EMAIL_MESSAGES.forgotPasswordSent, emailDelivery: true });

      const mail = await smtp.waitFor(to(user.email, /nova senha/));
      expect(mail.from).to.equal('"aabify" <no-reply@aabify.test>');
      expect(mail.subject).to.equal('Crie uma nova senha no aabify');
      expect(mail.text).to.include('Olá, Rita!');
      expect(mail.text).to.include('O link vale por 1 hora');
      expect(mail.html).to.include('<a href="http://aabify.test/reset-password?token=');
      const token = linkToken(mail, '/reset-password');
      // Stored hashed.
      const stored = await server.ctx.models.EmailLinkToken.findOne({ where: { userId: user.id, purpose: 'password_reset' } });
      expect(stored!.tokenHash).to.equal(hashLinkToken(token));

      // The page asks whether the link works when it opens; asking leaves it unused (and unlogged).
      const status = `/auth/reset-password/${token}/status`;
      expect((await api(server).get(status)).body).to.deep.equal({ valid: true });
      expect((await api(server).get(status)).body).to.deep.equal({ valid: true });

      const newPassword = 'nova-senha-forte-1';
      const reset = await api(server).post<AuthResponse & MessageResponse>('/auth/reset-password', { token, password: newPassword, confirmPassword: newPassword });
      expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
      expect(reset.body.message).to.equal(EMAIL_MESSAGES.passwordReset);
      expect(reset.body.user.email).to.equal(user.email);
      expect(reset.body.user.emailVerified).to.equal(true);
      expect((await api(server).get('/auth/me', reset.body.token)).status).to.equal(200);

      // Every older session ended, and its open socket with it.
      await waitFor(() => (socketClosedBy ? true : undefined), 10000, 'the server to close the old session\'s socket');
      expect(socketClosedBy).to.equal('io server disconnect');
      socket.close();
      const old = await api(server).get<Err>('/auth/me', oldSession);
      expect(old.status).to.equal(401);
      expect(old.body.code).to.equal('TOKEN_INVALID');

      const login = await api(server).post<AuthResponse>('/auth/login', { email: user.email, password: newPassword });
      expect(login.status).to.equal(200);
      expect((await api(server).post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).status).to.equal(401);

      // Single use: the page now says so as it opens.
      expect((await api(server).get(status)).body).to.deep.equal({ valid: false });
      const again = await api(server).post<Err>('/auth/reset-password', { token, password: 'outra-senha-9' });
      expect(again.status).to.equal(400);
      expect(again.body).to.deep.include({ code: 'RESET_LINK_INVALID', message: EMAIL_MESSAGES.resetLinkInvalid });

      const changed = await smtp.waitFor(to(user.email, /foi alterada/));
      expect(changed.text).to.include('Esqueci minha senha: http://aabify.test/forgot-password');

      // The whole flow's log lines (SQL included) carry neither the token nor either password.
      const flowLog = logLines.slice(logStart).join('');
      expect(flowLog).to.include(user.email);
      expect(flowLog).to.include('Crie uma nova senha no aabify');
      for (const secret of [token, newPassword, DEFAULT_PASSWORD]) expect(flowLog.includes(secret), `log contains ${secret}: ${flowLog.split('\n').filter((l) => l.includes(secret)).join('\n').slice(0, 3000)}`).to.equal(false);
      // Nor is it anywhere in the outbox (the link is added only when the message is delivered).
      const [row] = await server.ctx.sequelize.query(`SELECT count(*)::int AS n FROM email_messages WHERE data::text LIKE :t OR subject LIKE :t`, {
        replacements: { t: `%${token}%` },
        plain: false,
      });
      expect((row as Array<{ n: number }>)[0]!.n).to.equal(0);
    });

    it('resetPassword_expiredLink_refused', async () => {
      const user = await buildUser(server);
      await api(server).post('/auth/forgot-password', { email: user.email });
      const token = linkToken(await smtp.waitFor(to(user.email, /nova senha/)), '/reset-password');
      await server.ctx.models.EmailLinkToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { tokenHash: hashLinkToken(token) } });
      const res = await api(server).post<Err>('/auth/reset-password', { token, password: 'nova-senha-forte-2' });
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('RESET_LINK_INVALID');
      expect((await api(server).post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).status).to.equal(200);
    });

    it('resetLinkStatus_expiredUnknownOrMalformed_saidWithoutNamingTheAccount', async () => {
      const user = await buildUser(server);
      await api(server).post('/auth/forgot-password', { email: user.email });
      const token = linkToken(await smtp.waitFor(to(user.email, /nova senha/)), '/reset-password');
      await server.ctx.models.EmailLinkToken.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { tokenHash: hashLinkToken(token) } });
      const expired = await api(server).get(`/auth/reset-password/${token}/status`);
      expect([expired.status, expired.body]).to.deep.equal([200, { valid: false }]);
      const unknown = await api(server).get(`/auth/reset-password/${'b'.repeat(43)}/status`);
      expect([unknown.status, unknown.body]).to.deep.equal([200, { valid: false }]);
      const malformed = await api(server).get<Err>('/auth/reset-password/curto/status');
      expect([malformed.status, malformed.body.fields]).to.deep.equal([400, { token: EMAIL_MESSAGES.resetLinkInvalid }]);
      // A link sent to an address the account no longer has is dead, as the reset would find.
      await server.ctx.sequelize.query(`UPDATE email_messages SET "createdAt" = now() - interval '10 minutes' WHERE "to" = :to`, { replacements: { to: user.email } });
      await api(server).post('/auth/forgot-password', { email: user.email });
      const fresh = linkToken(await smtp.waitFor((m) => to(user.email, /nova senha/)(m) && !m.text.includes(token)), '/reset-password');
      expect((await api(server).get(`/auth/reset-password/${fresh}/status`)).body).to.deep.equal({ valid: true });
      await user.update({ email: uniqueEmail('mudou') });
      expect((await api(server).get(`/auth/reset-password/${fresh}/status`)).body).to.deep.equal({ valid: false });
    });

    it('resetLinkStatus_sharesTheResetsLimit_answers429', async () => {
      for (let i = 0; i < 20; i++) expect((await api(server).get(`/auth/reset-password/${'c'.repeat(43)}/status`)).status).to.equal(200);
      expect((await api(server).get(`/auth/reset-password/${'c'.repeat(43)}/status`)).status).to.equal(429);
      // Checking spent the budget the reset draws on too: guessing through either costs the same.
      expect((await api(server).post('/auth/reset-password', { token: 'd'.repeat(43), password: 'segredo-novo-1' })).status).to.equal(429);
    });

    it('resetPassword_newLinkRequested_olderLinkStopsWorking', async () => {
      const user = await buildUser(server);
      await api(server).post('/auth/forgot-password', { email: user.email });
      const first = linkToken(await smtp.waitFor(to(user.email, /nova senha/)), '/reset-password');
      // A request within minutes of the first mails nothing (mail/recipientPolicy.ts): the first
      // message is made older than that.
      await server.ctx.sequelize.query(`UPDATE email_messages SET "createdAt" = now() - interval '10 minutes' WHERE "to" = :to`, { replacements: { to: user.email } });
      await api(server).post('/auth/forgot-password', { email: user.email });
      const second = linkToken(await smtp.waitFor((m) => to(user.email, /nova senha/)(m) && !m.text.includes(first)), '/reset-password');
      expect((await api(server).post<Err>('/auth/reset-password', { token: first, password: 'nova-senha-forte-3' })).body.code).to.equal('RESET_LINK_INVALID');
      expect((await api(server).post('/auth/reset-password', { token: second, password: 'nova-senha-forte-3' })).status).to.equal(200);
    });

    it('resetPassword_registrationRules_andMalformedToken', async () => {
      const short = await api(server).post<Err>('/auth/reset-password', { token: 'a'.repeat(43), password: '12345' });
      expect(short.status).to.equal(400);
      expect(short.body.fields).to.deep.equal({ password: 'A senha deve ter pelo menos 6 caracteres' });
      const mismatch = await api(server).post<Err>('/auth/reset-password', { token: 'a'.repeat(43), password: 'segredo1', confirmPassword: 'segredo2' });
      expect(mismatch.body.fields).to.deep.equal({ confirmPassword: 'As senhas não coincidem' });
      const malformed = await api(server).post<Err>('/auth/reset-password', { token: 'x y', password: 'segredo1' });
      expect(malformed.body.fields).to.deep.equal({ token: EMAIL_MESSAGES.resetLinkInvalid });
      const missing = await api(server).post<Err>('/auth/reset-password', { password: 'segredo1' });
      expect(missing.body.fields).to.deep.equal({ token: EMAIL_MESSAGES.linkTokenRequired });
    });

    it('forgotPassword_unknownEmail_sameAnswerAndNoMail', async () => {
      const unknown = uniqueEmail('ninguem');
      const res = await api(server).post<MessageResponse>('/auth/forgot-password', { email: unknown });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ message: EMAIL_MESSAGES.forgotPasswordSent, emailDelivery: true });
      // A known address, asked right after, is mailed; the unknown one never was.
      const known = await buildUser(server);
      await api(server).post('/auth/forgot-password', { email: known.email });
      await smtp.waitFor(to(known.email));
      expect(smtp.received.some((m) => m.rcptTo.includes(unknown))).to.equal(false);
      expect(await messagesTo(unknown)).to.have.length(0);
    });

    it('forgotPassword_perEmailLimit_answers429', async () => {
      const email = uniqueEmail('limite');
      for (let i = 0; i < 5; i++) expect((await api(server).post('/auth/forgot-password', { email })).status).to.equal(200);
      const limited = await api(server).post<Err & { retryAfter: number }>('/auth/forgot-password', { email: email.toUpperCase() });
      expect(limited.status).to.equal(429);
      expect(limited.body.code).to.equal('RATE_LIMIT');
      expect(limited.body.message).to.equal(EMAIL_MESSAGES.tooManyEmailRequests);
      // Another address from the same client is still served.
      expect((await api(server).post('/auth/forgot-password', { email: uniqueEmail('outro') })).status).to.equal(200);
    });
  });

  describe('register and address confirmation', () => {
    afterEach(() => server.ctx.settings.unset('accounts.requireVerifiedEmail'));

    it('register_takenEmailWhereConfirmationIsRequired_answersLikeSuccessAndMailsOwner', async () => {
      await server.ctx.settings.set('accounts.requireVerifiedEmail', true);
      const owner = await buildUser(server);
      const fresh = uniqueEmail('nova');
      const created = await api(server).post<RegisterResponse>('/auth/register', { acceptTerms: true, email: fresh, password: 'segredo1' });
      const taken = await api(server).post<RegisterResponse>('/auth/register', { acceptTerms: true, email: owner.email.toUpperCase(), password: 'segredo1' });
      expect(created.status).to.equal(201);
      expect(taken.status).to.equal(201);
      expect(created.body).to.deep.equal({ message: EMAIL_MESSAGES.registerCheckEmail, email: fresh });
      expect(taken.body).to.deep.equal({ message: EMAIL_MESSAGES.registerCheckEmail, email: owner.email });
      expect(Object.keys(Object.fromEntries(created.headers))).to.deep.equal(Object.keys(Object.fromEntries(taken.headers)));

      const notice = await smtp.waitFor(to(owner.email, /tentou criar uma conta/));
      expect(notice.text).to.include('Nenhuma conta nova foi criada');
      expect(notice.text).to.include('http://aabify.test/forgot-password');
      // The owner's account is untouched.
      expect((await api(server).post('/auth/login', { email: owner.email, password: DEFAULT_PASSWORD })).status).to.equal(200);
      expect(await server.ctx.models.User.count({ where: { email: owner.email } })).to.equal(1);

      const welcome = await smtp.waitFor(to(fresh, /Bem-vindo/));
      expect(welcome.subject).to.equal('Bem-vindo ao aabify — confirme seu e-mail');
      expect(welcome.text).to.include('http://aabify.test/verify-email?token=');
      // A week-long link is said in days.
      expect(welcome.text).to.include('O link vale por 7 dias.');
      expect(welcome.text).to.not.include('horas');
    });

    it('register_nameWithALinkOrHiddenCharacters_welcomeMailCarriesNoName', async () => {
      // A stranger registers someone else's address with a "name" written to phish its owner.
      const email = uniqueEmail('alvo');
      const name = 'Conta bloqueada: acesse https://golpe.example\r\n\u202Eagora';
      expect((await api(server).post('/auth/register', { acceptTerms: true, email, password: 'segredo1', name })).status).to.equal(201);
      const welcome = await smtp.waitFor(to(email, /Bem-vindo/));
      expect(welcome.text).to.not.contain('golpe.example');
      expect(welcome.html).to.not.contain('golpe.example');
      // The name itself is kept without its control and bidi characters.
      const user = await server.ctx.models.User.findOne({ where: { email }, rejectOnEmpty: true });
      expect(user.name).to.equal('Conta bloqueada: acesse https://golpe.example   agora');
    });

    it('verifyEmail_linkFromWelcome_confirmsOnceThenAlreadyConfirmed', async () => {
      const email = uniqueEmail('confirma');
      await api(server).post('/auth/register', { acceptTerms: true, email, password: 'segredo1' });
      const login = await api(server).post<AuthResponse>('/auth/login', { email, password: 'segredo1' });
      expect(login.body.user.emailVerified).to.equal(false);
      const token = linkToken(await smtp.waitFor(to(email, /Bem-vindo/)), '/verify-email');
      // Opened in the browser signed in to the account (the usual case: right after registering).
      const ok = await api(server).post<MessageResponse>('/auth/verify-email', { token }, login.body.token);
      expect(ok.body).to.deep.equal({ message: EMAIL_MESSAGES.emailVerified });
      expect((await api(server).get<{ emailVerified: boolean }>('/auth/me', login.body.token)).body.emailVerified).to.equal(true);
      const twice = await api(server).post<MessageResponse>('/auth/verify-email', { token });
      expect(twice.status).to.equal(200);
      expect(twice.body.message).to.equal(EMAIL_MESSAGES.emailAlreadyVerified);
      const bogus = await api(server).post<Err>('/auth/verify-email', { token: 'b'.repeat(43) });
      expect(bogus.status).to.equal(400);
      expect(bogus.body.code).to.equal('VERIFY_LINK_INVALID');
    });

    it('requireVerifiedEmail_on_blocksBuyAndConvertUntilConfirmed', async () => {
      const plan = await buildPlan(server, { name: 'Pacote Verificado', priceCents: 990, credits: 5 });
      const user = await buildCreditUser(server, 3);
      const session = tokenFor(server, user);
      const apk = new FormData();
      apk.append('apk', new Blob([new Uint8Array([1, 2, 3])]), 'app.apk');
      const convert = () => api(server).request<Err>('POST', '/conversion/convert', undefined, { token: session, raw: apk });
      const buy = () => api(server).post<Err & CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, session);

      // Off (the default): nothing changes for an unconfirmed address.
      expect((await buy()).status).to.equal(201);
      const admin = await buildAdmin(server);
      expect((await api(server).put(`/admin/config/accounts.requireVerifiedEmail`, { value: true }, tokenFor(server, admin))).status).to.equal(200);

      for (const res of [await buy(), await convert()]) {
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.include({ code: 'EMAIL_NOT_VERIFIED', message: EMAIL_MESSAGES.emailNotVerified });
      }
      // Admins never need to confirm.
      expect((await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, admin))).status).to.equal(201);

      const resend = await api(server).post<MessageResponse>('/auth/resend-verification', undefined, session);
      expect(resend.body).to.deep.equal({ message: EMAIL_MESSAGES.verificationSent });
      const token = linkToken(await smtp.waitFor(to(user.email, /Confirme seu e-mail/)), '/verify-email');
      expect((await api(server).post('/auth/verify-email', { token }, session)).status).to.equal(200);

      const bought = await buy();
      expect(bought.status, JSON.stringify(bought.body)).to.be.oneOf([200, 201]);
      expect(bought.body.success).to.equal(true);
      const after = await convert();
      expect(after.body.code).to.not.equal('EMAIL_NOT_VERIFIED');
      expect(after.status).to.not.equal(403);
    });

    it('migration_existingAccounts_countAsConfirmed', async () => {
      const sequelize = createSequelize(await createTestDatabase(), pino({ level: 'silent' }));
      try {
        await createMigrator(sequelize).up({ to: '0101-email-link-tokens' });
        await sequelize.query(`INSERT INTO users (email, "passwordHash", "createdAt", "updatedAt") VALUES ('antigo@example.com', 'x', now() - interval '1 year', now())`);
        await createMigrator(sequelize).up();
        const [row] = await sequelize.query<{ emailVerifiedAt: Date | null; createdAt: Date; notifyConversions: boolean }>(
          `SELECT "emailVerifiedAt", "createdAt", "notifyConversions" FROM users WHERE email = 'antigo@example.com'`,
          { type: QueryTypes.SELECT },
        );
        expect(row!.emailVerifiedAt?.getTime()).to.equal(row!.createdAt.getTime());
        expect(row!.notifyConversions).to.equal(true);
      } finally {
        await sequelize.close();
      }
    });
  });

  describe('receipts and notices', () => {
    it('receipt_sandboxPixApproval_mailsPlanAmountDateAndPaymentId', async () => {
      const user = await buildUser(server);
      const plan = await buildPlan(server, { name: 'Pacote Recibo', priceCents: 123456, credits: 25 });
      const created = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
      expect(created.status).to.equal(201);
      const approved = await api(server).post(`/payments/simulate-approval/${created.body.payment.id}`, undefined, tokenFor(server, user));
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      const receipt = await smtp.waitFor(to(user.email, /Recibo/));
      const payment = await server.ctx.models.Payment.findByPk(created.body.payment.id);
      expect(receipt.subject).to.equal('Recibo: pagamento aprovado — Pacote Recibo');
      expect(receipt.text).to.include('Plano: Pacote Recibo');
      expect(receipt.text).to.include('Valor: R$ 1.234,56');
      expect(receipt.text).to.include(`ID do pagamento: ${payment!.providerPaymentId}`);
      expect(receipt.text).to.include('Incluído: 25 créditos');
      expect(receipt.text).to.match(/Data: \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2} \(horário de Brasília\)/);
      expect(receipt.html).to.include('R$ 1.234,56');
      // A second approval call changes nothing and mails nothing more.
      await api(server).post(`/payments/simulate-approval/${created.body.payment.id}`, undefined, tokenFor(server, user));
      expect((await messagesTo(user.email)).filter((m) => m.kind === 'purchase_approved')).to.have.length(1);
    });

    it('refundAndPixExpiry_mailTheBuyer', async () => {
      const user = await buildUser(server);
      const admin = await buildAdmin(server);
      const plan = await buildPlan(server, { name: 'Pacote Reembolso', priceCents: 1990, credits: 10 });
      const paid = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
      await api(server).post(`/payments/simulate-approval/${paid.body.payment.id}`, undefined, tokenFor(server, user));
      const refund = await api(server).post(`/admin/payments/${paid.body.payment.id}/refund`, { reason: 'Pedido do cliente' }, tokenFor(server, admin));
      expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
      const refunded = await smtp.waitFor(to(user.email, /^Reembolso/));
      expect(refunded.text).to.include('Motivo: Pedido do cliente');

      const other = await buildUser(server);
      const unpaid = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, other));
      await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: unpaid.body.payment.id } });
      await expirePendingPayments(server.ctx);
      const expired = await smtp.waitFor(to(other.email, /PIX expirou/));
      expect(expired.text).to.include('R$ 19,90');
    });

    it('planNotices_expiringAndExpired_oncePerPlanPeriod', async () => {
      const soon = await buildSubscriber(server, 2);
      const gone = await buildSubscriber(server, -1);
      const far = await buildSubscriber(server, 20);
      const first = await server.ctx.mail.planNotices();
      expect(first.expiring).to.be.at.least(1);
      expect(first.expired).to.be.at.least(1);
      await smtp.waitFor(to(soon.email, /vence em 3 dias/));
      await smtp.waitFor(to(gone.email, /venceu/));
      const second = await server.ctx.mail.planNotices();
      expect(second).to.deep.equal({ expiring: 0, expired: 0 });
      expect(await messagesTo(far.email)).to.have.length(0);
      // A renewal is a new period: a new notice when it nears its end.
      await soon.update({ subscriptionExpiresAt: new Date(Date.now() + 36 * 3600 * 1000) });
      expect((await server.ctx.mail.planNotices()).expiring).to.equal(1);
    });

    it('creditsDownToOne_conversionNotices_apiToken', async () => {
      // Confirmed address: it makes an API token below.
      const user = await buildCreditUser(server, 2, { emailVerifiedAt: new Date() });
      // A real conversion through the API takes the second-to-last credit: the notice follows.
      const submitted = await uploadBytes(server, tokenFor(server, user), buildZip(tinyApkEntries()));
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(201);
      await smtp.waitFor(to(user.email, /1 crédito/));

      // Through the queue and the engine: an upload that waited two minutes before it was started.
      const pending = await uploadBytes(server, tokenFor(server, user), buildZip(tinyApkEntries()), { path: '/conversion/upload', fileName: 'esperou.apk' });
      expect(pending.status, JSON.stringify(pending.body)).to.equal(201);
      const pendingId = String((pending.body as { conversionId: string }).conversionId);
      await server.ctx.models.Conversion.update({ createdAt: new Date(Date.now() - 120_000) }, { where: { id: pendingId }, silent: true });
      expect((await api(server).post(`/conversion/start/${pendingId}`, undefined, tokenFor(server, user))).status).to.equal(200);
      const waited = await smtp.waitFor(to(user.email, /Conversão concluída: esperou.apk/));
      expect(waited.text).to.include(`http://aabify.test/conversions/${pendingId}`);

      const twoMinutesAgo = new Date(Date.now() - 120_000);
      const slow = await buildConversion(server, user, { fileName: 'lento.apk', status: 'completed', completedAt: new Date(), createdAt: twoMinutesAgo });
      const failed = await buildConversion(server, user, { fileName: 'quebrado.apk', status: 'failed', error: 'O arquivo não é um APK válido.', completedAt: new Date(), createdAt: twoMinutesAgo });
      const quick = await buildConversion(server, user, { fileName: 'rapido.apk', status: 'completed', completedAt: new Date() });
      for (const c of [slow, failed, quick]) await server.ctx.mail.conversionEnded(c);
      const done = await smtp.waitFor(to(user.email, /Conversão concluída: lento.apk/));
      expect(done.text).to.include(`http://aabify.test/conversions/${slow.id}`);
      expect((await smtp.waitFor(to(user.email, /Conversão falhou/))).text).to.include('O arquivo não é um APK válido.');
      expect((await messagesTo(user.email)).some((m) => m.subject.includes('rapido.apk'))).to.equal(false);

      // Opt-out from the account menu.
      const pref = await api(server).patch<{ user: { notifyConversions: boolean } }>('/account/preferences', { notifyConversions: false }, tokenFor(server, user));
      expect(pref.status).to.equal(200);
      expect(pref.body.user.notifyConversions).to.equal(false);
      const muted = await buildConversion(server, user, { fileName: 'silencioso.apk', status: 'completed', completedAt: new Date(), createdAt: twoMinutesAgo });
      await server.ctx.mail.conversionEnded(muted);
      expect((await messagesTo(user.email)).some((m) => m.subject.includes('silencioso.apk'))).to.equal(false);
      expect((await api(server).patch<Err>('/account/preferences', { notifyConversions: 'talvez' }, tokenFor(server, user))).status).to.equal(400);

      const created = await api(server).post('/auth/tokens', { name: 'GitHub Actions' }, tokenFor(server, user));
      expect(created.status).to.equal(201);
      const tokenMail = await smtp.waitFor(to(user.email, /Novo token de API/));
      expect(tokenMail.text).to.include('Nome: GitHub Actions');
      // Revoking it is one click away: the link opens the tokens page, not the dashboard.
      expect(tokenMail.html).to.include('href="http://aabify.test/account/api-tokens"');
      expect(tokenMail.text).to.not.include(String(created.body.token));
    });

    it('notifyAdmins_eachActiveAdmin_oncePerHour', async () => {
      const admin = await buildAdmin(server);
      await server.ctx.mail.notifyAdmins('payment_provider_failed', { Erro: 'Mercado Pago answered 503' });
      await server.ctx.mail.notifyAdmins('payment_provider_failed', { Erro: 'Mercado Pago answered 503' });
      const notice = await smtp.waitFor(to(admin.email, /Falha no provedor/));
      expect(notice.text).to.include('Erro: Mercado Pago answered 503');
      expect((await messagesTo(admin.email)).filter((m) => m.kind === 'admin_notice')).to.have.length(1);
    });
  });

  describe('delivery', () => {
    it('smtpRefusesTwice_thenAccepts_sentOnThirdAttempt', async () => {
      const user = await buildUser(server);
      smtp.refuseNext(2);
      const refusedBefore = smtp.refused;
      await api(server).post('/auth/forgot-password', { email: user.email });
      await smtp.waitFor(to(user.email, /nova senha/));
      expect(smtp.refused - refusedBefore).to.equal(2);
      const message = await messageWithStatus(user.email, 'sent');
      expect(message).to.include({ attempts: 3, lastError: null, secret: null });
    });

    it('smtpRefusesEveryAttempt_failedAfterMaxAttempts_requestUnaffected', async () => {
      const user = await buildUser(server);
      smtp.refuseNext(Infinity);
      try {
        const res = await api(server).post('/auth/forgot-password', { email: user.email });
        expect(res.status).to.equal(200);
        const message = await messageWithStatus(user.email, 'failed');
        expect(message).to.include({ attempts: 3, secret: null });
        expect(message!.lastError).to.include('451');
      } finally {
        smtp.refuseNext(0);
      }
    });
  });
});

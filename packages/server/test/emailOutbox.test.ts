/**
 * E-mail without SMTP_URL (the embedded default): every message is kept in the outbox with one
 * log line (recipient and subject), admins list and read it through the API with single-use
 * links hidden, and nothing is lost when SMTP is configured later. Plus the configuration rules.
 */
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { ADMIN_MESSAGES, EMAIL_MESSAGES, type AdminEmailDetail, type AdminEmailListResponse } from '@aabify/shared';
import { SETTING_MESSAGES } from '../src/settings/index.js';
import { auditEvent } from './helpers/audit.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { HIDDEN_LINK } from '../src/mail/templates.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { startTestSmtp } from './helpers/smtpServer.js';

type Err = { message: string; code: string };

describe('email outbox (no SMTP_URL)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const lines: string[] = [];

  before(async () => {
    const memory = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    server = await startTestServer({}, { logger: pino({ level: 'info' }, memory) });
  });
  after(async () => server?.stop());

  /** The outbox row for `to` once written (the forgot-password e-mail is prepared after the answer). */
  async function outboxRow(to: string) {
    for (let i = 0; i < 100; i++) {
      const row = await server.ctx.models.EmailMessage.findOne({ where: { to } });
      if (row) return row;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no outbox message to ${to}`);
  }

  it('forgotPassword_noSmtp_keptInOutboxWithOneLogLine', async () => {
    const user = await buildUser(server);
    const res = await api(server).post('/auth/forgot-password', { email: user.email });
    expect(res.status).to.equal(200);
    const row = await outboxRow(user.email);
    expect(row).to.include({ kind: 'password_reset', status: 'queued', attempts: 0, subject: 'Crie uma nova senha no aabify' });
    expect(row.secret).to.have.keys(['alg', 'iv', 'tag', 'data']);
    const logged = lines.filter((l) => l.includes(user.email));
    expect(logged).to.have.length(1);
    const entry = JSON.parse(logged[0]!) as Record<string, unknown>;
    expect(entry).to.include({ msg: 'e-mail kept in the outbox (no SMTP_URL)', to: user.email, subject: 'Crie uma nova senha no aabify', emailId: row.id });
    expect(Object.keys(entry).sort()).to.deep.equal(['emailId', 'hostname', 'level', 'msg', 'pid', 'subject', 'time', 'to'].sort());
  });

  it('adminEmails_listAndView_linkHiddenAndAdminsOnly', async () => {
    const admin = await buildAdmin(server);
    const user = await buildUser(server, { name: 'Bruna' });
    await api(server).post('/auth/forgot-password', { email: user.email });
    const row = await outboxRow(user.email);

    const list = await api(server).get<AdminEmailListResponse>(`/admin/emails?search=${encodeURIComponent(user.email)}`, tokenFor(server, admin));
    expect(list.status).to.equal(200);
    expect(list.body.transport).to.equal('outbox');
    expect(list.body.publicUrlSet).to.equal(false);
    expect(list.body.linkBase).to.equal(server.url);
    expect(list.body.pagination).to.deep.equal({ total: 1, page: 1, limit: 25, pages: 1 });
    expect(list.body.emails[0]).to.deep.equal({
      id: row.id,
      kind: 'password_reset',
      to: user.email,
      subject: 'Crie uma nova senha no aabify',
      status: 'queued',
      attempts: 0,
      lastError: null,
      userId: user.id,
      createdAt: row.createdAt.toISOString(),
      sentAt: null,
    });
    const queued = await api(server).get<AdminEmailListResponse>('/admin/emails?status=queued', tokenFor(server, admin));
    expect(queued.body.emails.every((e) => e.status === 'queued')).to.equal(true);
    expect((await api(server).get<Err>('/admin/emails?status=lido', tokenFor(server, admin))).status).to.equal(400);

    const detail = await api(server).get<AdminEmailDetail>(`/admin/emails/${row.id}`, tokenFor(server, admin));
    expect(detail.status).to.equal(200);
    expect(detail.body.text).to.include('Olá, Bruna!');
    expect(detail.body.text).to.include(`Criar nova senha: ${HIDDEN_LINK}`);
    expect(detail.body.html).to.include('link de uso único oculto');
    expect(detail.body.html).to.not.match(/token=/);
    expect(detail.body.text).to.not.match(/token=/);
    expect(detail.body.html).to.include(`href="${server.url}/"`);

    const notAdmin = await api(server).get<Err>('/admin/emails', tokenFor(server, user));
    expect(notAdmin.status).to.equal(403);
    expect((await api(server).get<Err>('/admin/emails/nao-existe', tokenFor(server, admin))).body.code).to.equal('EMAIL_NOT_FOUND');
    expect((await api(server).get('/admin/emails')).status).to.equal(401);
  });

  it('smtpConfiguredLater_queuedMessagesDelivered', async () => {
    const smtp = await startTestSmtp();
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const created = await api(server).post('/auth/tokens', { name: 'Antes do SMTP' }, tokenFor(server, user));
    expect(created.status).to.equal(201);
    const row = await outboxRow(user.email);
    expect(row.status).to.equal('queued');
    // The same database and data directory, now with SMTP (the sweep runs at start).
    await server.close();
    const databaseUrl = server.ctx.config.databaseUrl!;
    const withSmtp = await startTestServer({ DATA_DIR: server.dataDir, SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test' }, { databaseUrl });
    try {
      const mail = await smtp.waitFor((m) => m.rcptTo.includes(user.email));
      expect(mail.subject).to.equal('Novo token de API criado: Antes do SMTP');
      expect(mail.text).to.include('http://aabify.test/account/api-tokens');
    } finally {
      await withSmtp.close();
      await smtp.close();
      server = await startTestServer({ DATA_DIR: server.dataDir }, { databaseUrl });
    }
  });

  describe('confirmation without delivery', () => {
    it('requireVerifiedEmail_switchedOnWithoutSmtp_refusedSayingWhyAndStaysOff', async () => {
      const admin = tokenFor(server, await buildAdmin(server));
      const res = await api(server).put<Err & { fields?: Record<string, string> }>('/admin/config/accounts.requireVerifiedEmail', { value: true }, admin);
      expect(res.status).to.equal(409);
      expect(res.body).to.deep.include({ code: 'SETTING_REFUSED', message: SETTING_MESSAGES.needsSmtp });
      expect(res.body.fields).to.deep.equal({ value: SETTING_MESSAGES.needsSmtp });
      expect(await server.ctx.settings.get('accounts.requireVerifiedEmail')).to.equal(false);
      // Turning it off is always allowed.
      expect((await api(server).put('/admin/config/accounts.requireVerifiedEmail', { value: false }, admin)).status).to.equal(200);
    });

    it('resendVerification_customerWithoutSmtp_503SaysSoAndQueuesNothing', async () => {
      const user = await buildUser(server, { emailVerifiedAt: null });
      const res = await api(server).post<Err>('/auth/resend-verification', undefined, tokenFor(server, user));
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.include({ code: 'EMAIL_DELIVERY_UNAVAILABLE', message: EMAIL_MESSAGES.verificationNotDeliverable });
      expect(await server.ctx.models.EmailMessage.count({ where: { to: user.email, kind: 'verify_email' } })).to.equal(0);
    });

    it('adminMarksEmailVerified_customerConfirmedRecordedAndASecondTimeRefused', async () => {
      const admin = await buildAdmin(server);
      const adminToken = tokenFor(server, admin);
      const user = await buildUser(server, { emailVerifiedAt: null });
      // No e-mail can reach the customer here: the admin is told so instead of "sent".
      const resend = await api(server).post<Err>(`/admin/users/${user.id}/resend-verification`, undefined, adminToken);
      expect(resend.status).to.equal(409);
      expect(resend.body).to.deep.include({ code: 'EMAIL_DELIVERY_UNAVAILABLE', message: ADMIN_MESSAGES.verificationNotDeliverable });

      const marked = await api(server).patch<{ message: string; user: { emailVerified: boolean } }>(`/admin/users/${user.id}/verify-email`, undefined, adminToken);
      expect(marked.status).to.equal(200);
      expect(marked.body.message).to.equal(ADMIN_MESSAGES.emailMarkedVerified);
      expect(marked.body.user.emailVerified).to.equal(true);
      const me = await api(server).get<{ emailVerified: boolean }>('/auth/me', tokenFor(server, user));
      expect(me.body.emailVerified).to.equal(true);
      const event = await auditEvent(server, adminToken, 'user.email_verified', user.id);
      expect(event.actor.id).to.equal(admin.id);
      expect(event.after).to.deep.equal({ emailVerified: true });
      const again = await api(server).patch<Err>(`/admin/users/${user.id}/verify-email`, undefined, adminToken);
      expect(again.status).to.equal(409);
      expect(again.body.code).to.equal('EMAIL_ALREADY_VERIFIED');
      // A customer cannot do it for themself.
      expect((await api(server).patch(`/admin/users/${user.id}/verify-email`, undefined, tokenFor(server, user))).status).to.equal(403);
    });
  });

  describe('configuration', () => {
    const base = { DATA_DIR: '/tmp/aabify-config-test' };
    const reason = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
      } catch (err) {
        if (err instanceof ConfigError) return err.message;
        throw err;
      }
      return 'ok';
    };

    it('config_smtpUrlWithoutPublicUrl_refused', () => {
      expect(reason({ SMTP_URL: 'smtp://u:p@mail.example.com:587' })).to.equal(
        'Configuração inválida: PUBLIC_URL é obrigatória quando SMTP_URL está definida (links dos e-mails)',
      );
    });

    it('config_badSmtpUrlOrMailFrom_refusedWithoutEchoingSecrets', () => {
      const bad = reason({ SMTP_URL: 'http://u:segredo@mail.example.com', PUBLIC_URL: 'https://x.example.com' });
      expect(bad).to.equal('Configuração inválida: SMTP_URL deve usar smtp: ou smtps:');
      expect(bad).to.not.include('segredo');
      expect(reason({ MAIL_FROM: 'não é endereço' })).to.match(/^Configuração inválida: MAIL_FROM deve ser/);
    });

    it('config_defaults_fromDerivedFromPublicUrl', () => {
      expect(loadConfig(base).mail).to.deep.equal({ smtpUrl: undefined, from: 'aabify <no-reply@localhost>' });
      const smtps = loadConfig({ ...base, SMTP_URL: 'smtps://u:p@smtp.example.com:465', PUBLIC_URL: 'https://aabify.example.com.br' });
      expect(smtps.mail).to.deep.equal({ smtpUrl: 'smtps://u:p@smtp.example.com:465', from: 'aabify <no-reply@aabify.example.com.br>' });
      expect(loadConfig({ ...base, MAIL_FROM: 'Conversor <avisos@empresa.com.br>' }).mail.from).to.equal('Conversor <avisos@empresa.com.br>');
    });
  });
});

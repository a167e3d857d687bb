/**
 * Conta › Perfil over HTTP with a real SMTP server on loopback: the name; a change of e-mail
 * confirmed by a link sent to the NEW address (nothing changes before it is followed, the old
 * address is told, both steps audited); and the optional e-mails' switches, which the mailer
 * honours while security e-mails still go.
 */
import { expect } from 'chai';
import { EMAIL_MESSAGES, type ApiUser, type MessageResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, buildUser, DEFAULT_PASSWORD, tokenFor, uniqueEmail } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { linkToken, startTestSmtp, type ReceivedMail, type TestSmtp } from './helpers/smtpServer.js';

type Err = { message: string; code: string; fields?: Record<string, string> };
const PUBLIC_URL = 'http://aabify.test';

describe('account profile', function () {
  this.timeout(60_000);
  let smtp: TestSmtp;
  let server: TestServer;

  before(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL }, { mail: { retryDelayMs: 200, maxAttempts: 3 } });
  });
  after(async () => {
    await server?.stop();
    await smtp?.close();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  const to = (address: string, subject?: RegExp) => (m: ReceivedMail) => m.rcptTo.includes(address) && (!subject || subject.test(m.subject));
  const kindsTo = async (address: string) => (await server.ctx.models.EmailMessage.findAll({ where: { to: address } })).map((m) => m.kind);
  const auditOf = (action: string, userId: string) => server.ctx.models.AuditEvent.findAll({ where: { action, targetId: userId } });

  it('profile_nameSavedTrimmedAndClearedWhenBlank', async () => {
    const user = await buildUser(server, { name: 'Antiga' });
    const token = tokenFor(server, user);
    const saved = await api(server).patch<MessageResponse & { user: ApiUser }>('/account/profile', { name: '  Maria Conceição  ' }, token);
    expect([saved.status, saved.body.message, saved.body.user.name]).to.deep.equal([200, EMAIL_MESSAGES.profileSaved, 'Maria Conceição']);
    const cleared = await api(server).patch<{ user: ApiUser }>('/account/profile', { name: '   ' }, token);
    expect(cleared.body.user.name).to.equal(null);
    expect((await api(server).patch<Err>('/account/profile', { name: 'x'.repeat(101) }, token)).status).to.equal(400);
  });

  it('emailChange_linkToTheNewAddress_appliedOnlyWhenFollowed_oldAddressTold_audited', async () => {
    const user = await buildUser(server, { name: 'Rita', emailVerifiedAt: new Date() });
    const oldEmail = user.email;
    const newEmail = uniqueEmail('nova-caixa');
    const token = tokenFor(server, user);

    const asked = await api(server).post<MessageResponse>('/account/email-change', { newEmail: newEmail.toUpperCase() }, token);
    expect(asked.status, JSON.stringify(asked.body)).to.equal(200);
    expect(asked.body.message).to.equal(EMAIL_MESSAGES.emailChangeSent(newEmail));
    const confirmMail = await smtp.waitFor(to(newEmail, /Confirme seu novo e-mail/));
    expect(confirmMail.text).to.include(`${PUBLIC_URL}/confirm-email-change?token=`);
    const told = await smtp.waitFor(to(oldEmail, /Pedido de troca/));
    expect(told.text).to.include(newEmail);

    // Nothing changed yet: the account signs in with its old address only.
    expect((await user.reload()).email).to.equal(oldEmail);
    expect((await api(server).post('/auth/login', { email: oldEmail, password: DEFAULT_PASSWORD })).status).to.equal(200);
    expect((await api(server).post('/auth/login', { email: newEmail, password: DEFAULT_PASSWORD })).status).to.equal(401);

    // Followed (from any browser): the new address is the account's, confirmed by the link.
    const confirmed = await api(server).post<MessageResponse & { email: string }>('/account/email-change/confirm', { token: linkToken(confirmMail, '/confirm-email-change') });
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    expect(confirmed.body).to.deep.equal({ message: EMAIL_MESSAGES.emailChanged(newEmail), email: newEmail });
    await user.reload();
    expect(user.email).to.equal(newEmail);
    expect(user.emailVerifiedAt).to.not.equal(null);
    expect((await api(server).post('/auth/login', { email: newEmail, password: DEFAULT_PASSWORD })).status).to.equal(200);
    const changedNotice = await smtp.waitFor(to(oldEmail, /foi alterado/));
    expect(changedNotice.text).to.include(newEmail);

    // Single use.
    const again = await api(server).post<Err>('/account/email-change/confirm', { token: linkToken(confirmMail, '/confirm-email-change') });
    expect([again.status, again.body.code]).to.deep.equal([400, 'EMAIL_CHANGE_LINK_INVALID']);

    // Audited: the request (with the address asked for) and the change (before and after).
    const [requested] = await auditOf('account.email_change_requested', user.id);
    expect(requested?.details).to.deep.include({ newEmail, sent: true });
    expect(requested?.actorId).to.equal(user.id);
    const [changed] = await auditOf('account.email_changed', user.id);
    expect([changed?.before, changed?.after]).to.deep.equal([{ email: oldEmail }, { email: newEmail }]);
  });

  it('emailChange_refusals_sameAddressTokenOrTakenAddressGetsNoLink', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const same = await api(server).post<Err>('/account/email-change', { newEmail: user.email }, token);
    expect([same.status, same.body.code, same.body.fields]).to.deep.equal([400, 'EMAIL_UNCHANGED', { newEmail: EMAIL_MESSAGES.emailChangeSame }]);
    const invalid = await api(server).post<Err>('/account/email-change', { newEmail: 'não-é-email' }, token);
    expect(invalid.status).to.equal(400);

    // An API token cannot move the account to another mailbox.
    const created = await api(server).post<{ token: string }>('/auth/tokens', { name: 'ci' }, tokenFor(server, await user.update({ emailVerifiedAt: new Date() })));
    expect((await api(server).post<Err>('/account/email-change', { newEmail: uniqueEmail('via-token') }, created.body.token)).status).to.equal(403);

    // Another account's address: the same answer, and no link to it (its owner is not mailed by a stranger).
    const other = await buildUser(server);
    const taken = await api(server).post<MessageResponse>('/account/email-change', { newEmail: other.email }, token);
    expect([taken.status, taken.body.message]).to.deep.equal([200, EMAIL_MESSAGES.emailChangeSent(other.email)]);
    expect(await kindsTo(other.email)).to.not.include('email_change_confirm');
    expect((await auditOf('account.email_change_requested', user.id))[0]?.details).to.deep.include({ newEmail: other.email, sent: false });
  });

  it('emailChange_addressTakenBeforeTheLinkIsFollowed_409AndNothingChanges', async () => {
    const user = await buildUser(server);
    const wanted = uniqueEmail('disputado');
    await api(server).post('/account/email-change', { newEmail: wanted }, tokenFor(server, user));
    const mail = await smtp.waitFor(to(wanted, /Confirme seu novo e-mail/));
    await buildUser(server, { email: wanted });
    const res = await api(server).post<Err>('/account/email-change/confirm', { token: linkToken(mail, '/confirm-email-change') });
    expect([res.status, res.body.code]).to.deep.equal([409, 'EMAIL_TAKEN']);
    expect((await user.reload()).email).to.not.equal(wanted);
  });

  it('preferences_eachOptionalKindItsOwnSwitch_mailerHonoursThem_securityMailStillGoes', async () => {
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    expect(user.notifyProductNews).to.equal(false);
    const off = await api(server).patch<{ user: ApiUser }>('/account/preferences', { notifyConversionFailures: false }, token);
    expect(off.status).to.equal(200);
    expect(off.body.user).to.include({ notifyConversions: true, notifyConversionFailures: false, notifyProductNews: false });
    expect((await api(server).patch<Err>('/account/preferences', {}, token)).body).to.include({ code: 'VALIDATION_ERROR', message: EMAIL_MESSAGES.preferencesEmpty });

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    const failed = await buildConversion(server, user, { fileName: 'quebrou.apk', status: 'failed', error: 'x', completedAt: new Date(), createdAt: twoMinutesAgo });
    const done = await buildConversion(server, user, { fileName: 'pronto.apk', status: 'completed', completedAt: new Date(), createdAt: twoMinutesAgo });
    await user.reload();
    await server.ctx.mail.conversionEnded(failed);
    await server.ctx.mail.conversionEnded(done);
    await server.ctx.mail.productNews(user, { title: 'Nova tela', paragraphs: ['Texto.'] });
    await smtp.waitFor(to(user.email, /Conversão concluída: pronto.apk/));
    expect(await kindsTo(user.email)).to.include('conversion_finished').and.not.include.members(['conversion_failed', 'product_news']);

    // Asked for: the news goes. Every switch off: a security e-mail still goes.
    await api(server).patch('/account/preferences', { notifyProductNews: true, notifyConversions: false }, token);
    await server.ctx.mail.productNews(await user.reload(), { title: 'Nova tela', paragraphs: ['Texto.'] });
    const news = await smtp.waitFor(to(user.email, /Novidades do aabify: Nova tela/));
    expect(news.text).to.include('Conta › Perfil');
    await api(server).patch('/account/preferences', { notifyProductNews: false }, token);
    expect((await api(server).patch('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: 'outra-senha-forte-1' }, token)).status).to.equal(200);
    await smtp.waitFor(to(user.email, /senha .* foi alterada/));
  });
});

describe('account profile without SMTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());

  it('emailChange_noEmailDelivery_503SaidPlainlyNothingQueued', async () => {
    const user = await buildUser(server);
    const res = await api(server).post<Err>('/account/email-change', { newEmail: uniqueEmail('sem-smtp') }, tokenFor(server, user));
    expect([res.status, res.body.code, res.body.message]).to.deep.equal([503, 'EMAIL_DELIVERY_UNAVAILABLE', EMAIL_MESSAGES.emailChangeNotDeliverable]);
    expect(await server.ctx.models.EmailMessage.count({ where: { userId: user.id } })).to.equal(0);
  });
});

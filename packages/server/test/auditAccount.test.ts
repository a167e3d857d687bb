/**
 * The security events of an account in the audit trail, through real HTTP: sign-in (and
 * refused attempts), sign-out, password changed and reset, e-mail confirmed, API tokens made and
 * revoked, upload keystore and Google Play key saved and removed — with where they came from,
 * and never a password, token or key. The account reads them in "Atividade da conta".
 */
import { expect } from 'chai';
import { generateUploadKeystore } from '@aabify/converter';
import type { AccountActivityResponse, AuditEventDetail, EmailKind } from '@aabify/shared';
import { makeServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { waitFor } from './helpers/conversions.js';
import { DEFAULT_PASSWORD, buildAdmin, buildUser, tokenFor, uniqueEmail } from './helpers/factories.js';
import { auditEvent, auditEvents } from './helpers/audit.js';
import { enrolTwoFactor, totpCode } from './helpers/twoFactor.js';
import type { User } from '../src/models/index.js';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const NEW_PASSWORD = 'nova-senha-que-nao-aparece-77';

describe('audit trail: security events of an account', function () {
  this.timeout(120_000);
  let server: TestServer;
  let adminToken: string;
  const http = () => api(server);
  const fromChrome = { headers: { 'user-agent': CHROME_WINDOWS } };

  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
    adminToken = tokenFor(server, await buildAdmin(server));
  });
  beforeEach(() => server.ctx.rateLimits.reset());
  after(async () => {
    await server?.stop();
  });

  const login = (email: string, password: string) => http().post<{ token: string }>('/auth/login', { email, password }, undefined, fromChrome);
  const activity = async (token: string) => {
    const res = await http().get<AccountActivityResponse>('/account/activity', token);
    expect(res.status).to.equal(200);
    return res.body.events;
  };

  function expectNoSecrets(event: AuditEventDetail, ...secrets: string[]): void {
    const text = JSON.stringify(event);
    for (const s of [DEFAULT_PASSWORD, NEW_PASSWORD, ...secrets]) expect(text).to.not.contain(s);
  }

  /** The single-use link's token of the newest e-mail of this kind to the address (kept in the outbox: no SMTP here). */
  async function linkToken(to: string, kind: EmailKind): Promise<string> {
    const message = await waitFor(() => server.ctx.models.EmailMessage.findOne({ where: { to, kind }, order: [['createdAt', 'DESC']] }).then((m) => m ?? undefined), 10_000, `${kind} e-mail`);
    const m = /token=([A-Za-z0-9_-]+)/.exec(server.ctx.mail.outbox.render(message, 'delivery').text);
    if (!m) throw new Error('no link in the e-mail');
    return m[1]!;
  }

  it('signIn_successAndRefusals_recordedWithAddressAndDevice', async () => {
    const user = await buildUser(server);
    expect((await login(user.email, 'senha-errada-123')).status).to.equal(401);
    const ok = await login(user.email, DEFAULT_PASSWORD);
    expect(ok.status).to.equal(200);

    const signIn = await auditEvent(server, adminToken, 'auth.sign_in', user.id);
    expect(signIn.actor).to.deep.equal({ id: user.id, email: user.email, role: 'user' });
    expect(signIn.address).to.match(/127\.0\.0\.1$/);
    expect(signIn.userAgent).to.equal(CHROME_WINDOWS);
    const failed = await auditEvent(server, adminToken, 'auth.sign_in_failed', user.id);
    expect(failed.actor.id).to.equal(null);
    expect(failed.accountId).to.equal(user.id);
    expect(failed.details).to.deep.equal({ reason: 'wrong_password' });
    expectNoSecrets(failed, 'senha-errada-123');

    const seen = await activity(ok.body.token);
    expect(seen.map((e) => e.action).slice(0, 2)).to.deep.equal(['auth.sign_in', 'auth.sign_in_failed']);
    expect(seen[0]).to.include({ label: 'Entrada na conta', byAdmin: false, device: 'Chrome no Windows' });
    expect(seen[0]!.address).to.match(/127\.0\.0\.1$/);
  });

  it('signIn_unknownAddressOrDisabledAccount_recordedWithTheirReason', async () => {
    const unknown = uniqueEmail('ninguem');
    expect((await login(unknown, DEFAULT_PASSWORD)).status).to.equal(401);
    const event = await auditEvent(server, adminToken, 'auth.sign_in_failed', unknown);
    expect(event.target).to.deep.equal({ type: 'user', id: null, label: unknown });
    expect(event.accountId).to.equal(null);
    expect(event.details).to.deep.equal({ reason: 'unknown_email' });

    const disabled = await buildUser(server, { isActive: false });
    expect((await login(disabled.email, DEFAULT_PASSWORD)).status).to.equal(401);
    expect((await auditEvent(server, adminToken, 'auth.sign_in_failed', disabled.id)).details).to.deep.equal({ reason: 'account_disabled' });
  });

  it('signOut_oneSessionAndAll_recorded', async () => {
    const user = await buildUser(server);
    const first = (await login(user.email, DEFAULT_PASSWORD)).body.token;
    expect((await http().post('/auth/logout', undefined, first)).status).to.equal(200);
    expect((await auditEvent(server, adminToken, 'auth.sign_out', user.id)).actor.id).to.equal(user.id);
    const second = (await login(user.email, DEFAULT_PASSWORD)).body.token;
    expect((await http().post('/auth/logout-all', undefined, second)).status).to.equal(200);
    expect((await auditEvent(server, adminToken, 'auth.sign_out_all', user.id)).via).to.equal('session');
  });

  it('sessions_oneEndedFromTheList_recordedWithItsDevice', async () => {
    const user = await buildUser(server);
    const here = (await login(user.email, DEFAULT_PASSWORD)).body.token;
    const other = (await http().post<{ token: string }>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).body.token;
    const list = await http().get<{ sessions: { id: string; current: boolean }[] }>('/auth/sessions', here);
    const otherSession = list.body.sessions.find((s) => !s.current);
    expect(otherSession, JSON.stringify(list.body)).to.not.equal(undefined);
    expect((await http().delete(`/auth/sessions/${otherSession!.id}`, here)).status).to.equal(204);
    expect((await http().get('/auth/me', other)).status).to.equal(401);
    const ended = await auditEvent(server, adminToken, 'auth.session_ended', user.id);
    expect(ended.actor.id).to.equal(user.id);
    expect(ended.details).to.include({ sessionId: otherSession!.id });
    expectNoSecrets(ended, here, other);
    expect((await activity(here)).map((e) => e.action)).to.include('auth.session_ended');
  });

  it('twoFactor_enrolSignInWrongCodeRegenerateDisable_eachRecordedNeverTheSecretOrCodes', async () => {
    const user = await buildUser(server);
    const session = (await login(user.email, DEFAULT_PASSWORD)).body.token;
    const { secret, recoveryCodes } = await enrolTwoFactor(server, session);
    expect((await auditEvent(server, adminToken, 'two_factor.enabled', user.id)).actor.id).to.equal(user.id);

    const step1 = await http().post<{ challenge: string }>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, undefined, fromChrome);
    expect(step1.status).to.equal(200);
    expect((await http().post('/auth/login/2fa', { challenge: step1.body.challenge, code: totpCode(secret, Date.now() - 10 * 60_000) })).status).to.equal(401);
    const refused = await auditEvent(server, adminToken, 'auth.sign_in_failed', user.id);
    expect(refused.details).to.deep.equal({ reason: 'wrong_code' });
    const signedIn = await http().post<{ token: string }>('/auth/login/2fa', { challenge: step1.body.challenge, code: recoveryCodes[0]! });
    expect(signedIn.status, JSON.stringify(signedIn.body)).to.equal(200);
    const signIn = await auditEvent(server, adminToken, 'auth.sign_in', user.id);
    expect(signIn.details).to.deep.equal({ secondFactor: 'recovery' });

    const regenerated = await http().post<{ recoveryCodes: string[] }>('/auth/2fa/recovery-codes', undefined, signedIn.body.token);
    expect(regenerated.status, JSON.stringify(regenerated.body)).to.equal(200);
    const regen = await auditEvent(server, adminToken, 'two_factor.recovery_codes_regenerated', user.id);
    const disabled = await http().post('/auth/2fa/disable', { password: DEFAULT_PASSWORD, code: totpCode(secret, Date.now() + 30_000) }, signedIn.body.token);
    expect(disabled.status, JSON.stringify(disabled.body)).to.equal(200);
    const off = await auditEvent(server, adminToken, 'two_factor.disabled', user.id);
    for (const event of [refused, signIn, regen, off]) expectNoSecrets(event, secret, ...recoveryCodes, ...regenerated.body.recoveryCodes);
    const seen = (await activity(signedIn.body.token)).map((e) => e.action);
    expect(seen).to.include.members(['two_factor.enabled', 'two_factor.disabled', 'two_factor.recovery_codes_regenerated', 'auth.sign_in_failed']);
  });

  it('password_changedBySelfThenByAdmin_recordedWithoutThePassword_adminsShownAsSuch', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const changed = await http().patch<{ token: string }>('/auth/change-password', { currentPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD }, token, fromChrome);
    expect(changed.status).to.equal(200);
    expectNoSecrets(await auditEvent(server, adminToken, 'account.password_changed', user.id));

    expect((await http().patch(`/admin/users/${user.id}/change-password`, { newPassword: `${NEW_PASSWORD}-2` }, adminToken)).status).to.equal(200);
    const fresh = (await login(user.email, `${NEW_PASSWORD}-2`)).body.token;
    const seen = await activity(fresh);
    const byAdmin = seen.find((e) => e.action === 'user.password_changed');
    expect(byAdmin).to.include({ label: 'Senha definida por administrador', byAdmin: true, address: null, device: null });
    expect(seen.find((e) => e.action === 'account.password_changed')).to.include({ byAdmin: false, device: 'Chrome no Windows' });
  });

  it('passwordReset_byTheEmailedLink_recordedWithTheConfirmationOfAnUnconfirmedAddress', async () => {
    const user = await buildUser(server, { emailVerifiedAt: null });
    expect((await http().post('/auth/forgot-password', { email: user.email })).status).to.equal(200);
    const token = await linkToken(user.email, 'password_reset');
    const reset = await http().post('/auth/reset-password', { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, undefined, fromChrome);
    expect(reset.status, JSON.stringify(reset.body)).to.equal(200);
    const event = await auditEvent(server, adminToken, 'account.password_reset', user.id);
    expect(event.actor.id).to.equal(user.id);
    expect(event.userAgent).to.equal(CHROME_WINDOWS);
    expectNoSecrets(event, token);
    expect((await auditEvent(server, adminToken, 'account.email_verified', user.id)).actor.id).to.equal(user.id);
  });

  it('emailConfirmed_byTheLinkWhileSignedIn_recordedOnce', async () => {
    // Signed up: the welcome e-mail carries the confirmation link, and the answer a session.
    const email = uniqueEmail('confirma');
    const signedUp = await http().post<{ token: string; user: { id: string } }>('/auth/register', { acceptTerms: true, email, password: DEFAULT_PASSWORD });
    expect(signedUp.status).to.equal(201);
    const user = { id: signedUp.body.user.id };
    const session = signedUp.body.token;
    const token = await linkToken(email, 'welcome');
    expect((await http().post('/auth/verify-email', { token }, session)).status).to.equal(200);
    const events = await auditEvents(server, adminToken, 'account.email_verified', user.id);
    expect(events).to.have.length(1);
    expect(events[0]!.actor.id).to.equal(user.id);
  });

  it('apiTokens_madeAndRevoked_recordedWithoutTheSecret', async () => {
    const user = await buildUser(server);
    const session = tokenFor(server, user);
    const made = await http().post<{ id: string; token: string; prefix: string; scopes: string[] }>('/auth/tokens', { name: 'CI do projeto' }, session);
    expect(made.status).to.equal(201);
    const created = await auditEvent(server, adminToken, 'api_token.created', made.body.id);
    expect(created.target).to.deep.equal({ type: 'api_token', id: made.body.id, label: 'CI do projeto' });
    expect(created.accountId).to.equal(user.id);
    expect(created.after).to.deep.equal({ name: 'CI do projeto', prefix: made.body.prefix, scopes: made.body.scopes });
    expectNoSecrets(created, made.body.token);

    expect((await http().delete(`/auth/tokens/${made.body.id}`, session)).status).to.equal(204);
    const revoked = await auditEvent(server, adminToken, 'api_token.revoked', made.body.id);
    expect(revoked.before).to.deep.equal({ name: 'CI do projeto', prefix: made.body.prefix, scopes: made.body.scopes });
    expectNoSecrets(revoked, made.body.token);
  });

  it('actor_actingWithAnApiToken_recordsWhichToken', async () => {
    const user = await buildUser(server);
    const made = await http().post<{ id: string; token: string }>('/auth/tokens', { name: 'pipeline' }, tokenFor(server, user));
    expect(made.status).to.equal(201);
    // A token may revoke itself (a pipeline cleaning up after a leak): the event names that token.
    expect((await http().delete(`/auth/tokens/${made.body.id}`, made.body.token)).status).to.equal(204);
    const event = await auditEvent(server, adminToken, 'api_token.revoked', made.body.id);
    expect(event.via).to.equal('api_token');
    expect(event.apiTokenId).to.equal(made.body.id);
    expect(event.actor.id).to.equal(user.id);
  });

  it('uploadKeystore_savedReplacedRemoved_recordedWithTheCertificateNeverTheKey', async () => {
    const user = await buildUser(server);
    const session = tokenFor(server, user);
    const storePassword = 'senha-do-keystore-secreta';
    const first = generateUploadKeystore({ alias: 'primeira', dname: 'CN=Loja, O=aabify, C=BR', password: storePassword });
    const second = generateUploadKeystore({ alias: 'segunda', dname: 'CN=Loja, O=aabify, C=BR', password: storePassword });
    const put = (k: typeof first) => http().put<{ keystore: { certificateSha256: string } }>('/account/keystore', { keystore: k.keystore.toString('base64'), storePassword }, session);
    const one = await put(first);
    expect(one.status, JSON.stringify(one.body)).to.equal(200);
    const two = await put(second);
    expect(two.status).to.equal(200);
    const replaced = await auditEvent(server, adminToken, 'keystore.saved', user.id);
    expect(replaced.before).to.include({ alias: 'primeira', certificateSha256: one.body.keystore.certificateSha256 });
    expect(replaced.after).to.include({ alias: 'segunda', certificateSha256: two.body.keystore.certificateSha256 });
    expectNoSecrets(replaced, storePassword, second.keystore.toString('base64').slice(0, 40));

    expect((await http().delete('/account/keystore', session)).status).to.equal(204);
    const removed = await auditEvent(server, adminToken, 'keystore.removed', user.id);
    expect(removed.before).to.include({ alias: 'segunda' });
    expect((await activity(session)).map((e) => e.action).slice(0, 3)).to.deep.equal(['keystore.removed', 'keystore.saved', 'keystore.saved']);
  });

  it('playKey_savedAndRemoved_recordedAsWhoItIsNeverTheKey', async () => {
    const user: User = await buildUser(server);
    const session = tokenFor(server, user);
    const account = makeServiceAccount('auditado');
    expect((await http().put('/account/play-credentials', { key: account.json }, session)).status).to.equal(200);
    const saved = await auditEvent(server, adminToken, 'play_key.saved', user.id);
    expect(saved.before).to.equal(null);
    expect(saved.after).to.include({ clientEmail: account.clientEmail });
    const privateKey = (JSON.parse(account.json) as { private_key: string }).private_key;
    expectNoSecrets(saved, privateKey.split('\n')[1]!);

    expect((await http().delete('/account/play-credentials', session)).status).to.equal(204);
    expect((await auditEvent(server, adminToken, 'play_key.removed', user.id)).before).to.include({ clientEmail: account.clientEmail });
  });
});

/**
 * Account pre-hijacking: someone registers an address that is not theirs (registration needs
 * no confirmed address), signs in and plants access before the real owner takes the account
 * back through an e-mailed reset link — or waits for the owner to click the welcome link, and
 * keeps the password it chose. An unconfirmed account cannot mint API tokens; a reset by e-mail
 * link of an account whose address was still unconfirmed removes what a pre-registrant could
 * have left behind (API tokens, keystore, Play key, queued publications, download links), while
 * a reset of a confirmed account keeps the owner's CI tokens. The confirmation link confirms
 * only for someone signed in to the account, or who knows its password, or who sets a new one
 * (which removes the same things as the reset).
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import { ACCOUNT_MESSAGES, EMAIL_MESSAGES, PLAY_MESSAGES, type AuthResponse, type CreatedApiTokenResponse, type VerifyEmailResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtpServer.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildUser, tokenFor, uniqueEmail } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, socketFor, waitFor } from './helpers/conversions.js';
import type { User } from '../src/models/index.js';
import { generateApiToken } from '../src/accounts/tokens.js';
import { hashDownloadToken } from '../src/conversions/downloads.js';
import { issueEmailLink } from '../src/mail/links.js';
import { encryptJson } from '../src/settings/crypto.js';
import { keystoreAad } from '../src/keystores/service.js';
import { playCredentialsAad } from '../src/play/credentials.js';

type Err = { message: string; code: string; details?: unknown; fields?: Record<string, string> };

describe('account pre-hijacking (unconfirmed accounts, reset by e-mail link)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let smtp: TestSmtp;
  const sockets: Socket[] = [];

  before(async () => {
    // E-mail delivered: addresses can be confirmed and accounts taken back by a link.
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test' });
  });
  after(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
    await smtp?.close();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  /** What a pre-registrant could have left on the account before the owner came. */
  async function plantAccess(user: User) {
    const { models, secrets } = server.ctx;
    const secret = generateApiToken();
    const apiToken = await models.ApiToken.create({ userId: user.id, name: 'CI do invasor', tokenHash: secret.hash, prefix: secret.prefix });
    await models.UserKeystore.create({
      userId: user.id,
      secret: encryptJson({ keystore: 'AAAA', storePassword: 'segredo' }, secrets.encryptionKey, keystoreAad(user.id)),
      alias: 'invasor',
      format: 'PKCS12',
      keyAlgorithm: 'RSA',
      keySize: 2048,
      subject: 'CN=Invasor',
      certificateSha1: 'aa'.repeat(20),
      certificateSha256: 'bb'.repeat(32),
      notAfter: new Date(Date.now() + 365 * 86400000),
      fileName: 'invasor.p12',
    });
    await models.PlayCredential.create({
      userId: user.id,
      secret: encryptJson({ client_email: 'invasor@projeto.iam.gserviceaccount.com' }, secrets.encryptionKey, playCredentialsAad(user.id)),
      clientEmail: 'invasor@projeto.iam.gserviceaccount.com',
      projectId: 'projeto',
      privateKeyId: 'chave',
    });
    const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, aabKey: 'nada.aab', completedAt: new Date() });
    const publication = await models.Publication.create({
      conversionId: conversion.id,
      userId: user.id,
      packageName: 'com.invasor.app',
      track: 'internal',
      releaseStatus: 'draft',
      rolloutPercent: null,
      releaseName: null,
      releaseNotes: [],
      status: 'queued',
    });
    const downloadTokenHash = hashDownloadToken(`link-do-invasor-${user.id}`);
    await models.DownloadToken.create({
      tokenHash: downloadTokenHash,
      conversionId: conversion.id,
      userId: user.id,
      credential: { method: 'api_token', userId: user.id, apiTokenId: apiToken.id },
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return { apiToken, apiTokenSecret: secret.token, publication, downloadTokenHash };
  }

  async function resetByLink(user: User, password = 'senha-do-dono-1'): Promise<AuthResponse> {
    const link = await issueEmailLink(server.ctx.models, user, 'password_reset');
    const res = await api(server).post<AuthResponse>('/auth/reset-password', { token: link.token, password, confirmPassword: password });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  }

  it('setup_firstAdmin_countsAsConfirmedAndCreatesApiTokens', async () => {
    const setup = await api(server).post<AuthResponse>('/setup/initialize', { email: uniqueEmail('primeiro-admin'), password: 'segredo-do-admin', name: 'Maria' });
    expect(setup.status, JSON.stringify(setup.body)).to.equal(201);
    expect(setup.body.user.emailVerified).to.equal(true);
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CLI' }, setup.body.token);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
  });

  it('createToken_unconfirmedAddress_answers403UntilTheAddressIsConfirmed', async () => {
    const email = uniqueEmail('vitima');
    expect((await api(server).post('/auth/register', { acceptTerms: true, email, password: 'senha-do-invasor' })).status).to.equal(201);
    const login = await api(server).post<AuthResponse>('/auth/login', { email, password: 'senha-do-invasor' });
    expect(login.status).to.equal(200);

    const refused = await api(server).post<Err>('/auth/tokens', { name: 'CI' }, login.body.token);
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.include({ code: 'EMAIL_NOT_VERIFIED', message: ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail });
    const user = (await server.ctx.models.User.findOne({ where: { email } }))!;
    expect(await server.ctx.models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);

    // Once the owner of the address confirms it, tokens can be made.
    const link = await issueEmailLink(server.ctx.models, user, 'email_verification');
    expect((await api(server).post('/auth/verify-email', { token: link.token }, login.body.token)).status).to.equal(200);
    expect((await api(server).post('/auth/tokens', { name: 'CI' }, login.body.token)).status).to.equal(201);
  });

  it('createToken_noEmailDelivery_unconfirmedAddressStillCreatesTokens', async () => {
    // Without SMTP_URL no address can ever be confirmed: the gate would shut the CLI's sign-in.
    const offline = await startTestServer();
    try {
      const email = uniqueEmail('semsmtp');
      expect((await api(offline).post('/auth/register', { acceptTerms: true, email, password: 'senha-qualquer' })).status).to.equal(201);
      const login = await api(offline).post<AuthResponse>('/auth/login', { email, password: 'senha-qualquer' });
      expect(login.body.user.emailVerified).to.equal(false);
      expect((await api(offline).post('/auth/tokens', { name: 'CI' }, login.body.token)).status).to.equal(201);
    } finally {
      await offline.stop();
    }
  });

  it('resetByLink_unconfirmedAccount_removesPlantedTokensKeysPublicationsAndLinks', async () => {
    const user = await buildUser(server);
    const planted = await plantAccess(user);
    expect((await api(server).get('/auth/me', planted.apiTokenSecret)).status).to.equal(200);
    // A socket opened with the planted token: the reset closes it.
    const socket = socketFor(server, planted.apiTokenSecret);
    sockets.push(socket);
    let closedBy = '';
    socket.on('disconnect', (reason) => (closedBy = reason));
    await connected(socket);

    const reset = await resetByLink(user);
    expect(reset.user.emailVerified).to.equal(true);

    const { models } = server.ctx;
    const me = await api(server).get<Err>('/auth/me', planted.apiTokenSecret);
    expect(me.status).to.equal(401);
    expect(me.body.code).to.equal('TOKEN_INVALID');
    expect(await models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);
    expect(await models.UserKeystore.findByPk(user.id)).to.equal(null);
    expect(await models.PlayCredential.findByPk(user.id)).to.equal(null);
    expect(await models.DownloadToken.findByPk(planted.downloadTokenHash)).to.equal(null);
    const publication = await models.Publication.findByPk(planted.publication.id);
    expect(publication).to.deep.include({ status: 'failed', errorCode: 'PUBLICATION_CANCELLED', error: PLAY_MESSAGES.cancelledOnRecovery });
    await waitFor(() => (closedBy ? true : undefined), 10000, 'the server to close the planted token\'s socket');
    expect(closedBy).to.equal('io server disconnect');

    // The owner is signed in with the new password and can make their own tokens.
    expect((await api(server).post('/auth/tokens', { name: 'Meu CI' }, reset.token)).status).to.equal(201);
  });

  it('resetByLink_confirmedAccount_keepsTokensKeysAndPublications', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date(Date.now() - 86400000) });
    const planted = await plantAccess(user);
    const session = tokenFor(server, user);

    await resetByLink(user);

    const { models } = server.ctx;
    expect((await api(server).get('/auth/me', planted.apiTokenSecret)).status).to.equal(200);
    expect(await models.ApiToken.count({ where: { userId: user.id } })).to.equal(1);
    expect(await models.UserKeystore.findByPk(user.id)).to.not.equal(null);
    expect(await models.PlayCredential.findByPk(user.id)).to.not.equal(null);
    expect(await models.DownloadToken.findByPk(planted.downloadTokenHash)).to.not.equal(null);
    expect((await models.Publication.findByPk(planted.publication.id))!.status).to.equal('queued');
    // The sessions still end, as with any reset.
    expect((await api(server).get('/auth/me', session)).status).to.equal(401);
  });

  describe('the confirmation link', () => {
    /** The welcome e-mail's link: registered by `user`'s side, clicked by the mailbox's owner. */
    const confirmationLink = async (user: User) => (await issueEmailLink(server.ctx.models, user, 'email_verification')).token;
    const verify = (body: { token: string; password?: string; newPassword?: string; confirmPassword?: string }, bearer?: string) => api(server).post<VerifyEmailResponse & Err>('/auth/verify-email', body, bearer);
    const confirmed = async (user: User) => Boolean((await user.reload()).emailVerifiedAt);

    it('verifyEmail_openedWhereNobodyIsSignedIn_asksForThePasswordAndLeavesTheLinkUnused', async () => {
      const user = await buildUser(server);
      const token = await confirmationLink(user);

      const asked = await verify({ token });
      expect(asked.status).to.equal(403);
      expect(asked.body).to.deep.include({ code: 'VERIFY_SIGN_IN_REQUIRED', message: EMAIL_MESSAGES.verifySignInRequired, details: { email: user.email } });
      expect(await confirmed(user)).to.equal(false);

      // A credential of another account is no proof either.
      const stranger = await buildUser(server);
      expect((await verify({ token }, tokenFor(server, stranger))).body.code).to.equal('VERIFY_SIGN_IN_REQUIRED');
      // Nor is a session that ended.
      const ended = tokenFor(server, user);
      await user.update({ tokenVersion: user.tokenVersion + 1 });
      expect((await verify({ token }, ended)).body.code).to.equal('VERIFY_SIGN_IN_REQUIRED');
      expect(await confirmed(user)).to.equal(false);

      // The same link still works for the account's own session.
      const ok = await verify({ token }, tokenFor(server, user));
      expect(ok.status).to.equal(200);
      expect(ok.body).to.deep.equal({ message: EMAIL_MESSAGES.emailVerified });
      expect(await confirmed(user)).to.equal(true);
    });

    it('verifyEmail_withTheAccountsPassword_confirmsAndSignsIn', async () => {
      const user = await buildUser(server);
      const registrantSession = tokenFor(server, user);
      const res = await verify({ token: await confirmationLink(user), password: DEFAULT_PASSWORD });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.message).to.equal(EMAIL_MESSAGES.emailVerifiedSignedIn);
      expect(res.body.user?.emailVerified).to.equal(true);
      const me = await api(server).get<{ email: string; emailVerified: boolean }>('/auth/me', res.body.token);
      expect(me.body).to.deep.include({ email: user.email, emailVerified: true });
      // Whoever knows the password is the registrant: their other sessions go on.
      expect((await api(server).get('/auth/me', registrantSession)).status).to.equal(200);
    });

    it('verifyEmail_wrongPassword_refusedAndCountedAsSignInAttempts', async () => {
      const user = await buildUser(server);
      const token = await confirmationLink(user);
      const wrong = await verify({ token, password: 'chute-errado' });
      expect(wrong.status).to.equal(400);
      expect(wrong.body).to.deep.include({ code: 'WRONG_PASSWORD', fields: { password: EMAIL_MESSAGES.verifyPasswordWrong } });
      expect(await confirmed(user)).to.equal(false);
      // The link does not make the password cheaper to guess: the sign-in's limit per account
      // and address (5 per 15 min) counts these guesses too.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await verify({ token, password: `chute-${i}` })).status);
      expect(statuses.slice(0, 4)).to.deep.equal([400, 400, 400, 400]);
      expect(statuses[4]).to.equal(429);
      const login = await api(server).post<Err>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
      expect(login.status).to.equal(429);
      expect(await confirmed(user)).to.equal(false);
    });

    it('verifyEmail_ownerSetsANewPassword_endsThePreRegistrantsAccess', async () => {
      // Someone registered the owner's address, is signed in, and planted access on it.
      const email = uniqueEmail('dono-do-email');
      expect((await api(server).post('/auth/register', { acceptTerms: true, email, password: 'senha-do-invasor' })).status).to.equal(201);
      const registrant = await api(server).post<AuthResponse>('/auth/login', { email, password: 'senha-do-invasor' });
      const user = (await server.ctx.models.User.findOne({ where: { email } }))!;
      const planted = await plantAccess(user);
      const socket = socketFor(server, registrant.body.token);
      sockets.push(socket);
      let closedBy = '';
      socket.on('disconnect', (reason) => (closedBy = reason));
      await connected(socket);

      // The owner opens the welcome e-mail's link, does not know the password, and sets one.
      const token = await confirmationLink(user);
      const mismatch = await verify({ token, newPassword: 'senha-do-dono-1', confirmPassword: 'outra-coisa' });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.body.fields?.confirmPassword).to.equal(ACCOUNT_MESSAGES.passwordsDontMatch);
      const both = await verify({ token, password: 'senha-do-invasor', newPassword: 'senha-do-dono-1' });
      expect(both.status).to.equal(400);
      expect(both.body.fields?.newPassword).to.equal(EMAIL_MESSAGES.verifyOneProof);
      const res = await verify({ token, newPassword: 'senha-do-dono-1', confirmPassword: 'senha-do-dono-1' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.message).to.equal(EMAIL_MESSAGES.emailVerifiedNewPassword);
      expect(res.body.user?.emailVerified).to.equal(true);

      // The registrant's password, session, socket and planted access are gone.
      expect((await api(server).post('/auth/login', { email, password: 'senha-do-invasor' })).status).to.equal(401);
      expect((await api(server).get('/auth/me', registrant.body.token)).status).to.equal(401);
      expect((await api(server).get('/auth/me', planted.apiTokenSecret)).status).to.equal(401);
      const { models } = server.ctx;
      expect(await models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);
      expect(await models.UserKeystore.findByPk(user.id)).to.equal(null);
      expect(await models.PlayCredential.findByPk(user.id)).to.equal(null);
      expect(await models.DownloadToken.findByPk(planted.downloadTokenHash)).to.equal(null);
      expect((await models.Publication.findByPk(planted.publication.id))!.status).to.equal('failed');
      await waitFor(() => (closedBy ? true : undefined), 10000, "the server to close the registrant's socket");
      // The owner is told, is signed in, and the link does not work twice.
      const notice = await smtp.waitFor((m) => m.to === email && m.subject === 'Sua senha do aabify foi alterada');
      expect(notice.text).to.not.contain('senha-do-dono-1');
      expect((await api(server).post('/auth/tokens', { name: 'Meu CI' }, res.body.token)).status).to.equal(201);
      const again = await verify({ token, newPassword: 'mais-uma-senha' });
      expect(again.body).to.deep.equal({ message: EMAIL_MESSAGES.emailAlreadyVerified });
      expect((await api(server).post('/auth/login', { email, password: 'senha-do-dono-1' })).status).to.equal(200);
    });

    it('verifyEmail_accountAlreadyConfirmed_neverChangesItsPassword', async () => {
      const user = await buildUser(server, { emailVerifiedAt: new Date(Date.now() - 86400000) });
      const token = await confirmationLink(user);
      const res = await verify({ token, newPassword: 'senha-por-link-velho' });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ message: EMAIL_MESSAGES.emailAlreadyVerified });
      expect((await api(server).post('/auth/login', { email: user.email, password: 'senha-por-link-velho' })).status).to.equal(401);
      expect((await api(server).post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).status).to.equal(200);
    });

    it('verifyEmail_disabledAccount_refusesEveryProof', async () => {
      const user = await buildUser(server, { isActive: false });
      const token = await confirmationLink(user);
      const proofs: Parameters<typeof verify>[0][] = [{ token }, { token, password: DEFAULT_PASSWORD }, { token, newPassword: 'nova-senha-1' }];
      for (const body of proofs) {
        const res = await verify(body);
        expect(res.status, JSON.stringify(body)).to.equal(403);
        expect(res.body.code).to.equal('ACCOUNT_DISABLED');
      }
      expect(await confirmed(user)).to.equal(false);
    });
  });
});

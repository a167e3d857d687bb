/**
 * Account pre-hijacking: someone registers an address that is not theirs (registration needs
 * no confirmed address), signs in and plants access before the real owner takes the account
 * back through an e-mailed reset link. An unconfirmed account cannot mint API tokens; a reset
 * by e-mail link of an account whose address was still unconfirmed removes what a
 * pre-registrant could have left behind (API tokens, keystore, Play key, queued publications,
 * download links), while a reset of a confirmed account keeps the owner's CI tokens.
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import { ACCOUNT_MESSAGES, PLAY_MESSAGES, type AuthResponse, type CreatedApiTokenResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtpServer.js';
import { api } from './helpers/http.js';
import { buildUser, tokenFor, uniqueEmail } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, socketFor, waitFor } from './helpers/conversions.js';
import type { User } from '../src/models/index.js';
import { generateApiToken } from '../src/auth/tokens.js';
import { hashDownloadToken } from '../src/conversions/downloads.js';
import { issueEmailLink } from '../src/mail/links.js';
import { encryptJson } from '../src/settings/crypto.js';
import { keystoreAad } from '../src/keystores/service.js';
import { playCredentialsAad } from '../src/play/credentials.js';

type Err = { message: string; code: string; details?: unknown };

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
    await models.DownloadToken.create({ tokenHash: downloadTokenHash, conversionId: conversion.id, userId: user.id, expiresAt: new Date(Date.now() + 3600_000) });
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
    expect((await api(server).post('/auth/register', { email, password: 'senha-do-invasor' })).status).to.equal(201);
    const login = await api(server).post<AuthResponse>('/auth/login', { email, password: 'senha-do-invasor' });
    expect(login.status).to.equal(200);

    const refused = await api(server).post<Err>('/auth/tokens', { name: 'CI' }, login.body.token);
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.include({ code: 'EMAIL_NOT_VERIFIED', message: ACCOUNT_MESSAGES.apiTokenNeedsVerifiedEmail });
    const user = (await server.ctx.models.User.findOne({ where: { email } }))!;
    expect(await server.ctx.models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);

    // Once the owner of the address confirms it, tokens can be made.
    const link = await issueEmailLink(server.ctx.models, user, 'email_verification');
    expect((await api(server).post('/auth/verify-email', { token: link.token })).status).to.equal(200);
    expect((await api(server).post('/auth/tokens', { name: 'CI' }, login.body.token)).status).to.equal(201);
  });

  it('createToken_noEmailDelivery_unconfirmedAddressStillCreatesTokens', async () => {
    // Without SMTP_URL no address can ever be confirmed: the gate would shut the CLI's sign-in.
    const offline = await startTestServer();
    try {
      const email = uniqueEmail('semsmtp');
      expect((await api(offline).post('/auth/register', { email, password: 'senha-qualquer' })).status).to.equal(201);
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
});

/**
 * Sessions as rows through real HTTP, socket.io and SMTP: "Sessões ativas" lists each session
 * (device from the user agent, address, start, last use) and "Encerrar" ends one — its token
 * and its live connections — and no other; a sign-in from a new device or address e-mails the
 * owner, at most once per device and day; sensitive changes need a recent password; tokens
 * signed before sessions were rows keep working as rows of their own, and those signed out
 * before the upgrade stay out.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { pino } from 'pino';
import type { Socket } from 'socket.io-client';
import { SECURITY_MESSAGES, type AuthResponse, type SessionListResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTestSmtp, type TestSmtp } from './helpers/smtpServer.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildUser, passwordHashFor, tokenFor, uniqueEmail } from './helpers/factories.js';
import { connected, sleep, socketFor, waitFor } from './helpers/conversions.js';
import { createTestDatabase } from './helpers/postgres.js';
import { createSequelize } from '../src/db/database.js';
import { createMigrator } from '../src/db/migrate.js';
import { API_TOKEN_TOUCH_INTERVAL_MS } from '../src/accounts/authService.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string };
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0';
const CLI = 'aabify-cli/0.1.0 node/20.19.0';

describe('sessions (rows, "Sessões ativas", sign-in alerts)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let smtp: TestSmtp;
  const sockets: Socket[] = [];

  before(async () => {
    smtp = await startTestSmtp();
    server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test', TRUST_PROXY: 'loopback' });
  });
  after(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
    await smtp?.close();
  });

  const signIn = async (user: User, userAgent: string, forwardedFor = '203.0.113.7'): Promise<string> => {
    const res = await api(server).post<AuthResponse>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD }, undefined, {
      headers: { 'user-agent': userAgent, 'x-forwarded-for': forwardedFor },
    });
    expect(res.status).to.equal(200);
    return res.body.token;
  };
  const works = async (token: string) => (await api(server).get('/auth/me', token)).status === 200;
  const list = async (token: string) => (await api(server).get<SessionListResponse>('/auth/sessions', token)).body.sessions;

  it('list_eachSessionWithDeviceAddressAndUse_theCurrentOneMarked', async () => {
    const user = await buildUser(server);
    const laptop = await signIn(user, CHROME_WINDOWS, '203.0.113.7');
    const cli = await signIn(user, CLI, '198.51.100.20');
    const sessions = await list(laptop);
    expect(sessions).to.have.length(2);
    const byDevice = Object.fromEntries(sessions.map((s) => [s.device, s]));
    expect(byDevice['Chrome no Windows']).to.include({ address: '203.0.113.7', userAgent: CHROME_WINDOWS, current: true });
    expect(byDevice['aabify CLI']).to.include({ address: '198.51.100.20', current: false });
    for (const s of sessions) {
      expect(Date.now() - Date.parse(s.createdAt)).to.be.lessThan(60_000);
      expect(s.lastUsedAt).to.be.a('string');
    }
    expect((await list(cli)).find((s) => s.current)?.device).to.equal('aabify CLI');
  });

  it('end_oneSession_itsTokenAndSocketStop_theOthersGoOn', async () => {
    const user = await buildUser(server);
    const laptop = await signIn(user, CHROME_WINDOWS);
    const phone = await signIn(user, FIREFOX_ANDROID);
    const socket = socketFor(server, phone);
    sockets.push(socket);
    let closedBy = '';
    socket.on('disconnect', (reason) => (closedBy = reason));
    await connected(socket);

    const target = (await list(laptop)).find((s) => s.device === 'Firefox no Android')!;
    expect((await api(server).delete(`/auth/sessions/${target.id}`, laptop)).status).to.equal(204);
    expect(await works(phone)).to.equal(false);
    expect(await works(laptop)).to.equal(true);
    await waitFor(() => (closedBy ? true : undefined), 10_000, 'the ended session’s socket to close');
    expect((await list(laptop)).map((s) => s.device)).to.deep.equal(['Chrome no Windows']);

    // Already ended, someone else's, malformed: the same 404.
    const stranger = await buildUser(server);
    for (const [id, token] of [
      [target.id, laptop],
      [(await list(laptop))[0].id, tokenFor(server, stranger)],
      ['nao-e-um-id', laptop],
    ] as const) {
      const res = await api(server).delete<Err>(`/auth/sessions/${id}`, token);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ message: SECURITY_MESSAGES.sessionNotFound, code: 'SESSION_NOT_FOUND' });
    }
    expect(await works(laptop)).to.equal(true);
  });

  it('signInFromANewDeviceOrAddress_emailsTheOwner_oncePerDevicePerDay', async () => {
    const user = await buildUser(server);
    const alerts = () => smtp.received.filter((m) => m.to === user.email && m.subject.startsWith('Novo acesso'));
    await signIn(user, CHROME_WINDOWS, '203.0.113.7'); // The first session: nothing to compare with.
    await signIn(user, CHROME_WINDOWS, '203.0.113.7'); // Seen before.
    await signIn(user, FIREFOX_ANDROID, '203.0.113.7'); // A new device.
    const mail = await smtp.waitFor((m) => m.to === user.email && m.subject.startsWith('Novo acesso'));
    expect(mail.text).to.contain('Firefox no Android').and.contain('203.0.113.7');
    // The same new device from more addresses the same day: no more mail.
    await signIn(user, FIREFOX_ANDROID, '198.51.100.1');
    await signIn(user, FIREFOX_ANDROID, '198.51.100.2');
    // A known device at a new address: an alert (another device key: the CLI).
    await signIn(user, CLI, '192.0.2.9');
    await waitFor(() => (alerts().length >= 2 ? true : undefined), 10_000, 'the second alert');
    await sleep(500);
    expect(alerts().map((m) => (m.text.includes('aabify CLI') ? 'cli' : m.text.includes('Firefox') ? 'firefox' : '?'))).to.deep.equal(['firefox', 'cli']);
  });

  it('lastUsedAt_writtenAtMostOnceAMinute', async () => {
    const user = await buildUser(server);
    const token = await signIn(user, CHROME_WINDOWS);
    const row = await server.ctx.models.Session.findOne({ where: { userId: user.id } });
    const first = row!.lastUsedAt!.getTime();
    await api(server).get('/auth/me', token);
    await row!.reload();
    expect(row!.lastUsedAt!.getTime()).to.equal(first);
    await server.ctx.models.Session.update({ lastUsedAt: new Date(Date.now() - API_TOKEN_TOUCH_INTERVAL_MS - 1000) }, { where: { id: row!.id } });
    await api(server).get('/auth/me', token);
    await row!.reload();
    expect(Date.now() - row!.lastUsedAt!.getTime()).to.be.lessThan(10_000);
  });

  it('sensitiveChanges_sessionWithoutARecentPassword_reauthRequiredFirst', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const token = await signIn(user, CHROME_WINDOWS);
    await server.ctx.models.Session.update({ verifiedAt: new Date(Date.now() - 11 * 60_000) }, { where: { userId: user.id } });
    for (const [method, path, body] of [
      ['POST', '/auth/tokens', { name: 'CI' }],
      ['PUT', '/account/keystore', { keystore: 'AAAA', storePassword: 'x' }],
      ['DELETE', '/account/keystore', undefined],
      ['PUT', '/account/play-credentials', { key: '{}' }],
      ['DELETE', '/account/play-credentials', undefined],
      ['POST', '/auth/2fa/setup', undefined],
    ] as const) {
      const res = await api(server).request<Err>(method, path, body, { token });
      expect(res.status, path).to.equal(403);
      expect(res.body.code, path).to.equal('REAUTH_REQUIRED');
    }
    expect((await api(server).post('/auth/reauth', { password: DEFAULT_PASSWORD }, token)).status).to.equal(200);
    expect((await api(server).post('/auth/tokens', { name: 'CI' }, token)).status).to.equal(201);
  });

  it('tokenWithoutARow_adoptedOnFirstUse_asProvenWhenIssued', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const { jti, iat } = jwt.decode(token) as { jti: string; iat: number };
    expect(await server.ctx.models.Session.findByPk(jti)).to.equal(null);
    expect(await works(token)).to.equal(true);
    const row = await server.ctx.models.Session.findByPk(jti);
    expect(row!.createdAt.getTime()).to.equal(iat * 1000);
    expect(row!.verifiedAt!.getTime()).to.equal(iat * 1000);
    // Ended like any other.
    expect((await api(server).post('/auth/logout', undefined, token)).status).to.equal(200);
    expect(await works(token)).to.equal(false);
  });

  it('migration_sessionsSignedOutBeforeTheUpgrade_becomeEndedRows', async () => {
    const sequelize = createSequelize(await createTestDatabase(), pino({ level: 'silent' }));
    try {
      await createMigrator(sequelize).up({ to: '0140-job-names' });
      const userId = randomUUID();
      const [signedOut, expired] = [randomUUID(), randomUUID()];
      const now = Math.floor(Date.now() / 1000);
      await sequelize.query(
        `INSERT INTO users (id, email, "passwordHash", "tokenVersion", "endedSessions", "createdAt", "updatedAt")
         VALUES (:userId, :email, :hash, 3, CAST(:ended AS jsonb), now(), now())`,
        {
          replacements: {
            userId,
            email: uniqueEmail(),
            hash: await passwordHashFor(DEFAULT_PASSWORD),
            ended: JSON.stringify([{ id: signedOut, exp: now + 3600 }, { id: expired, exp: now - 60 }, { id: 'nao-e-uuid', exp: now + 3600 }]),
          },
        },
      );
      await createMigrator(sequelize).up();
      const [rows] = await sequelize.query(`SELECT id, "userId", "tokenVersion", "endedAt" IS NOT NULL AS ended FROM sessions ORDER BY id`);
      expect(rows).to.deep.equal([{ id: signedOut, userId, tokenVersion: 3, ended: true }]);
      const [columns] = await sequelize.query(`SELECT column_name FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'endedSessions'`);
      expect(columns).to.deep.equal([]);
    } finally {
      await sequelize.close();
    }
  });
});

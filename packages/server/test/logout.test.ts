/**
 * Signing out on the server: "Sair" ends the session it is sent with (its token stops working
 * on every process, its sockets close) and no other; "Sair de todos os dispositivos" ends every
 * session; API tokens are revoked elsewhere. Before, signing out only forgot the token in the
 * browser: a copy of it kept working for up to 7 days.
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import { ACCOUNT_MESSAGES, SESSIONS_PER_USER_MAX, type AuthResponse, type CreatedApiTokenResponse, type SessionListResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildUser } from './helpers/factories.js';
import { connected, socketFor, waitFor } from './helpers/conversions.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string };

describe('signing out (POST /auth/logout, /auth/logout-all)', function () {
  this.timeout(60_000);
  let server: TestServer;
  const sockets: Socket[] = [];

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
  });

  const signIn = async (user: User): Promise<string> => {
    const res = await api(server).post<AuthResponse>('/auth/login', { email: user.email, password: DEFAULT_PASSWORD });
    expect(res.status).to.equal(200);
    return res.body.token;
  };
  const works = async (token: string) => (await api(server).get('/auth/me', token)).status === 200;

  it('logout_endsThisSessionAndItsSocket_otherSessionsGoOn', async () => {
    const user = await buildUser(server);
    const [laptop, phone] = [await signIn(user), await signIn(user)];
    const socket = socketFor(server, laptop);
    sockets.push(socket);
    let closedBy = '';
    socket.on('disconnect', (reason) => (closedBy = reason));
    await connected(socket);

    const res = await api(server).post<{ message: string }>('/auth/logout', undefined, laptop);
    expect(res.status).to.equal(200);
    expect(res.body.message).to.equal(ACCOUNT_MESSAGES.loggedOut);
    expect(await works(laptop)).to.equal(false);
    expect((await api(server).get<Err>('/auth/me', laptop)).body.code).to.equal('TOKEN_INVALID');
    expect(await works(phone)).to.equal(true);
    await waitFor(() => (closedBy ? true : undefined), 10000, 'the signed-out session’s socket to close');
    // Signing in again makes a new session.
    expect(await works(await signIn(user))).to.equal(true);
  });

  it('logoutAll_endsEverySession_apiTokensStay', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const [a, b] = [await signIn(user), await signIn(user)];
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, a);
    expect(created.status).to.equal(201);
    const res = await api(server).post<{ message: string }>('/auth/logout-all', undefined, b);
    expect(res.body.message).to.equal(ACCOUNT_MESSAGES.loggedOutEverywhere);
    expect([await works(a), await works(b), await works(created.body.token)]).to.deep.equal([false, false, true]);
  });

  it('logout_withAnApiToken_refusedAndTheTokenStays', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI' }, await signIn(user));
    for (const path of ['/auth/logout', '/auth/logout-all']) {
      const res = await api(server).post<Err>(path, undefined, created.body.token);
      expect(res.status, path).to.equal(400);
      expect(res.body).to.deep.equal({ code: 'LOGOUT_NEEDS_SESSION', message: ACCOUNT_MESSAGES.logoutNeedsSession });
    }
    expect(await works(created.body.token)).to.equal(true);
  });

  it('signIn_pastTheSessionCap_endsTheOldestSession', async () => {
    // A script signing in again and again cannot pile up live sessions without bound.
    const user = await buildUser(server);
    const oldest = await signIn(user);
    for (let i = 0; i < SESSIONS_PER_USER_MAX - 1; i++) await server.ctx.auth.startSession(user, { userAgent: null, address: null });
    expect(await works(oldest)).to.equal(true);
    const newest = await signIn(user);
    expect(await works(oldest)).to.equal(false);
    expect(await works(newest)).to.equal(true);
    const list = await api(server).get<SessionListResponse>('/auth/sessions', newest);
    expect(list.body.sessions).to.have.length(SESSIONS_PER_USER_MAX);
  });
});

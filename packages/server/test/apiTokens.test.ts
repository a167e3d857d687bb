import { expect } from 'chai';
import { ACCOUNT_MESSAGES, API_TOKENS_PER_USER, SECURITY_MESSAGES, type ApiTokenJson, type ApiUser, type CreatedApiTokenResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { hashApiToken } from '../src/accounts/tokens.js';
import { API_TOKEN_TOUCH_INTERVAL_MS } from '../src/accounts/authService.js';

const M = ACCOUNT_MESSAGES;
type Err = { message: string; code: string; fields?: Record<string, string> };

describe('API tokens (/api/auth/tokens)', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  async function createToken(session: string, name = 'CI'): Promise<CreatedApiTokenResponse> {
    const res = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name }, session);
    expect(res.status).to.equal(201);
    return res.body;
  }

  it('create_validName_showsSecretOnceAndStoresOnlyItsHash', async () => {
    const user = await buildUser(server);
    const created = await createToken(tokenFor(server, user), '  GitHub Actions  ');
    expect(created.token).to.match(/^aab_[A-Za-z0-9_-]{43}$/);
    expect(created).to.include({ name: 'GitHub Actions', prefix: created.token.slice(0, 12), lastUsedAt: null, message: M.apiTokenCreated });
    const row = await server.ctx.models.ApiToken.findByPk(created.id);
    expect(row!.tokenHash).to.equal(hashApiToken(created.token));
    expect(JSON.stringify(row!.toJSON())).to.not.contain(created.token);

    const list = await api(server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', tokenFor(server, user));
    expect(list.status).to.equal(200);
    expect(list.body.tokens).to.deep.equal([
      { id: created.id, name: 'GitHub Actions', prefix: created.prefix, scopes: ['read', 'conversions', 'downloads'], createdAt: created.createdAt, lastUsedAt: null },
    ]);
  });

  it('create_invalidName_answersFieldMessages', async () => {
    const session = tokenFor(server, await buildUser(server));
    for (const [body, message] of [
      [{}, M.apiTokenNameRequired],
      [{ name: '   ' }, M.apiTokenNameRequired],
      [{ name: 'x'.repeat(101) }, M.apiTokenNameTooLong],
    ] as const) {
      const res = await api(server).post<Err>('/auth/tokens', body, session);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message, code: 'VALIDATION_ERROR', fields: { name: message } });
    }
  });

  it('create_noSession_answers401', async () => {
    expect((await api(server).post('/auth/tokens', { name: 'x' })).status).to.equal(401);
  });

  it('create_withAnApiToken_answers403', async () => {
    const user = await buildUser(server);
    const created = await createToken(tokenFor(server, user));
    const res = await api(server).post<Err>('/auth/tokens', { name: 'other' }, created.token);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ message: SECURITY_MESSAGES.sessionRequired, code: 'SESSION_REQUIRED' });
  });

  it('create_overTheLimit_answers409', async () => {
    const user = await buildUser(server);
    await server.ctx.models.ApiToken.bulkCreate(
      Array.from({ length: API_TOKENS_PER_USER }, (_, i) => ({ userId: user.id, name: `t${i}`, tokenHash: hashApiToken(`${user.id}-${i}`), prefix: 'aab_xxxxxxxx' })),
    );
    const res = await api(server).post<Err>('/auth/tokens', { name: 'one more' }, tokenFor(server, user));
    expect(res.status).to.equal(409);
    expect(res.body.code).to.equal('API_TOKEN_LIMIT');
  });

  it('bearer_apiToken_actsAsOwnerAndKeepsLastUsedAt', async () => {
    const user = await buildUser(server, { name: 'Dev' });
    const created = await createToken(tokenFor(server, user));
    const me = await api(server).get<ApiUser>('/auth/me', created.token);
    expect(me.status).to.equal(200);
    expect(me.body.id).to.equal(user.id);

    const row = await server.ctx.models.ApiToken.findByPk(created.id);
    const firstUse = row!.lastUsedAt!;
    expect(Date.now() - firstUse.getTime()).to.be.lessThan(10000);
    // Within the touch interval a second use writes nothing.
    await api(server).get('/auth/me', created.token);
    await row!.reload();
    expect(row!.lastUsedAt!.getTime()).to.equal(firstUse.getTime());
    // Once the last write is older than the interval, the next use writes again.
    await row!.update({ lastUsedAt: new Date(Date.now() - API_TOKEN_TOUCH_INTERVAL_MS - 1000) });
    await api(server).get('/auth/me', created.token);
    await row!.reload();
    expect(Date.now() - row!.lastUsedAt!.getTime()).to.be.lessThan(10000);

    const list = await api(server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', tokenFor(server, user));
    expect(list.body.tokens[0].lastUsedAt).to.equal(row!.lastUsedAt!.toISOString());
  });

  it('bearer_apiTokenOfDeactivatedUser_answers401', async () => {
    const user = await buildUser(server);
    const created = await createToken(tokenFor(server, user));
    await user.update({ isActive: false });
    const res = await api(server).get<Err>('/auth/me', created.token);
    expect(res.status).to.equal(401);
    expect(res.body.code).to.equal('ACCOUNT_DISABLED');
  });

  it('bearer_apiTokenAfterPasswordChange_stillWorks', async () => {
    const user = await buildUser(server);
    const created = await createToken(tokenFor(server, user));
    await user.update({ passwordHash: user.passwordHash + 'x' });
    expect((await api(server).get('/auth/me', created.token)).status).to.equal(200);
  });

  it('delete_ownToken_revokesIt', async () => {
    const user = await buildUser(server);
    const session = tokenFor(server, user);
    const created = await createToken(session);
    expect((await api(server).get('/auth/me', created.token)).status).to.equal(200);
    const res = await api(server).delete(`/auth/tokens/${created.id}`, session);
    expect(res.status).to.equal(204);
    const after = await api(server).get<Err>('/auth/me', created.token);
    expect(after.status).to.equal(401);
    expect(after.body.code).to.equal('TOKEN_INVALID');
    expect((await api(server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', session)).body.tokens).to.deep.equal([]);
    expect((await api(server).delete(`/auth/tokens/${created.id}`, session)).status).to.equal(404);
  });

  it('delete_otherUsersToken_answers404EvenForAdmin', async () => {
    const owner = await buildUser(server);
    const created = await createToken(tokenFor(server, owner));
    for (const intruder of [await buildUser(server), await buildAdmin(server)]) {
      const res = await api(server).delete<Err>(`/auth/tokens/${created.id}`, tokenFor(server, intruder));
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ message: M.apiTokenNotFound, code: 'API_TOKEN_NOT_FOUND' });
    }
    expect((await api(server).get('/auth/me', created.token)).status).to.equal(200);
  });

  it('delete_malformedId_answers404', async () => {
    const res = await api(server).delete('/auth/tokens/not-a-uuid', tokenFor(server, await buildUser(server)));
    expect(res.status).to.equal(404);
  });

  it('list_otherUsersTokens_notShown', async () => {
    const a = await buildUser(server);
    const b = await buildUser(server);
    await createToken(tokenFor(server, a), 'a-token');
    const list = await api(server).get<{ tokens: ApiTokenJson[] }>('/auth/tokens', tokenFor(server, b));
    expect(list.body.tokens).to.deep.equal([]);
  });
});

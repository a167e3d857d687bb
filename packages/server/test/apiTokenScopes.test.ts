/**
 * API token scopes through real HTTP and socket.io: a token does what its scopes grant and
 * nothing else, never an administrator's work (not even an admin's token), and never changes
 * the account. Before scopes, an admin's CI token created new admins (201) and a customer's
 * token replaced the upload key and the Google Play key.
 *
 * Every documented route is called (the OpenAPI document says which scopes open it,
 * `x-api-token-scopes`): with a token lacking them it is refused with 403, with a token holding
 * just one of them it is not refused for its scopes.
 */
import { expect } from 'chai';
import type { Socket } from 'socket.io-client';
import {
  API_TOKEN_SCOPES,
  SECURITY_MESSAGES,
  SOCKET_EVENTS,
  tokenScopeMissingMessage,
  type ApiTokenScope,
  type CreatedApiTokenResponse,
} from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { connected, request, socketFor } from './helpers/conversions.js';

type Err = { message: string; code: string; details?: { requiredScopes?: string[] } };
type Operation = { description?: string; 'x-api-token-scopes'?: ApiTokenScope[] };
type Doc = { paths: Record<string, Record<string, Operation>> };

const SCOPE_REFUSALS = ['SESSION_REQUIRED', 'ADMIN_NEEDS_SESSION', 'TOKEN_SCOPE_MISSING'];
const ANY_ID = '00000000-0000-4000-8000-000000000000';

describe('API token scopes (a token does only what its scopes grant)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let doc: Doc;
  let admin: Awaited<ReturnType<typeof buildAdmin>>;
  let adminSession: string;
  const tokens = new Map<string, CreatedApiTokenResponse>();
  const sockets: Socket[] = [];

  before(async () => {
    server = await startTestServer();
    doc = (await api(server).get<Doc>('/openapi.json')).body;
    admin = await buildAdmin(server, { emailVerifiedAt: new Date() });
    adminSession = tokenFor(server, admin);
  });
  after(async () => {
    for (const s of sockets) s.close();
    await server?.stop();
  });

  /** An API token of the admin with exactly these scopes (made once per set, through the API). */
  async function tokenWith(scopes: readonly ApiTokenScope[]): Promise<string> {
    const key = [...scopes].sort().join(',');
    let created = tokens.get(key);
    if (!created) {
      const res = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: `escopos ${key}`, scopes }, adminSession);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect([...res.body.scopes].sort()).to.deep.equal([...scopes].sort());
      created = res.body;
      tokens.set(key, created);
    }
    return created.token;
  }

  it('everyDocumentedRoute_tokenOutsideItsScopesRefused403_tokenWithOneOfThemLetThrough', async () => {
    const checked: string[] = [];
    const notReached: string[] = [];
    for (const [openApiPath, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const scopes = op['x-api-token-scopes'];
        if (scopes === undefined) continue; // a public route
        const path = openApiPath.replace(/\{[^}]+\}/g, ANY_ID);
        const name = `${method.toUpperCase()} ${openApiPath}`;
        const call = (token?: string) => api(server).request<Err>(method.toUpperCase(), path, undefined, { token });
        // A route whose own guard answers before authentication (the sandbox's) is not about tokens.
        if ((await call()).status !== 401) {
          notReached.push(name);
          continue;
        }
        checked.push(name);
        const outside = API_TOKEN_SCOPES.filter((s) => !scopes.includes(s));
        if (scopes.length === 0) {
          const res = await call(await tokenWith(API_TOKEN_SCOPES));
          const admin = op.description?.startsWith('Só administradores') === true;
          expect(res.status, name).to.equal(403);
          expect(res.body.code, name).to.equal(admin ? 'ADMIN_NEEDS_SESSION' : 'SESSION_REQUIRED');
          expect(res.body.message, name).to.equal(admin ? SECURITY_MESSAGES.adminNeedsSession : SECURITY_MESSAGES.sessionRequired);
          continue;
        }
        if (outside.length > 0) {
          const res = await call(await tokenWith(outside));
          expect(res.status, name).to.equal(403);
          expect(res.body.code, name).to.equal('TOKEN_SCOPE_MISSING');
          expect(res.body.details?.requiredScopes, name).to.deep.equal(scopes);
          expect(res.body.message, name).to.equal(tokenScopeMissingMessage(scopes));
        }
        for (const scope of scopes) {
          const res = await call(await tokenWith([scope]));
          expect(res.status === 403 && SCOPE_REFUSALS.includes(res.body.code), `${name} with ${scope}: ${res.status} ${res.body.code}`).to.equal(false);
        }
      }
    }
    expect(checked.length).to.be.greaterThan(80);
    expect(notReached.every((n) => n.includes('/api/debug/')), `routes that never asked for a credential: ${notReached.join(', ')}`).to.equal(true);
  });

  it('adminsToken_createAdmin_refused403_andNoAdminMade', async () => {
    const token = await tokenWith(API_TOKEN_SCOPES);
    const before = await server.ctx.models.User.count({ where: { role: 'admin' } });
    const res = await api(server).post<Err>('/admin/users/create-admin', { email: 'intruso@example.com', password: 'segredo-123' }, token);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ message: SECURITY_MESSAGES.adminNeedsSession, code: 'ADMIN_NEEDS_SESSION' });
    expect(await server.ctx.models.User.count({ where: { role: 'admin' } })).to.equal(before);
    // The same call with the admin's session works: the refusal is the token's.
    const bySession = await api(server).post('/admin/users/create-admin', { email: 'novo-admin-escopos@example.com', password: 'segredo-123' }, adminSession);
    expect(bySession.status).to.equal(201);
  });

  it('customersToken_cannotReplaceKeysPasswordTokensOrTwoFactor', async () => {
    const customer = await buildUser(server, { emailVerifiedAt: new Date() });
    const created = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'CI', scopes: [...API_TOKEN_SCOPES] }, tokenFor(server, customer));
    const token = created.body.token;
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', '/account/keystore', { keystore: 'AAAA', storePassword: 'x' }],
      ['DELETE', '/account/keystore', undefined],
      ['PUT', '/account/play-credentials', { key: '{}' }],
      ['DELETE', '/account/play-credentials', undefined],
      ['POST', '/auth/tokens', { name: 'outro' }],
      ['PATCH', '/auth/change-password', { currentPassword: 'x', newPassword: 'nova-senha-1' }],
      ['POST', '/auth/2fa/setup', undefined],
      ['POST', '/auth/reauth', { password: 'x' }],
      ['GET', '/auth/sessions', undefined],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(server).request<Err>(method, path, body, { token });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.code, `${method} ${path}`).to.equal('SESSION_REQUIRED');
    }
  });

  it('adminsToken_readsOnlyItsOwnersConversions_neverACustomersAsAnAdminWould', async () => {
    const customer = await buildUser(server);
    const conversion = await buildConversion(server, customer);
    expect((await api(server).get(`/conversion/status/${conversion.id}`, adminSession)).status).to.equal(200);
    const res = await api(server).get<Err>(`/conversion/status/${conversion.id}`, await tokenWith(API_TOKEN_SCOPES));
    expect(res.status).to.equal(404);
    expect(res.body.code).to.equal('CONVERSION_NOT_FOUND');
  });

  it('token_revokesItself_butNoOtherToken', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const session = tokenFor(server, user);
    const make = async (name: string) => (await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name, scopes: ['read'] }, session)).body;
    const [a, b] = [await make('a'), await make('b')];
    const other = await api(server).delete<Err>(`/auth/tokens/${b.id}`, a.token);
    expect(other.status).to.equal(403);
    expect(other.body).to.deep.equal({ message: SECURITY_MESSAGES.tokenRevokesOnlyItself, code: 'TOKEN_REVOKES_ONLY_ITSELF' });
    expect((await api(server).get('/auth/me', b.token)).status).to.equal(200);
    expect((await api(server).delete(`/auth/tokens/${a.id}`, a.token)).status).to.equal(204);
    expect((await api(server).get('/auth/me', a.token)).status).to.equal(401);
  });

  it('create_scopesChosenAndValidated_defaultIsReadConversionsDownloads', async () => {
    const user = await buildUser(server, { emailVerifiedAt: new Date() });
    const session = tokenFor(server, user);
    const plain = await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: 'sem escopos' }, session);
    expect(plain.body.scopes).to.deep.equal(['read', 'conversions', 'downloads']);
    for (const scopes of [[], ['admin'], 'read']) {
      const res = await api(server).post<Err & { fields: Record<string, string> }>('/auth/tokens', { name: 'x', scopes }, session);
      expect(res.status, JSON.stringify(scopes)).to.equal(400);
      expect(Object.keys(res.body.fields).filter((f) => f.startsWith('scopes')), JSON.stringify(res.body)).to.have.length(1);
    }
  });

  it('socket_tokenWithoutAConversionScopeRefused_downloadLinkNeedsTheDownloadsScope', async () => {
    const customer = await buildUser(server, { emailVerifiedAt: new Date() });
    const session = tokenFor(server, customer);
    const make = async (scopes: ApiTokenScope[]) => (await api(server).post<CreatedApiTokenResponse>('/auth/tokens', { name: scopes.join('+'), scopes }, session)).body.token;

    const publishingOnly = socketFor(server, await make(['publishing']));
    sockets.push(publishingOnly);
    const refusal = await new Promise<Err>((resolve) => publishingOnly.on(SOCKET_EVENTS.authError, resolve));
    expect(refusal.code).to.equal('TOKEN_SCOPE_MISSING');

    const conversion = await buildConversion(server, customer, { status: 'completed' });
    const readOnly = socketFor(server, await make(['read']));
    sockets.push(readOnly);
    await connected(readOnly);
    const subscribed = await request<{ success: boolean }>(readOnly, SOCKET_EVENTS.subscribe, { conversionId: conversion.id });
    expect(subscribed.success).to.equal(true);
    const link = await request<{ success: boolean; code?: string }>(readOnly, SOCKET_EVENTS.downloadLink, { conversionId: conversion.id });
    expect(link).to.include({ success: false, code: 'TOKEN_SCOPE_MISSING' });
  });
});

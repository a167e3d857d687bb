import { expect } from 'chai';
import { Readable } from 'node:stream';
import { PRIVACY_MESSAGES } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, DEFAULT_PASSWORD, tokenFor } from './helpers/factories.js';
import { buildConversion, buildPlan, buildPurchase } from './helpers/adminFactories.js';
import { enrolTwoFactor, totpCode } from './helpers/twoFactor.js';
import { generateApiToken } from '../src/accounts/tokens.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string; fields?: Record<string, string> };

describe('deleting one\'s own account (DELETE /api/account)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
  });
  after(async () => {
    await server?.stop();
  });
  beforeEach(() => server.ctx.rateLimits.reset());

  /** A customer with a converted file, an API token, a session and an approved purchase. */
  async function customerWithData() {
    const user = await buildCreditUser(server, 5);
    const c = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `aab/${c.id}.aab`;
    await server.ctx.storage.write(aabKey, Readable.from(Buffer.from('PK-aab-de-teste')));
    await c.update({ aabKey, aabSize: 15 });
    const secret = generateApiToken();
    await server.ctx.models.ApiToken.create({ userId: user.id, name: 'CI', tokenHash: secret.hash, prefix: secret.prefix, scopes: ['read'] });
    const plan = await buildPlan(server);
    const purchase = await buildPurchase(server, user, plan, { status: 'approved' });
    return { user, conversion: c, aabKey, apiToken: secret.token, purchase };
  }

  it('deletion_withThePassword_removesConversionsFilesTokensAndSessions_andKeepsThePurchase', async () => {
    const { user, conversion, aabKey, apiToken, purchase } = await customerWithData();
    const other = await customerWithData();
    const session = tokenFor(server, user);

    const wrong = await api(server).request<Err>('DELETE', '/account', { password: 'nao-e-a-senha' }, { token: session });
    expect(wrong.status).to.equal(400);
    expect(wrong.body).to.deep.include({ code: 'WRONG_PASSWORD', fields: { password: PRIVACY_MESSAGES.wrongPassword } });
    const empty = await api(server).request<Err>('DELETE', '/account', {}, { token: session });
    expect(empty.body.fields).to.deep.equal({ password: PRIVACY_MESSAGES.passwordRequired });
    // An API token cannot delete the account.
    expect((await api(server).request('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token: apiToken })).status).to.equal(403);

    const res = await api(server).request<{ message: string; fiscalRecord: string }>('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token: session });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ message: PRIVACY_MESSAGES.accountDeleted, fiscalRecord: PRIVACY_MESSAGES.fiscalRecordKept });

    const { models, storage } = server.ctx;
    expect(await models.Conversion.count({ where: { userId: user.id } })).to.equal(0);
    expect(await models.ConversionLog.count({ where: { conversionId: conversion.id } })).to.equal(0);
    expect(await storage.size(aabKey)).to.equal(undefined);
    expect(await models.ApiToken.count({ where: { userId: user.id } })).to.equal(0);
    expect(await models.Session.count({ where: { userId: user.id } })).to.equal(0);
    expect((await api(server).get('/auth/me', session)).status).to.equal(401);
    expect((await api(server).get('/auth/me', apiToken)).status).to.equal(401);
    expect((await api(server).post('/auth/login', { email: user.email, password: DEFAULT_PASSWORD })).status).to.equal(401);

    // The minimal fiscal record stays: the purchase, on a hidden row without the profile.
    expect(await models.Purchase.count({ where: { id: purchase.id } })).to.equal(1);
    const kept = await models.User.findByPk(user.id, { paranoid: false });
    expect(kept!.deletedAt).to.be.instanceOf(Date);
    expect(kept).to.include({ name: null, isActive: false, totpSecret: null });
    expect(await models.AuditEvent.count({ where: { accountId: user.id, action: 'account.deleted' } })).to.equal(1);

    // Another customer's data is untouched.
    expect(await models.Conversion.count({ where: { userId: other.user.id } })).to.equal(1);
    expect(await storage.size(other.aabKey)).to.equal(15);
  });

  it('deletion_withTwoFactor_needsTheCode_andAdminsCannotDeleteThemselves', async () => {
    const user: User = await buildCreditUser(server, 1);
    const session = tokenFor(server, user);
    const { secret } = await enrolTwoFactor(server, session);
    const noCode = await api(server).request<Err>('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token: session });
    expect(noCode.body).to.deep.include({ code: 'TWO_FACTOR_CODE_REQUIRED', fields: { code: PRIVACY_MESSAGES.codeRequired } });
    const badCode = await api(server).request<Err>('DELETE', '/account', { password: DEFAULT_PASSWORD, code: '000000' }, { token: session });
    expect(badCode.body.code).to.equal('TWO_FACTOR_CODE_INVALID');
    const ok = await api(server).request('DELETE', '/account', { password: DEFAULT_PASSWORD, code: totpCode(secret, Date.now() + 30_000) }, { token: session });
    expect(ok.status).to.equal(200);

    const admin = await buildAdmin(server);
    const refused = await api(server).request<Err>('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token: tokenFor(server, admin) });
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('ADMIN_CANNOT_DELETE_SELF');
  });
});

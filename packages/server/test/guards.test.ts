/**
 * requireAuth / requireAdmin / requirePlanAccess / findOwned, on routes mounted only in this
 * test's own app (over the real server's context and database).
 */
import { expect } from 'chai';
import express from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLAN_ACCESS_MESSAGES } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildSubscriber, buildUser, tokenFor } from './helpers/factories.js';
import { authUser, requireAdmin, requireAuth, requirePlanAccess } from '../src/http/guards.js';
import { apiNotFound, errorHandler } from '../src/http/errors.js';
import { findOwned } from '../src/http/ownership.js';
import { rateLimit } from '../src/http/rateLimit.js';
import { presentApiToken } from '../src/accounts/apiTokenPresenter.js';
import { generateApiToken } from '../src/accounts/tokens.js';

type Err = { message: string; code: string; details?: unknown; retryAfter?: number };

describe('route guards', () => {
  let server: TestServer;
  let probe: Server;
  let probeUrl: string;
  before(async () => {
    server = await startTestServer();
    const ctx = server.ctx;
    const router = express.Router();
    // Tokens let through by requireAuth, so that requireAdmin's own refusal of them is what is tested.
    router.get('/admin-only', requireAuth(ctx, { token: 'any' }), requireAdmin, (req, res) => {
      res.json({ ok: true, id: authUser(req).id });
    });
    router.get('/convert-probe', requireAuth(ctx), requirePlanAccess, (_req, res) => {
      res.json({ ok: true });
    });
    router.get('/tokens/:id', requireAuth(ctx), async (req, res) => {
      const token = await findOwned(ctx.models.ApiToken, req.params.id, authUser(req));
      res.json(presentApiToken(token));
    });
    router.get('/limited', rateLimit(ctx.rateLimits.limiter('guards-test', { points: 2, windowMs: 60_000 })), (_req, res) => {
      res.json({ ok: true });
    });
    const app = express();
    app.use('/api', express.json(), router, apiNotFound, errorHandler(ctx.logger));
    probe = createServer(app);
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => probe?.close(resolve));
    await server?.stop();
  });

  const client = () => api({ url: probeUrl });

  describe('requireAdmin', () => {
    it('requireAdmin_admin_passes', async () => {
      const admin = await buildAdmin(server);
      const res = await client().get('/admin-only', tokenFor(server, admin));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ ok: true, id: admin.id });
    });

    it('requireAdmin_regularUser_answers403', async () => {
      const res = await client().get<Err>('/admin-only', tokenFor(server, await buildCreditUser(server)));
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ message: 'Acesso restrito a administradores.', code: 'ADMIN_REQUIRED' });
    });

    it('requireAdmin_noToken_answers401', async () => {
      expect((await client().get('/admin-only')).status).to.equal(401);
    });

    it('requireAdmin_demotedAfterSignIn_answers403', async () => {
      const admin = await buildAdmin(server);
      const token = tokenFor(server, admin);
      await admin.update({ role: 'user' });
      expect((await client().get('/admin-only', token)).status).to.equal(403);
    });

    it('requireAdmin_adminsApiToken_refused403', async () => {
      // An API token never acts as an administrator, whoever owns it (a leaked CI token must
      // not be able to make admins).
      const admin = await buildAdmin(server);
      const secret = generateApiToken();
      await server.ctx.models.ApiToken.create({ userId: admin.id, name: 'ci', tokenHash: secret.hash, prefix: secret.prefix, scopes: ['read', 'conversions', 'downloads', 'publishing'] });
      const res = await client().get<Err>('/admin-only', secret.token);
      expect(res.status).to.equal(403);
      expect(res.body.code).to.equal('ADMIN_NEEDS_SESSION');
      expect((await client().get('/admin-only', tokenFor(server, admin))).status).to.equal(200);
    });
  });

  describe('requirePlanAccess', () => {
    const denied = (status: 'no_plan' | 'no_credits' | 'expired', code: string) => ({
      message: PLAN_ACCESS_MESSAGES[status],
      code,
      details: { planStatus: status, redirectTo: '/plans' },
    });

    it('requirePlanAccess_creditsAboveZero_passes', async () => {
      expect((await client().get('/convert-probe', tokenFor(server, await buildCreditUser(server, 1)))).status).to.equal(200);
    });

    it('requirePlanAccess_zeroCredits_answers402NoCredits', async () => {
      const res = await client().get<Err>('/convert-probe', tokenFor(server, await buildCreditUser(server, 0)));
      expect(res.status).to.equal(402);
      expect(res.body).to.deep.equal(denied('no_credits', 'NO_CREDITS'));
      expect(res.body.message).to.equal('Créditos insuficientes para fazer conversões.');
    });

    it('requirePlanAccess_subscriptionInFuture_passes', async () => {
      expect((await client().get('/convert-probe', tokenFor(server, await buildSubscriber(server, 3)))).status).to.equal(200);
    });

    it('requirePlanAccess_subscriptionExpired_answers402PlanExpired', async () => {
      const res = await client().get<Err>('/convert-probe', tokenFor(server, await buildSubscriber(server, -1)));
      expect(res.status).to.equal(402);
      expect(res.body).to.deep.equal(denied('expired', 'PLAN_EXPIRED'));
      expect(res.body.message).to.equal('Limite mensal atingido ou assinatura expirada.');
    });

    it('requirePlanAccess_noPlan_answers402NoPlan', async () => {
      const res = await client().get<Err>('/convert-probe', tokenFor(server, await buildUser(server)));
      expect(res.status).to.equal(402);
      expect(res.body).to.deep.equal(denied('no_plan', 'NO_PLAN'));
    });

    it('requirePlanAccess_adminWithoutPlan_passes', async () => {
      expect((await client().get('/convert-probe', tokenFor(server, await buildAdmin(server)))).status).to.equal(200);
    });

    it('requirePlanAccess_creditsSpentAfterSignIn_seesCurrentBalance', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      await user.update({ credits: 0, creditsReserved: 1 });
      expect((await client().get('/convert-probe', token)).status).to.equal(402);
    });
  });

  describe('findOwned', () => {
    async function tokenOf(userId: string) {
      const secret = generateApiToken();
      return server.ctx.models.ApiToken.create({ userId, name: 'owned', tokenHash: secret.hash, prefix: secret.prefix });
    }

    it('findOwned_ownResource_returnsIt', async () => {
      const user = await buildUser(server);
      const row = await tokenOf(user.id);
      const res = await client().get(`/tokens/${row.id}`, tokenFor(server, user));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: row.id, name: 'owned' });
    });

    it('findOwned_otherUsersResource_answers404LikeMissingOne', async () => {
      const row = await tokenOf((await buildUser(server)).id);
      const intruder = tokenFor(server, await buildUser(server));
      const other = await client().get<Err>(`/tokens/${row.id}`, intruder);
      const missing = await client().get<Err>(`/tokens/${crypto.randomUUID()}`, intruder);
      const malformed = await client().get<Err>('/tokens/1%27%20OR%201=1', intruder);
      for (const res of [other, missing, malformed]) {
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ message: 'Recurso não encontrado.', code: 'NOT_FOUND' });
      }
    });

    it('findOwned_admin_reachesAnyUsersResource', async () => {
      const row = await tokenOf((await buildUser(server)).id);
      expect((await client().get(`/tokens/${row.id}`, tokenFor(server, await buildAdmin(server)))).status).to.equal(200);
    });
  });

  describe('rateLimit', () => {
    it('rateLimit_overLimit_answers429WithRetryAfter', async () => {
      expect((await client().get('/limited')).status).to.equal(200);
      expect((await client().get('/limited')).status).to.equal(200);
      const res = await client().get<Err>('/limited');
      expect(res.status).to.equal(429);
      expect(res.body.code).to.equal('RATE_LIMIT');
      expect(res.body.message).to.equal('Muitas requisições. Tente novamente em instantes.');
      expect(res.body.retryAfter).to.be.within(1, 60);
      expect(res.headers.get('retry-after')).to.equal(String(res.body.retryAfter));
    });
  });
});

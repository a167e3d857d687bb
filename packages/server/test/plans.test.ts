import { expect } from 'chai';
import { PLAN_MESSAGES as M, PLAN_ACCESS_MESSAGES, type ApiPlan, type PlanAnalytics } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan, buildPurchase } from './helpers/planFactories.js';
import { planAnalytics, planPerformance } from '../src/plans/planAnalytics.js';
import type { Plan, User } from '../src/models/index.js';

describe('plans: public, user and admin calls', () => {
  let server: TestServer;
  let admin: User;
  let adminToken: string;

  before(async () => {
    server = await startTestServer();
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  after(async () => server?.stop());
  beforeEach(async () => {
    await server.ctx.sequelize.query('TRUNCATE plans CASCADE');
  });

  const create = (body: unknown, token = adminToken) => api(server).post('/admin/plans', body, token);

  it('create_validCreditPlan_201WithCentsAndDefaults', async () => {
    const res = await create({ name: '  Pacote 50 ', type: 'credit', price: 79.9, credits: 50, features: ['Rápido', ' ', 'Suporte'] });
    expect(res.status).to.equal(201);
    expect(res.body.message).to.equal(M.created);
    const plan = res.body.plan as ApiPlan;
    expect(plan).to.deep.include({
      name: 'Pacote 50',
      type: 'credit',
      price: 79.9,
      priceCents: 7990,
      currency: 'BRL',
      formattedPrice: 'R$ 79,90',
      credits: 50,
      subscriptionDetails: null,
      isActive: true,
      isPopular: false,
      salesCount: 0,
      totalRevenue: 0,
    });
    expect(plan.features).to.deep.equal(['Rápido', 'Suporte']);
    expect(plan._id).to.equal(plan.id);
  });

  it('create_withoutDisplayOrder_placedLastAfterEveryPlan', async () => {
    const maxBefore = (await server.ctx.models.Plan.max<number, InstanceType<typeof server.ctx.models.Plan>>('displayOrder')) ?? 0;
    const res = await create({ name: 'Novo no fim', type: 'credit', price: 5, credits: 1 });
    expect(res.status).to.equal(201);
    expect((res.body.plan as ApiPlan).displayOrder).to.equal(maxBefore + 1);
    const explicit = await create({ name: 'Com ordem', type: 'credit', price: 5, credits: 1, displayOrder: 1 });
    expect((explicit.body.plan as ApiPlan).displayOrder).to.equal(1);
  });

  it('create_subscription_unlimitedWithDurationAndNoCredits', async () => {
    const res = await create({ name: 'Anual', type: 'subscription', price: 499, credits: 99, subscriptionDetails: { duration: 12 }, currency: 'USD' });
    expect(res.status).to.equal(201);
    expect(res.body.plan).to.deep.include({ credits: null, subscriptionDetails: { duration: 12, unlimited: true }, currency: 'USD', formattedPrice: 'US$ 499,00' });
  });

  it('create_invalid_400WithSpecMessagesPerField', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{ name: ' ', type: 'credit', price: 10, credits: 5 }, { name: M.nameRequired }],
      [{ name: 'A', type: 'credit', price: -1, credits: 5 }, { price: M.priceNegative }],
      [{ name: 'A', type: 'credit', price: 10, credits: 0 }, { credits: M.creditsRequired }],
      [{ name: 'A', type: 'credit', price: 10 }, { credits: M.creditsRequired }],
      [{ name: 'A', type: 'subscription', price: 10, subscriptionDetails: { duration: 0 } }, { 'subscriptionDetails.duration': M.durationRequired }],
      [{ name: '', type: 'credit', price: -5, credits: -1 }, { name: M.nameRequired, price: M.priceNegative, credits: M.creditsRequired }],
    ];
    for (const [body, fields] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body).to.deep.equal({ message: Object.values(fields)[0], code: 'VALIDATION_ERROR', fields });
    }
  });

  it('create_byUserOrAnonymous_403And401', async () => {
    const user = await buildUser(server);
    expect((await create({ name: 'A', type: 'credit', price: 1, credits: 1 }, tokenFor(server, user))).status).to.equal(403);
    expect((await api(server).post('/admin/plans', { name: 'A' })).status).to.equal(401);
    expect((await api(server).post('/plans', { name: 'A', type: 'credit', price: 1, credits: 1 }, tokenFor(server, user))).status).to.equal(403);
  });

  it('public_onlyActiveInDisplayOrder_noSignIn', async () => {
    await buildPlan(server, { name: 'B', displayOrder: 2 });
    await buildPlan(server, { name: 'A', displayOrder: 1 });
    await buildPlan(server, { name: 'Oculto', displayOrder: 0, isActive: false });
    const res = await api(server).get('/plans/public');
    expect(res.status).to.equal(200);
    expect((res.body.plans as ApiPlan[]).map((p) => p.name)).to.deep.equal(['A', 'B']);
  });

  it('list_userSeesActiveOnly_adminSeesAllWithFilters', async () => {
    await buildPlan(server, { name: 'Básico', priceCents: 990, displayOrder: 1, description: 'para começar' });
    await buildPlan(server, { name: 'Pro', priceCents: 4990, displayOrder: 2, type: 'subscription' });
    await buildPlan(server, { name: 'Velho', priceCents: 2990, displayOrder: 3, isActive: false });
    const user = await buildUser(server);
    const asUser = await api(server).get('/plans?isActive=false', tokenFor(server, user));
    expect((asUser.body.plans as ApiPlan[]).map((p) => p.name)).to.deep.equal(['Básico', 'Pro']);

    const q = async (query: string) => {
      const res = await api(server).get(`/admin/plans?${query}`, adminToken);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body as { plans: ApiPlan[]; pagination: unknown };
    };
    expect((await q('')).plans.map((p) => p.name)).to.deep.equal(['Básico', 'Pro', 'Velho']);
    expect((await q('status=inactive')).plans.map((p) => p.name)).to.deep.equal(['Velho']);
    expect((await q('type=subscription')).plans.map((p) => p.name)).to.deep.equal(['Pro']);
    expect((await q('minPrice=10&maxPrice=30')).plans.map((p) => p.name)).to.deep.equal(['Velho']);
    expect((await q('search=COMEÇ')).plans.map((p) => p.name)).to.deep.equal(['Básico']);
    expect((await q('search=%25')).plans).to.deep.equal([]);
    expect((await q('sortBy=price&sortOrder=desc')).plans.map((p) => p.name)).to.deep.equal(['Pro', 'Velho', 'Básico']);
    const page2 = await q('limit=2&page=2');
    expect(page2.plans.map((p) => p.name)).to.deep.equal(['Velho']);
    expect(page2.pagination).to.deep.equal({ total: 3, page: 2, limit: 2, pages: 2 });
    const bad = await api(server).get('/admin/plans?sortBy=password', adminToken);
    expect(bad.status).to.equal(400);
  });

  it('get_inactivePlan_404ForUserVisibleForAdmin', async () => {
    const plan = await buildPlan(server, { isActive: false });
    const user = await buildUser(server);
    const res = await api(server).get(`/plans/${plan.id}`, tokenFor(server, user));
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ message: M.notFound, code: 'PLAN_NOT_FOUND' });
    expect((await api(server).get(`/plans/${plan.id}`, adminToken)).status).to.equal(200);
    expect((await api(server).get('/admin/plans/nope', adminToken)).status).to.equal(404);
  });

  it('update_changeTypeToSubscription_creditsCleared', async () => {
    const plan = await buildPlan(server, { credits: 10 });
    const res = await api(server).put(`/admin/plans/${plan.id}`, { type: 'subscription', subscriptionDetails: { duration: 3 } }, adminToken);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.plan).to.deep.include({ type: 'subscription', credits: null, subscriptionDetails: { duration: 3, unlimited: true } });
  });

  it('update_toCreditWithoutCredits_400CreditsRequired', async () => {
    const plan = await buildPlan(server, { type: 'subscription' });
    const res = await api(server).put(`/admin/plans/${plan.id}`, { type: 'credit' }, adminToken);
    expect(res.status).to.equal(400);
    expect(res.body.fields).to.deep.equal({ credits: M.creditsRequired });
  });

  it('update_partialPrice_onlyPriceChanges', async () => {
    const plan = await buildPlan(server, { name: 'Fixo', credits: 7 });
    const res = await api(server).patch(`/plans/${plan.id}`, { price: 12.5 }, adminToken);
    expect(res.body.plan).to.deep.include({ name: 'Fixo', credits: 7, priceCents: 1250 });
  });

  it('delete_withoutSales_destroyed_withSales_deactivated', async () => {
    const free = await buildPlan(server);
    const sold = await buildPlan(server);
    await buildPurchase(server, await buildUser(server), sold, { status: 'approved' });
    const a = await api(server).delete(`/admin/plans/${free.id}`, adminToken);
    expect(a.body).to.deep.equal({ success: true, deleted: true, deactivated: false, message: M.deleted });
    expect(await server.ctx.models.Plan.findByPk(free.id)).to.equal(null);
    const b = await api(server).delete(`/admin/plans/${sold.id}`, adminToken);
    expect(b.body).to.deep.equal({ success: true, deleted: false, deactivated: true, message: M.deactivatedHasSales });
    expect((await server.ctx.models.Plan.findByPk(sold.id, { rejectOnEmpty: true })).isActive).to.equal(false);
  });

  it('duplicate_defaultName_copySuffixInactiveNoSales', async () => {
    const plan = await buildPlan(server, { name: 'Pro', isPopular: true, salesCount: 4, totalRevenueCents: 9999, features: ['x'] });
    const res = await api(server).post(`/admin/plans/${plan.id}/duplicate`, {}, adminToken);
    expect(res.status).to.equal(201);
    expect(res.body.plan).to.deep.include({ name: 'Pro (Cópia)', isActive: false, isPopular: false, salesCount: 0, totalRevenue: 0, credits: 10 });
    const named = await api(server).post(`/admin/plans/${plan.id}/duplicate`, { newName: 'Pro 2' }, adminToken);
    expect((named.body.plan as ApiPlan).name).to.equal('Pro 2');
    const viaPlans = await api(server).post(`/plans/${plan.id}/duplicate`, { name: 'Pro 3' }, adminToken);
    expect((viaPlans.body.plan as ApiPlan).name).to.equal('Pro 3');
  });

  it('toggleStatusAndSetPopular_flipAndSet', async () => {
    const plan = await buildPlan(server);
    const off = await api(server).patch(`/admin/plans/${plan.id}/toggle-status`, {}, adminToken);
    expect(off.body).to.deep.include({ message: M.deactivated });
    expect((off.body.plan as ApiPlan).isActive).to.equal(false);
    const on = await api(server).patch(`/admin/plans/${plan.id}/toggle-status`, {}, adminToken);
    expect((on.body.plan as ApiPlan).isActive).to.equal(true);
    const pop = await api(server).patch(`/admin/plans/${plan.id}/set-popular`, { popular: true }, adminToken);
    expect(pop.body).to.deep.include({ message: M.markedPopular });
    const again = await api(server).patch(`/admin/plans/${plan.id}/set-popular`, { popular: true }, adminToken);
    expect((again.body.plan as ApiPlan).isPopular).to.equal(true);
    const flip = await api(server).patch(`/admin/plans/${plan.id}/set-popular`, {}, adminToken);
    expect((flip.body.plan as ApiPlan).isPopular).to.equal(false);
  });

  it('reorder_planOrders_displayOrderWritten', async () => {
    const a = await buildPlan(server, { name: 'A', displayOrder: 1 });
    const b = await buildPlan(server, { name: 'B', displayOrder: 2 });
    const res = await api(server).patch('/admin/plans/reorder', { planOrders: [{ planId: a.id, displayOrder: 2 }, { id: b.id, displayOrder: 1 }] }, adminToken);
    expect(res.body).to.deep.equal({ success: true, message: M.reordered, updatedCount: 2 });
    const list = await api(server).get('/plans/public');
    expect((list.body.plans as ApiPlan[]).map((p) => p.name)).to.deep.equal(['B', 'A']);
    const missing = await api(server).patch('/admin/plans/reorder', { planOrders: [{ planId: '6f1c1b5e-4d3a-4b7a-9a53-3f9c2c1f0a11', displayOrder: 1 }] }, adminToken);
    expect(missing.status).to.equal(404);
  });

  it('bulkUpdateAndDelete_countsAndRules', async () => {
    const a = await buildPlan(server);
    const b = await buildPlan(server);
    const sold = await buildPlan(server);
    await buildPurchase(server, await buildUser(server), sold);
    const ids = [a.id, b.id, sold.id];
    const upd = await api(server).patch('/admin/plans/bulk-update', { planIds: ids, updates: { price: 5, isPopular: true } }, adminToken);
    expect(upd.body).to.deep.include({ success: true, updatedCount: 3 });
    expect((await server.ctx.models.Plan.findAll()).map((p) => [p.priceCents, p.isPopular])).to.deep.equal(Array(3).fill([500, true]));
    const empty = await api(server).patch('/admin/plans/bulk-update', { planIds: ids, updates: {} }, adminToken);
    expect(empty.status).to.equal(400);
    expect(empty.body).to.deep.include({ message: M.bulkUpdateEmpty });
    const del = await api(server).request('DELETE', '/admin/plans/bulk-delete', { planIds: ids }, { token: adminToken });
    expect(del.body).to.deep.include({ success: true, deletedCount: 2, deactivatedCount: 1 });
    expect((await server.ctx.models.Plan.findAll()).map((p) => p.isActive)).to.deep.equal([false]);
  });

  it('exportCsv_columnsAndFormattedValues', async () => {
    await buildPlan(server, { name: 'Pacote; "10"', priceCents: 1990, displayOrder: 1, salesCount: 3, totalRevenueCents: 5970, isPopular: true });
    await buildPlan(server, { name: '=HYPERLINK()', type: 'subscription', priceCents: 123456, displayOrder: 2, isActive: false });
    const res = await fetch(`${server.url}/api/admin/plans/export`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="planos-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = Buffer.from(await res.arrayBuffer()).toString('utf8');
    expect(text).to.equal(
      '\uFEFFNome;Tipo;Preço;Status;Popular;Vendas;Receita\r\n' +
        '"Pacote; ""10""";Créditos;R$ 19,90;Ativo;Sim;3;R$ 59,70\r\n' +
        "'=HYPERLINK();Assinatura;R$ 1.234,56;Inativo;Não;0;R$ 0,00\r\n",
    );
    const user = await buildUser(server);
    expect((await fetch(`${server.url}/api/admin/plans/export`, { headers: { authorization: `Bearer ${tokenFor(server, user)}` } })).status).to.equal(403);
  });

  it('currentAndCanConvert_noPlanUser_explainWhy', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const can = await api(server).get('/plans/can-convert', token);
    expect(can.body).to.deep.include({ canConvert: false, status: 'no_plan', message: PLAN_ACCESS_MESSAGES.no_plan, redirectTo: '/plans' });
    const noCredits = await buildUser(server, { userType: 'credit', credits: 0 });
    const can2 = await api(server).get('/plans/can-convert', tokenFor(server, noCredits));
    expect(can2.body).to.deep.include({ canConvert: false, status: 'no_credits', message: PLAN_ACCESS_MESSAGES.no_credits });
    const cur = await api(server).get('/plans/current', token);
    expect(cur.body).to.deep.include({ success: true, hasActivePlan: false, planAccess: 'no_plan', currentPlan: null, plan: null });
    const adminCan = await api(server).get('/plans/can-convert', adminToken);
    expect(adminCan.body).to.deep.include({ canConvert: true, remaining: 'unlimited' });
  });

  it('usageHistory_afterApplyAndRefund_eventsNewestFirst', async () => {
    const plan = await buildPlan(server, { name: 'Pacote 10', credits: 10 });
    const user = await buildUser(server);
    const applied = await api(server).post('/debug/test-apply-plan', { userId: user.id, planId: plan.id }, adminToken);
    expect(applied.status).to.equal(200);
    const res = await api(server).get('/plans/usage-history?page=1&limit=10', tokenFor(server, user));
    expect(res.status).to.equal(200);
    const history = res.body.history as Array<Record<string, unknown>>;
    expect(history).to.have.length(1);
    expect(history[0]).to.deep.include({ type: 'plan_applied', planName: 'Pacote 10', planType: 'credit', creditsAdded: 10 });
    expect(res.body.pagination).to.deep.equal({ total: 1, page: 1, limit: 10, pages: 1 });
  });
});

describe('plans: analytics on seeded purchases', () => {
  let server: TestServer;
  let p1: Plan;
  let p2: Plan;
  let p3: Plan;
  const NOW = new Date('2026-05-20T15:00:00Z'); // Wednesday, 12:00 in São Paulo
  const ids: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    p1 = await buildPlan(server, { name: 'Pacote 10', priceCents: 1990 });
    p2 = await buildPlan(server, { name: 'Mensal', type: 'subscription', priceCents: 4990 });
    p3 = await buildPlan(server, { name: 'Anual', type: 'subscription', priceCents: 12990 });
    await buildPlan(server, { name: 'Velho', isActive: false });
    const buyer = await buildUser(server);
    const seed = async (key: string, plan: Plan, status: 'approved' | 'pending' | 'rejected' | 'refunded', createdAt: string, approvedAt?: string, method: 'pix' | 'card' | 'boleto' = 'pix') => {
      const p = await buildPurchase(server, buyer, plan, { status, approvedAt: approvedAt ? new Date(approvedAt) : null, method });
      await server.ctx.sequelize.query('UPDATE purchases SET "createdAt" = :createdAt WHERE id = :id', { replacements: { createdAt, id: p.id } });
      ids[key] = p.id;
    };
    await seed('A', p1, 'approved', '2026-05-19T09:55:00Z', '2026-05-19T10:00:00Z'); // this week
    await seed('B', p1, 'approved', '2026-05-10T11:55:00Z', '2026-05-10T12:00:00Z', 'card'); // this month
    await seed('F', p1, 'approved', '2026-05-18T02:25:00Z', '2026-05-18T02:30:00Z'); // Sunday 23:30 in São Paulo: last week
    await seed('C', p2, 'approved', '2026-04-15T11:55:00Z', '2026-04-15T12:00:00Z', 'boleto'); // this quarter
    await seed('D', p2, 'approved', '2026-02-01T11:55:00Z', '2026-02-01T12:00:00Z'); // this year
    await seed('E', p3, 'approved', '2025-12-31T22:55:00Z', '2025-12-31T23:00:00Z'); // 20:00 on 31 Dec in São Paulo: last year
    await seed('G', p1, 'pending', '2026-05-19T12:00:00Z');
    await seed('H', p2, 'rejected', '2026-05-19T11:00:00Z');
    await seed('I', p3, 'refunded', '2026-05-19T08:00:00Z', '2026-05-19T08:05:00Z');
  });
  after(async () => server?.stop());

  it('analytics_week_mondayStartInSaoPaulo', async () => {
    const a: PlanAnalytics = await planAnalytics(server.ctx, 'week', NOW);
    expect(a.periodStart).to.equal('2026-05-18T03:00:00.000Z');
    expect(a.summary).to.deep.equal({
      totalPlans: 4,
      activePlans: 3,
      totalRevenue: 289.4,
      totalRevenueCents: 28940,
      periodRevenue: { total: 19.9, totalCents: 1990, count: 1 },
      averageTicket: 19.9,
      averageTicketCents: 1990,
    });
    expect(a.plansByType).to.deep.equal({ subscription: 2, credit: 2 });
    expect(a.topPerformingPlans.map((t) => [t.plan.name, t.revenueCents, t.sales])).to.deep.equal([['Pacote 10', 1990, 1]]);
    expect(a.recentSales.map((s) => [s.id, s.status, s.statusLabel])).to.deep.equal([
      [ids.G, 'pending', 'Pendente'],
      [ids.H, 'rejected', 'Rejeitado'],
      [ids.A, 'approved', 'Aprovado'],
      [ids.I, 'refunded', 'Reembolsado'],
    ]);
    expect(a.recentSales[0]).to.deep.include({ amount: 19.9, planId: { _id: p1.id, name: 'Pacote 10' } });
  });

  it('analytics_monthQuarterYear_handComputedSums', async () => {
    const month = await planAnalytics(server.ctx, 'month', NOW);
    expect(month.periodStart).to.equal('2026-05-01T03:00:00.000Z');
    expect(month.summary.periodRevenue).to.deep.equal({ total: 59.7, totalCents: 5970, count: 3 });
    expect(month.summary.averageTicketCents).to.equal(1990);

    const quarter = await planAnalytics(server.ctx, 'quarter', NOW);
    expect(quarter.periodStart).to.equal('2026-04-01T03:00:00.000Z');
    expect(quarter.summary.periodRevenue).to.deep.equal({ total: 109.6, totalCents: 10960, count: 4 });
    expect(quarter.summary.averageTicketCents).to.equal(2740);
    expect(quarter.salesByMethod.map((m) => [m.label, m.sales, m.revenueCents])).to.deep.equal([
      ['PIX', 2, 3980],
      ['Cartão', 1, 1990],
      ['Boleto', 1, 4990],
      ['Outro', 0, 0],
    ]);

    const year = await planAnalytics(server.ctx, 'year', NOW);
    expect(year.periodStart).to.equal('2026-01-01T03:00:00.000Z');
    expect(year.summary.periodRevenue).to.deep.equal({ total: 159.5, totalCents: 15950, count: 5 });
    expect(year.summary.averageTicketCents).to.equal(3190);
    expect(year.topPerformingPlans.map((t) => [t.plan.name, t.revenueCents, t.sales])).to.deep.equal([
      ['Mensal', 9980, 2],
      ['Pacote 10', 5970, 3],
    ]);
  });

  it('performance_perPlan_allTimeAndPeriod', async () => {
    const rows = await planPerformance(server.ctx, [p1.id, p3.id], 'month', NOW);
    expect(rows.map((r) => [r.name, r.sales, r.revenueCents, r.periodSales, r.periodRevenueCents, r.pendingPurchases])).to.deep.equal([
      ['Anual', 1, 12990, 0, 0, 0],
      ['Pacote 10', 3, 5970, 3, 5970, 1],
    ]);
  });

  it('analyticsHttp_periodParam_validatedAndAnswered', async () => {
    const token = tokenFor(server, await buildAdmin(server));
    const ok = await api(server).get('/admin/plans/analytics?period=year', token);
    expect(ok.status).to.equal(200);
    expect((ok.body.analytics as PlanAnalytics).period).to.equal('year');
    const dflt = await api(server).get('/admin/plans/analytics', token);
    expect((dflt.body.analytics as PlanAnalytics).period).to.equal('month');
    const bad = await api(server).get('/admin/plans/analytics?period=decade', token);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.include({ message: M.periodInvalid });
    const perf = await api(server).get(`/admin/plans/performance?planIds=${p1.id},${p2.id}&period=week`, token);
    expect(perf.status).to.equal(200);
    expect((perf.body.performance as unknown[]).length).to.equal(2);
    const stats = await api(server).get(`/admin/plans/${p1.id}/stats`, token);
    expect(stats.body.stats).to.deep.include({ salesCount: 3, totalRevenueCents: 5970, purchasesByStatus: { pending: 1, approved: 3, rejected: 0, cancelled: 0, refunded: 0 } });
  });
});

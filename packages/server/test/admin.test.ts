/**
 * The admin calls (dashboard, users, admins, conversions,
 * queue, system, config) against a real server and database. The server runs as a web-only
 * process, so queued conversions stay queued while a test looks at them.
 */
import { expect } from 'chai';
import { Op } from 'sequelize';
import type { AdminConfigResponse, AdminConversionListResponse, AdminDashboardStats, AdminQueueStats, AdminSystemStats, AdminUserListResponse, AdminUserResponse, ApiUser } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, buildAdmin, buildCreditUser, buildSubscriber, buildUser, tokenFor } from './helpers/factories.js';
import { buildConversion, buildPlan, buildPurchase } from './helpers/adminFactories.js';
import { demote } from '../src/accounts/userAdministrator.js';
import { userActor } from '../src/audit/actor.js';
import type { User } from '../src/models/index.js';

type Err = { message: string; code: string; fields?: Record<string, string> };

describe('admin API', function () {
  this.timeout(60000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const client = () => api(server);

  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  after(async () => {
    await server?.stop();
  });

  describe('guards', () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: Array<[string, string]> = [
      ['GET', '/admin/dashboard'],
      ['GET', '/admin/users'],
      ['GET', `/admin/users/${id}`],
      ['POST', '/admin/users/create-user'],
      ['POST', '/admin/users/create-admin'],
      ['PATCH', `/admin/users/${id}/update`],
      ['PATCH', `/admin/users/${id}/credits`],
      ['PATCH', `/admin/users/${id}/subscription`],
      ['PATCH', `/admin/users/${id}/type`],
      ['PATCH', `/admin/users/${id}/toggle-status`],
      ['PATCH', `/admin/users/${id}/promote`],
      ['PATCH', `/admin/users/${id}/demote`],
      ['PATCH', `/admin/users/${id}/change-password`],
      ['DELETE', `/admin/users/${id}`],
      ['GET', '/admin/users/by-role/user'],
      ['GET', '/admin/admins'],
      ['GET', '/admin/conversions'],
      ['DELETE', `/admin/conversions/${id}`],
      ['GET', '/admin/queue'],
      ['POST', '/admin/queue/clear'],
      ['GET', '/admin/system'],
      ['GET', '/admin/config'],
      ['PUT', '/admin/config/upload.maxFileSize'],
    ];

    it('everyAdminRoute_regularUser_answers403AdminRequired', async () => {
      const token = tokenFor(server, await buildCreditUser(server, 5));
      for (const [method, path] of routes) {
        const res = await client().request<Err>(method, path, method === 'GET' || method === 'DELETE' ? undefined : { value: 1 }, { token });
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body, `${method} ${path}`).to.deep.equal({ message: 'Acesso restrito a administradores.', code: 'ADMIN_REQUIRED' });
      }
    });

    it('everyAdminRoute_noToken_answers401', async () => {
      for (const [method, path] of routes) {
        const res = await client().request<Err>(method, path);
        expect(res.status, `${method} ${path}`).to.equal(401);
      }
    });

    it('adminRoute_subscriberWithActivePlan_answers403', async () => {
      const res = await client().get<Err>('/admin/dashboard', tokenFor(server, await buildSubscriber(server, 30)));
      expect(res.status).to.equal(403);
    });
  });

  describe('GET /admin/dashboard', () => {
    it('dashboard_withPurchasesAndConversions_countsFiguresRecentAndCharts', async () => {
      const before = await client().get<AdminDashboardStats>('/admin/dashboard', adminToken);
      expect(before.status).to.equal(200);
      const buyer = await buildCreditUser(server, 3);
      const inactive = await buildUser(server, { isActive: false });
      const plan = await buildPlan(server, { priceCents: 4990 });
      await buildPurchase(server, buyer, plan, { status: 'approved' });
      await buildPurchase(server, buyer, plan, { status: 'pending', approvedAt: null });
      await buildConversion(server, buyer, { status: 'completed', progress: 100, completedAt: new Date() });
      await buildConversion(server, buyer, { status: 'failed', error: 'x' });
      const last = await buildConversion(server, inactive, { status: 'queued', queuedAt: new Date() });

      const res = await client().get<AdminDashboardStats>('/admin/dashboard', adminToken);
      expect(res.status).to.equal(200);
      const a = before.body;
      const b = res.body;
      expect(b.users.total - a.users.total).to.equal(2);
      expect(b.users.inactive - a.users.inactive).to.equal(1);
      expect(b.conversions.total - a.conversions.total).to.equal(3);
      expect(b.conversions.completed - a.conversions.completed).to.equal(1);
      expect(b.conversions.failed - a.conversions.failed).to.equal(1);
      expect(b.conversions.pending - a.conversions.pending).to.equal(1);
      expect(b.conversions.monthly - a.conversions.monthly).to.equal(3);
      expect(b.revenue.totalCents - a.revenue.totalCents).to.equal(4990);
      expect(b.revenue.monthlyCents - a.revenue.monthlyCents).to.equal(4990);
      expect(b.purchases.approved - a.purchases.approved).to.equal(1);
      expect(b.purchases.pending - a.purchases.pending).to.equal(1);
      expect(b.queue.waiting - a.queue.waiting).to.equal(1);
      expect(b.totalUsers).to.equal(b.users.total);
      expect(b.totalRevenue).to.equal(b.revenue.total);
      expect(b.recentConversions).to.have.length.at.most(5);
      expect(b.recentConversions[0]).to.include({ id: last.id, status: 'queued' });
      expect(b.recentConversions[0].user).to.deep.equal({ id: inactive.id, _id: inactive.id, email: inactive.email });
      expect(b.charts.conversionsPerDay).to.have.length(30);
      expect(b.charts.revenuePerMonth).to.have.length(12);
      const today = b.charts.conversionsPerDay[29];
      expect(today.total - a.charts.conversionsPerDay[29].total).to.equal(3);
      expect(b.charts.revenuePerMonth[11].revenueCents - a.charts.revenuePerMonth[11].revenueCents).to.equal(4990);
      expect(b.system.uptime).to.be.a('number').at.least(0);
      expect(b.system.memory.total).to.be.greaterThan(b.system.memory.used > 0 ? 0 : -1);
    });
  });

  describe('users', () => {
    it('listUsers_defaults_tenPerPageNewestFirstWithPagination', async () => {
      for (let i = 0; i < 11; i++) await buildCreditUser(server, i);
      const res = await client().get<AdminUserListResponse>('/admin/users?role=user', adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.users).to.have.length(10);
      expect(res.body.users.every((u) => u.role === 'user')).to.equal(true);
      expect(res.body.pagination).to.include({ page: 1, limit: 10 });
      expect(res.body.pagination.pages).to.equal(Math.ceil(res.body.pagination.total / 10));
      expect(res.body.users[0]).to.not.have.property('passwordHash');
      const page2 = await client().get<AdminUserListResponse>('/admin/users?role=user&page=2', adminToken);
      expect(page2.body.users[0].id).to.not.equal(res.body.users[0].id);
    });

    it('listUsers_searchAndFilters_narrowTheList', async () => {
      const sub = await buildSubscriber(server, 10, { email: 'assinante-busca@example.com' });
      await buildCreditUser(server, 1, { email: 'credito-busca@example.com' });
      const bySearch = await client().get<AdminUserListResponse>('/admin/users?search=ASSINANTE-busca', adminToken);
      expect(bySearch.body.users.map((u) => u.id)).to.deep.equal([sub.id]);
      const byType = await client().get<AdminUserListResponse>('/admin/users?search=busca&userType=subscription', adminToken);
      expect(byType.body.users.map((u) => u.email)).to.deep.equal(['assinante-busca@example.com']);
      const admins = await client().get<AdminUserListResponse>('/admin/users?role=admin', adminToken);
      expect(admins.body.users.every((u) => u.role === 'admin')).to.equal(true);
      const wildcard = await client().get<AdminUserListResponse>('/admin/users?search=%25', adminToken);
      expect(wildcard.body.users).to.deep.equal([]);
      const bad = await client().get<Err>('/admin/users?role=root', adminToken);
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.equal('Papel inválido (use user ou admin)');
    });

    it('createUser_creditWithoutCredits_gets10CreditsAndAccess', async () => {
      const res = await client().post<AdminUserResponse>('/admin/users/create-user', { email: 'Novo.Credito@Example.com', password: 'segredo1', userType: 'credit' }, adminToken);
      expect(res.status).to.equal(201);
      expect(res.body.message).to.equal('Usuário criado com sucesso!');
      expect(res.body.user).to.include({ email: 'novo.credito@example.com', role: 'user', userType: 'credit' });
      expect(res.body.user.credits.available).to.equal(10);
      expect(res.body.user.usageSummary.planAccess).to.equal('active');
      const login = await client().post('/auth/login', { email: 'novo.credito@example.com', password: 'segredo1' });
      expect(login.status).to.equal(200);
    });

    it('createUser_zeroAndNegativeCredits_zeroAllowedNegativeRefused', async () => {
      const zero = await client().post<AdminUserResponse>('/admin/users/create-user', { email: 'zero@example.com', password: 'segredo1', userType: 'credit', credits: 0 }, adminToken);
      expect(zero.status).to.equal(201);
      expect(zero.body.user.credits.available).to.equal(0);
      const negative = await client().post<Err>('/admin/users/create-user', { email: 'neg@example.com', password: 'segredo1', userType: 'credit', credits: -1 }, adminToken);
      expect(negative.status).to.equal(400);
      expect(negative.body).to.deep.include({ message: 'Créditos devem ser no mínimo 0', fields: { credits: 'Créditos devem ser no mínimo 0' } });
    });

    it('createUser_missingEmailOrPassword_answersSpecMessage', async () => {
      const res = await client().post<Err>('/admin/users/create-user', { email: '', password: '' }, adminToken);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Email e senha são obrigatórios');
      const taken = await client().post<Err>('/admin/users/create-user', { email: admin.email, password: 'segredo1' }, adminToken);
      expect(taken.status).to.equal(409);
      expect(taken.body.code).to.equal('EMAIL_TAKEN');
    });

    it('createUser_subscriptionWithPlan_expiresAfterPlanMonths', async () => {
      const plan = await buildPlan(server, { type: 'subscription', durationMonths: 3 });
      const res = await client().post<AdminUserResponse>('/admin/users/create-user', { email: 'sub-plan@example.com', password: 'segredo1', userType: 'subscription', planId: plan.id, credits: 50 }, adminToken);
      expect(res.status).to.equal(201);
      const u = res.body.user;
      expect(u.userType).to.equal('subscription');
      expect(u.credits.available).to.equal(0);
      expect(u.subscription.plan).to.equal(plan.id);
      const days = (new Date(u.subscription.expiresAt!).getTime() - Date.now()) / 86400000;
      expect(days).to.be.within(88, 93);
      expect(u.usageSummary.planAccess).to.equal('active');
      const creditPlan = await buildPlan(server, { type: 'credit' });
      const wrong = await client().post<Err>('/admin/users/create-user', { email: 'sub-wrong@example.com', password: 'segredo1', userType: 'subscription', planId: creditPlan.id }, adminToken);
      expect(wrong.status).to.equal(400);
      expect(wrong.body.message).to.equal('O plano escolhido não é um plano de assinatura');
      expect((await client().post<Err>('/auth/login', { email: 'sub-wrong@example.com', password: 'segredo1' })).status).to.equal(401);
    });

    it('createAdmin_fieldsMissingOrGiven_refusesOrCreatesAdmin', async () => {
      const missing = await client().post<Err>('/admin/users/create-admin', { email: 'x@example.com' }, adminToken);
      expect(missing.status).to.equal(400);
      expect(missing.body.message).to.equal('Por favor, preencha todos os campos');
      const res = await client().post<AdminUserResponse>('/admin/users/create-admin', { email: 'novo-admin@example.com', password: 'segredo1' }, adminToken);
      expect(res.status).to.equal(201);
      expect(res.body.user.role).to.equal('admin');
      expect(res.body.message).to.equal('Administrador criado com sucesso!');
    });

    it('updateUser_onlyChangedFields_appliesThemAndKeepsBlankPassword', async () => {
      const user = await buildCreditUser(server, 4);
      const same = await client().patch<Err>(`/admin/users/${user.id}/update`, { email: user.email, password: '', userType: 'credit', planData: { credits: 4 } }, adminToken);
      expect(same.status).to.equal(400);
      expect(same.body).to.deep.equal({ message: 'Nenhuma alteração detectada', code: 'NO_CHANGES' });
      const res = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/update`, { email: 'editado@example.com', password: '', planData: { credits: 25 } }, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Usuário atualizado com sucesso!');
      expect(res.body.user).to.include({ email: 'editado@example.com' });
      expect(res.body.user.credits.available).to.equal(25);
      expect((await client().post('/auth/login', { email: 'editado@example.com', password: DEFAULT_PASSWORD })).status).to.equal(200);
      const pw = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/update`, { password: 'outra-senha' }, adminToken);
      expect(pw.status).to.equal(200);
      expect((await client().post('/auth/login', { email: 'editado@example.com', password: 'outra-senha' })).status).to.equal(200);
      const taken = await client().patch<Err>(`/admin/users/${user.id}/update`, { email: admin.email }, adminToken);
      expect(taken.status).to.equal(409);
    });

    it('updateUser_expiryDate_setsSubscriptionExpiry', async () => {
      const user = await buildSubscriber(server, 5);
      const expiresAt = new Date(Date.now() + 60 * 86400000);
      const res = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/update`, { planData: { expiresAt: expiresAt.toISOString() } }, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.user.subscription.expiresAt).to.equal(expiresAt.toISOString());
      const missing = await client().patch<Err>('/admin/users/00000000-0000-4000-8000-000000000000/update', { planData: { credits: 1 } }, adminToken);
      expect(missing.status).to.equal(404);
      expect(missing.body.message).to.equal('Usuário não encontrado');
    });

    it('credits_setAddSubtract_changeBalanceNeverBelowZero', async () => {
      const user = await buildCreditUser(server, 5);
      const path = `/admin/users/${user.id}/credits`;
      expect((await client().patch<AdminUserResponse>(path, { credits: 7 }, adminToken)).body.user.credits.available).to.equal(7);
      expect((await client().patch<AdminUserResponse>(path, { credits: 3, operation: 'add' }, adminToken)).body.user.credits.available).to.equal(10);
      expect((await client().patch<AdminUserResponse>(path, { credits: 4, operation: 'subtract' }, adminToken)).body.user.credits.available).to.equal(6);
      const below = await client().patch<Err>(path, { credits: 7, operation: 'subtract' }, adminToken);
      expect(below.status).to.equal(400);
      expect(below.body.message).to.equal('O saldo de créditos não pode ficar negativo');
      const fraction = await client().patch<Err>(path, { credits: 1.5 }, adminToken);
      expect(fraction.status).to.equal(400);
      expect(fraction.body.message).to.equal('Créditos devem ser um número inteiro');
      const res = await client().patch<AdminUserResponse>(path, { credits: 0 }, adminToken);
      expect(res.body.user.usageSummary.planAccess).to.equal('no_credits');
    });

    it('subscription_planAndMonths_grantsAccessUntilExpiry', async () => {
      const plan = await buildPlan(server, { type: 'subscription', durationMonths: 1 });
      const user = await buildCreditUser(server, 2);
      const none = await client().patch<Err>(`/admin/users/${user.id}/subscription`, { extendMonths: 2 }, adminToken);
      expect(none.status).to.equal(400);
      expect(none.body.message).to.equal('Selecione um plano de assinatura para o usuário');
      const res = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/subscription`, { planId: plan.id, extendMonths: 2 }, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Assinatura atualizada com sucesso!');
      expect(res.body.user.userType).to.equal('subscription');
      expect(res.body.user.credits.available).to.equal(2);
      const days = (new Date(res.body.user.subscription.expiresAt!).getTime() - Date.now()) / 86400000;
      expect(days).to.be.within(57, 63);
      const past = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/subscription`, { expiresAt: new Date(Date.now() - 86400000).toISOString() }, adminToken);
      expect(past.body.user.usageSummary.planAccess).to.equal('expired');
      const empty = await client().patch<Err>(`/admin/users/${user.id}/subscription`, {}, adminToken);
      expect(empty.status).to.equal(400);
      expect(empty.body.message).to.equal('Nenhuma alteração detectada');
    });

    it('type_switch_keepsCreditsAndRefusesSameType', async () => {
      const user = await buildCreditUser(server, 8);
      const res = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/type`, { userType: 'subscription' }, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.user).to.include({ userType: 'subscription' });
      expect(res.body.user.credits.available).to.equal(8);
      expect((await client().patch<Err>(`/admin/users/${user.id}/type`, { userType: 'subscription' }, adminToken)).status).to.equal(400);
      const bad = await client().patch<Err>(`/admin/users/${user.id}/type`, { userType: 'gold' }, adminToken);
      expect(bad.body.message).to.equal('Tipo de usuário inválido (use credit ou subscription)');
    });

    it('toggleStatus_deactivate_endsSessionsAndReactivates', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const off = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/toggle-status`, undefined, adminToken);
      expect(off.body).to.deep.include({ message: 'Usuário desativado com sucesso!' });
      expect(off.body.user.isActive).to.equal(false);
      expect((await client().get('/auth/me', token)).status).to.equal(401);
      const on = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/toggle-status`, undefined, adminToken);
      expect(on.body.user.isActive).to.equal(true);
      const self = await client().patch<Err>(`/admin/users/${admin.id}/toggle-status`, undefined, adminToken);
      expect(self.status).to.equal(403);
      expect(self.body.message).to.equal('Você não pode desativar a sua própria conta');
    });

    it('toggleStatus_twoAdminsDeactivateEachOtherAtOnce_oneStaysActive', async () => {
      for (let round = 0; round < 5; round++) {
        const [a, b] = [await buildAdmin(server), await buildAdmin(server)];
        const answers = await Promise.all([
          client().patch<Err>(`/admin/users/${b.id}/toggle-status`, undefined, tokenFor(server, a)),
          client().patch<Err>(`/admin/users/${a.id}/toggle-status`, undefined, tokenFor(server, b)),
        ]);
        await Promise.all([a.reload(), b.reload()]);
        expect([a.isActive, b.isActive].filter(Boolean), `round ${round}: ${answers.map((r) => r.status).join(' ')}`).to.have.length(1);
        // The loser's sender was no longer an active admin when its turn came.
        const refused = answers.find((r) => r.status !== 200)!;
        expect(refused.status).to.be.oneOf([401, 403]);
      }
    });

    it('changePassword_byAdmin_needsNoCurrentPasswordAndEndsOldSessions', async () => {
      const user = await buildCreditUser(server, 1);
      const token = tokenFor(server, user);
      const short = await client().patch<Err>(`/admin/users/${user.id}/change-password`, { newPassword: '123' }, adminToken);
      expect(short.status).to.equal(400);
      expect(short.body.message).to.equal('Nova senha deve ter pelo menos 6 caracteres');
      const res = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/change-password`, { newPassword: 'nova-senha-1' }, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Senha alterada com sucesso!');
      expect((await client().get('/auth/me', token)).status).to.equal(401);
      expect((await client().post('/auth/login', { email: user.email, password: 'nova-senha-1' })).status).to.equal(200);
    });

    it('byRoleAndAdmins_listOnlyThatRole', async () => {
      const res = await client().get<AdminUserListResponse>('/admin/users/by-role/admin?limit=100', adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.users.map((u) => u.id)).to.include(admin.id);
      expect(res.body.users.every((u) => u.role === 'admin')).to.equal(true);
      const admins = await client().get<AdminUserListResponse & { admins: ApiUser[] }>('/admin/admins?limit=100', adminToken);
      expect(admins.body.admins.map((u) => u.id)).to.include(admin.id);
      const bad = await client().get<Err>('/admin/users/by-role/root', adminToken);
      expect(bad.status).to.equal(400);
    });
  });

  describe('roles', () => {
    it('promoteDemote_otherUser_changesRoleBothWays', async () => {
      const user = await buildCreditUser(server, 1);
      const up = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/promote`, undefined, adminToken);
      expect(up.status).to.equal(200);
      expect(up.body).to.deep.include({ message: 'Usuário promovido a administrador!' });
      expect(up.body.user.role).to.equal('admin');
      expect((await client().get('/admin/dashboard', tokenFor(server, user))).status).to.equal(200);
      const again = await client().patch<Err>(`/admin/users/${user.id}/promote`, undefined, adminToken);
      expect(again.status).to.equal(409);
      const down = await client().patch<AdminUserResponse>(`/admin/users/${user.id}/demote`, undefined, adminToken);
      expect(down.body.user.role).to.equal('user');
      expect((await client().get('/admin/dashboard', tokenFor(server, user))).status).to.equal(403);
      const notAdmin = await client().patch<Err>(`/admin/users/${user.id}/demote`, undefined, adminToken);
      expect(notAdmin.status).to.equal(409);
      expect(notAdmin.body.message).to.equal('O usuário não é administrador');
    });

    it('demote_self_answers403', async () => {
      const res = await client().patch<Err>(`/admin/users/${admin.id}/demote`, undefined, adminToken);
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ message: 'Você não pode rebaixar a si mesmo', code: 'CANNOT_DEMOTE_SELF' });
    });

    /** Leaves only these admins (every other admin becomes a user); restores the suite's admin after. */
    async function onlyAdmins(...ids: string[]): Promise<void> {
      await server.ctx.models.User.update({ role: 'user' }, { where: { role: 'admin', id: { [Op.notIn]: ids } } });
    }

    it('demote_byActorNoLongerAnAdmin_answers403AndTheLastAdminStays', async () => {
      // The only admin, demoted by an actor who was an admin when the request began.
      const former = await buildUser(server);
      await onlyAdmins(admin.id);
      let error: unknown;
      await demote(server.ctx, userActor(former), admin.id).catch((e: unknown) => (error = e));
      expect(error).to.include({ status: 403, code: 'ADMIN_REQUIRED', message: 'Acesso restrito a administradores.' });
      await admin.reload();
      expect(admin.role).to.equal('admin');
    });

    it('demote_twoAdminsDemotingEachOtherAtOnce_oneAdminRemains', async () => {
      const a = await buildAdmin(server);
      const b = await buildAdmin(server);
      await onlyAdmins(a.id, b.id);
      try {
        const [ra, rb] = await Promise.all([
          client().patch<Err>(`/admin/users/${b.id}/demote`, undefined, tokenFor(server, a)),
          client().patch<Err>(`/admin/users/${a.id}/demote`, undefined, tokenFor(server, b)),
        ]);
        // The loser is refused as no longer an admin, by the guard or under the admins' lock:
        // never both demoted.
        const statuses = [ra.status, rb.status].sort();
        expect(statuses[0]).to.equal(200);
        expect(statuses[1]).to.equal(403);
        expect(await server.ctx.models.User.count({ where: { role: 'admin' } })).to.equal(1);
      } finally {
        await server.ctx.models.User.update({ role: 'admin' }, { where: { id: admin.id } });
      }
    });

    it('delete_self_answers403', async () => {
      const res = await client().delete<Err>(`/admin/users/${admin.id}`, adminToken);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('Você não pode excluir a sua própria conta');
    });
  });

  describe('DELETE /admin/users/{id}', () => {
    it('deleteUser_withPurchases_softDeletesAndKeepsFinancialRecords', async () => {
      const user = await buildCreditUser(server, 3);
      const token = tokenFor(server, user);
      const plan = await buildPlan(server, { priceCents: 990 });
      const purchase = await buildPurchase(server, user, plan, { status: 'approved' });
      const queued = await buildConversion(server, user, { status: 'queued', queuedAt: new Date(), creditState: 'none' });
      const before = await client().get<AdminDashboardStats>('/admin/dashboard', adminToken);

      const res = await client().delete<{ message: string }>(`/admin/users/${user.id}`, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ message: 'Usuário excluído com sucesso!' });

      const row = await server.ctx.models.User.findByPk(user.id, { paranoid: false });
      expect(row?.deletedAt).to.be.instanceOf(Date);
      expect(await server.ctx.models.User.findByPk(user.id)).to.equal(null);
      const kept = await server.ctx.models.Purchase.findByPk(purchase.id);
      expect(kept).to.include({ userId: user.id, status: 'approved', amountCents: 990 });
      const after = await client().get<AdminDashboardStats>('/admin/dashboard', adminToken);
      expect(after.body.revenue.totalCents).to.equal(before.body.revenue.totalCents);
      expect((await client().get('/auth/me', token)).status).to.equal(401);
      expect((await queued.reload()).status).to.equal('cancelled');
      const list = await client().get<AdminUserListResponse>(`/admin/users?search=${encodeURIComponent(user.email)}`, adminToken);
      expect(list.body.users).to.deep.equal([]);
      expect((await client().get(`/admin/users/${user.id}`, adminToken)).status).to.equal(404);
      // The address is free again.
      expect((await client().post('/auth/register', { acceptTerms: true, email: user.email, password: 'segredo1' })).status).to.equal(201);
    });
  });

  describe('conversions', () => {
    it('listConversions_everyUserWithOwnerEmailFiltersAndSearch', async () => {
      const owner = await buildCreditUser(server, 1, { email: 'dono-conversao@example.com' });
      const done = await buildConversion(server, owner, { fileName: 'meu-app-unico.apk', status: 'completed', progress: 100, completedAt: new Date() });
      await buildConversion(server, owner, { status: 'failed' });

      const all = await client().get<AdminConversionListResponse>('/admin/conversions', adminToken);
      expect(all.status).to.equal(200);
      expect(all.body.limit).to.equal(25);
      expect(all.body).to.include.keys('total', 'page', 'totalPages', 'hasNextPage', 'hasPreviousPage', 'pagination');
      const byName = await client().get<AdminConversionListResponse>('/admin/conversions?search=%20meu-app-unico%20', adminToken);
      expect(byName.body.conversions.map((c) => c.id)).to.deep.equal([done.id]);
      expect(byName.body.conversions[0].user).to.deep.equal({ id: owner.id, _id: owner.id, email: 'dono-conversao@example.com' });
      const byEmail = await client().get<AdminConversionListResponse>('/admin/conversions?search=dono-conversao', adminToken);
      expect(byEmail.body.total).to.equal(2);
      const byStatus = await client().get<AdminConversionListResponse>('/admin/conversions?search=dono-conversao&status=failed', adminToken);
      expect(byStatus.body.conversions.map((c) => c.status)).to.deep.equal(['failed']);
      const paged = await client().get<AdminConversionListResponse>('/admin/conversions?search=dono-conversao&limit=1&page=2', adminToken);
      expect(paged.body).to.include({ page: 2, limit: 1, totalPages: 2, hasNextPage: false, hasPreviousPage: true });
      const bad = await client().get<Err>('/admin/conversions?status=bogus', adminToken);
      expect(bad.status).to.equal(400);
    });

    it('deleteConversion_queuedWithReservedCredit_cancelsReturnsCreditAndRemoves', async () => {
      const owner = await buildCreditUser(server, 2, { creditsReserved: 1 });
      const c = await buildConversion(server, owner, { status: 'queued', queuedAt: new Date(), creditState: 'reserved' });
      await server.ctx.models.ConversionLog.create({ conversionId: c.id, timestamp: new Date(), level: 'info', step: 'upload', message: 'x' });
      const res = await client().delete<{ message: string }>(`/admin/conversions/${c.id}`, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Conversão excluída com sucesso!');
      expect(await server.ctx.models.Conversion.findByPk(c.id)).to.equal(null);
      expect(await server.ctx.models.ConversionLog.count({ where: { conversionId: c.id } })).to.equal(0);
      await owner.reload();
      expect([owner.credits, owner.creditsReserved]).to.deep.equal([3, 0]);
      const again = await client().delete<Err>(`/admin/conversions/${c.id}`, adminToken);
      expect(again.status).to.equal(404);
      expect(again.body.message).to.equal('Conversão não encontrada');
    });
  });

  describe('queue and system', () => {
    it('queue_clear_cancelsWaitingReturnsCreditsAndLeavesRunning', async () => {
      const owner = await buildCreditUser(server, 0, { creditsReserved: 2 });
      const q1 = await buildConversion(server, owner, { status: 'queued', queuedAt: new Date(), creditState: 'reserved' });
      const q2 = await buildConversion(server, owner, { status: 'queued', queuedAt: new Date(), creditState: 'reserved' });
      const running = await buildConversion(server, owner, { status: 'processing', processingStartedAt: new Date(), creditState: 'none' });
      const stats = await client().get<AdminQueueStats>('/admin/queue', adminToken);
      expect(stats.status).to.equal(200);
      expect(stats.body.waiting).to.be.at.least(2);
      expect(stats.body.active).to.be.at.least(1);
      expect(stats.body).to.include.keys('completed', 'failed', 'maxConcurrent');

      const res = await client().post<{ message: string; cancelledCount: number; creditsReturned: number; queue: AdminQueueStats }>('/admin/queue/clear', undefined, adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.cancelledCount).to.be.at.least(2);
      expect(res.body.creditsReturned).to.be.at.least(2);
      expect(res.body.message).to.match(/conversões removidas da fila$/);
      expect(res.body.queue.waiting).to.equal(0);
      expect((await q1.reload()).status).to.equal('cancelled');
      expect((await q2.reload()).status).to.equal('cancelled');
      expect((await running.reload()).status).to.equal('processing');
      await owner.reload();
      expect([owner.credits, owner.creditsReserved]).to.deep.equal([2, 0]);
      await running.update({ status: 'failed' });
    });

    it('system_answersUptimeMemoryAndCpu', async () => {
      const res = await client().get<AdminSystemStats>('/admin/system', adminToken);
      expect(res.status).to.equal(200);
      expect(res.body.uptime).to.be.a('number').at.least(0);
      expect(res.body.memory.total).to.be.greaterThan(0);
      expect(res.body.memory.used).to.be.within(0, res.body.memory.total);
      expect(res.body.cpu.cores).to.be.at.least(1);
      expect(res.body.cpu.usage).to.be.within(0, 100);
    });
  });

  describe('config', () => {
    type Entry = AdminConfigResponse['configs'][number];
    const put = (key: string, value: unknown) => client().put<Err & { config: Entry }>(`/admin/config/${key}`, { value }, adminToken);

    it('config_list_allKeysSecretsMaskedWebhookHint', async () => {
      await server.ctx.settings.set('payments.mercadopago.accessToken', 'APP_USR-1234567890-secret-abcd');
      const res = await client().get<AdminConfigResponse>('/admin/config', adminToken);
      expect(res.status).to.equal(200);
      const keys = res.body.configs.map((c) => c.key);
      expect(keys).to.include.members(['conversions.concurrentPerUser', 'upload.maxFileSize', 'queue.broadcastInterval', 'logging.level', 'payments.mercadopago.accessToken', 'payments.mercadopago.publicKey', 'payments.mercadopago.webhookSecret']);
      const token = res.body.configs.find((c) => c.key === 'payments.mercadopago.accessToken')!;
      expect(token.value).to.equal('••••••••abcd');
      expect(JSON.stringify(res.body)).to.not.contain('APP_USR-1234567890');
      const secret = res.body.configs.find((c) => c.key === 'payments.mercadopago.webhookSecret')!;
      // Without PUBLIC_URL: a path on this server, never an address built from the request's Host.
      expect(res.body.webhookUrl).to.equal('/api/payments/webhook');
      expect(secret.hint).to.contain(res.body.webhookUrl);
      // The URL is said once (the hint), not repeated in the help text.
      expect(secret.help).to.not.contain(res.body.webhookUrl);
      const level = res.body.configs.find((c) => c.key === 'logging.level')!;
      expect(level.options).to.deep.equal(['debug', 'info', 'warn', 'error']);
      expect(res.body.configs.find((c) => c.key === 'upload.maxFileSize')).to.include({ value: 104857600, source: 'default', recommended: '104857600 (100 MB)' });
    });

    it('config_invalidValues_answer400WithTheRule', async () => {
      const cases: Array<[string, unknown, string]> = [
        ['upload.maxFileSize', '', 'Valor não pode ser vazio'],
        ['upload.maxFileSize', null, 'Valor não pode ser vazio'],
        ['upload.maxFileSize', 'abc', 'Valor deve ser um número válido'],
        ['upload.maxFileSize', 1048575, 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite'],
        ['upload.maxFileSize', 524288001, 'Valor deve estar entre 1 MB (1048576) e 500 MB (524288000), ou 0 para sem limite'],
        ['conversions.concurrentPerUser', -1, 'Valor deve estar entre 0 e 100'],
        ['queue.broadcastInterval', '1.5', 'Valor deve ser um número válido'],
        ['logging.level', 'verbose', 'Use debug, info, warn ou error'],
      ];
      for (const [key, value, message] of cases) {
        const res = await put(key, value);
        expect(res.status, `${key}=${String(value)}`).to.equal(400);
        expect(res.body, `${key}=${String(value)}`).to.deep.include({ code: 'VALIDATION_ERROR', message, fields: { value: message } });
      }
      const unknown = await put('nope.key', 1);
      expect(unknown.status).to.equal(404);
      expect(unknown.body.message).to.equal('Configuração desconhecida');
    });

    it('config_validValues_storedAndApplied', async () => {
      const size = await put('upload.maxFileSize', '2097152');
      expect(size.status).to.equal(200);
      expect(size.body.message).to.equal('Configuração atualizada com sucesso!');
      expect(size.body.config).to.include({ key: 'upload.maxFileSize', value: 2097152, source: 'database' });
      expect(size.body.config.updatedAt).to.be.a('string');
      expect(await server.ctx.settings.get('upload.maxFileSize')).to.equal(2097152);
      const zero = await put('conversions.concurrentPerUser', 0);
      expect(zero.body.config.value).to.equal(0);
      const level = await put('logging.level', 'DEBUG');
      expect(level.body.config.value).to.equal('debug');
      expect(server.ctx.logger.level).to.equal('debug');
      await put('logging.level', 'silent').catch(() => undefined);
      server.ctx.logger.level = 'silent';
      const secret = await put('payments.mercadopago.webhookSecret', 'segredo-do-webhook-9876');
      expect(secret.body.config.value).to.equal('••••••••9876');
      await put('upload.maxFileSize', 104857600);
    });

    it('config_lowerUploadLimit_refusesLargerFile', async () => {
      await put('upload.maxFileSize', 1048576);
      try {
        const user = await buildCreditUser(server, 3);
        const form = new FormData();
        const bytes = new Uint8Array(1048576 + 4096);
        bytes.set([0x50, 0x4b, 0x03, 0x04]); // a zip's first bytes: only the size is wrong
        form.append('apk', new Blob([bytes]), 'grande.apk');
        const res = await client().request<Err>('POST', '/conversion/convert', undefined, { token: tokenFor(server, user), raw: form });
        expect(res.status, JSON.stringify(res.body)).to.equal(413);
        expect(res.body.message).to.equal('O arquivo excede o limite de 1MB');
        await user.reload();
        expect(user.credits).to.equal(3);
      } finally {
        await put('upload.maxFileSize', 104857600);
      }
    });
  });
});

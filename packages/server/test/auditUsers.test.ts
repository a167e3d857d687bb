/**
 * The audit trail of what admins do to accounts, through real HTTP: each action of Gerenciar
 * Usuários writes its event — who, from where, on whom, and exactly the fields that changed —
 * in the same transaction as the change (a refused change writes nothing), never a password.
 */
import { expect } from 'chai';
import type { AuditEventDetail } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor, uniqueEmail } from './helpers/factories.js';
import { buildPlan } from './helpers/adminFactories.js';
import { auditEvent, auditEvents } from './helpers/audit.js';
import type { User } from '../src/models/index.js';

const AGENT = 'teste-auditoria/1.0';
const SECRET_PASSWORD = 'senha-secreta-que-nunca-aparece-42';

describe('audit trail: admin actions on accounts', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const call = (method: string, path: string, body?: unknown) => api(server).request(method, path, body, { token: adminToken, headers: { 'user-agent': AGENT } });

  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  after(async () => {
    await server?.stop();
  });

  function expectActor(event: AuditEventDetail): void {
    expect(event.actor).to.deep.equal({ id: admin.id, email: admin.email, role: 'admin' });
    expect(event.via).to.equal('session');
    expect(event.address).to.match(/127\.0\.0\.1$/);
    expect(event.userAgent).to.equal(AGENT);
    expect(JSON.stringify(event)).to.not.contain(SECRET_PASSWORD);
  }

  interface Case {
    name: string;
    action: Parameters<typeof auditEvent>[2];
    subject: () => Promise<User>;
    request: (u: User) => [string, string, unknown?];
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    details?: Record<string, unknown>;
  }

  const cases: Case[] = [
    {
      name: 'credits added',
      action: 'user.credits_changed',
      subject: () => buildCreditUser(server, 10),
      request: (u) => ['PATCH', `/admin/users/${u.id}/credits`, { credits: 5, operation: 'add' }],
      before: { credits: 10 },
      after: { credits: 15 },
      details: { operation: 'add', amount: 5 },
    },
    {
      name: 'type changed',
      action: 'user.type_changed',
      subject: () => buildCreditUser(server, 3),
      request: (u) => ['PATCH', `/admin/users/${u.id}/type`, { userType: 'subscription' }],
      before: { userType: 'credit' },
      after: { userType: 'subscription' },
    },
    {
      name: 'deactivated',
      action: 'user.status_changed',
      subject: () => buildUser(server),
      request: (u) => ['PATCH', `/admin/users/${u.id}/toggle-status`],
      before: { isActive: true },
      after: { isActive: false },
    },
    {
      name: 'promoted',
      action: 'user.role_changed',
      subject: () => buildUser(server),
      request: (u) => ['PATCH', `/admin/users/${u.id}/promote`],
      before: { role: 'user' },
      after: { role: 'admin' },
    },
    {
      name: 'demoted',
      action: 'user.role_changed',
      subject: () => buildAdmin(server),
      request: (u) => ['PATCH', `/admin/users/${u.id}/demote`],
      before: { role: 'admin' },
      after: { role: 'user' },
    },
    {
      name: 'password set by the admin',
      action: 'user.password_changed',
      subject: () => buildUser(server),
      request: (u) => ['PATCH', `/admin/users/${u.id}/change-password`, { newPassword: SECRET_PASSWORD }],
      before: null,
      after: null,
      details: { sessionsEnded: true },
    },
    {
      name: 'name and password edited',
      action: 'user.updated',
      subject: () => buildUser(server, { name: 'Nome Antigo' }),
      request: (u) => ['PATCH', `/admin/users/${u.id}/update`, { name: 'Nome Novo', password: SECRET_PASSWORD }],
      before: { name: 'Nome Antigo' },
      after: { name: 'Nome Novo' },
      details: { passwordChanged: true },
    },
  ];

  for (const c of cases) {
    it(`usersArea_${c.name.replace(/ /g, '_')}_recordsItsEventWithTheFieldsThatChanged`, async () => {
      const subject = await c.subject();
      const [method, path, body] = c.request(subject);
      const res = await call(method, path, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const event = await auditEvent(server, adminToken, c.action, subject.id);
      expectActor(event);
      expect(event.target).to.deep.equal({ type: 'user', id: subject.id, label: subject.email });
      expect(event.accountId).to.equal(subject.id);
      expect(event.before).to.deep.equal(c.before);
      expect(event.after).to.deep.equal(c.after);
      expect(event.details).to.deep.equal(c.details ?? null);
    });
  }

  it('usersArea_createUserAndCreateAdmin_recordTheNewAccountWithoutItsPassword', async () => {
    const email = uniqueEmail('criado');
    const res = await call('POST', '/admin/users/create-user', { email, password: SECRET_PASSWORD, userType: 'credit', credits: 7 });
    expect(res.status).to.equal(201);
    const event = await auditEvent(server, adminToken, 'user.created', email);
    expectActor(event);
    expect(event.before).to.equal(null);
    expect(event.after).to.include({ email, role: 'user', isActive: true, userType: 'credit', credits: 7 });

    const adminEmail = uniqueEmail('admin-criado');
    expect((await call('POST', '/admin/users/create-admin', { email: adminEmail, password: SECRET_PASSWORD })).status).to.equal(201);
    const created = await auditEvent(server, adminToken, 'user.created', adminEmail);
    expectActor(created);
    expect(created.after).to.include({ email: adminEmail, role: 'admin' });
  });

  it('usersArea_subscriptionGranted_recordsPlanAndExpiryBeforeAndAfter', async () => {
    const plan = await buildPlan(server, { type: 'subscription', durationMonths: 3, name: 'Assinatura Trimestral' });
    const subject = await buildCreditUser(server, 2);
    const res = await call('PATCH', `/admin/users/${subject.id}/subscription`, { planId: plan.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const event = await auditEvent(server, adminToken, 'user.subscription_changed', subject.id);
    expectActor(event);
    expect(event.before).to.include({ userType: 'credit', subscriptionPlanId: null, subscriptionExpiresAt: null });
    expect(event.after).to.include({ userType: 'subscription', subscriptionPlanId: plan.id });
    expect(Date.parse(String(event.after!.subscriptionExpiresAt))).to.be.greaterThan(Date.now() + 80 * 86_400_000);
    expect(event.details).to.deep.equal({ planName: 'Assinatura Trimestral' });
  });

  it('usersArea_userDeleted_recordsWhatTheAccountWasAndWhatWentWithIt', async () => {
    const subject = await buildCreditUser(server, 4);
    const made = await api(server).post('/auth/tokens', { name: 'ci' }, tokenFor(server, subject));
    expect(made.status).to.equal(201);
    const res = await call('DELETE', `/admin/users/${subject.id}`);
    expect(res.status).to.equal(200);
    const event = await auditEvent(server, adminToken, 'user.deleted', subject.id);
    expectActor(event);
    expect(event.before).to.include({ email: subject.email, credits: 4, isActive: true });
    expect(event.after).to.equal(null);
    expect(event.details).to.deep.equal({ apiTokensRemoved: 1, downloadLinksRemoved: 0, uploadKeyRemoved: false, playKeyRemoved: false, runningConversionsCancelled: 0 });
    expect(JSON.stringify(event)).to.not.contain(String(made.body.token));
  });

  it('usersArea_refusedChange_writesNoEvent', async () => {
    const subject = await buildCreditUser(server, 1);
    const res = await call('PATCH', `/admin/users/${subject.id}/credits`, { credits: 5, operation: 'subtract' });
    expect(res.status).to.equal(400);
    expect(await auditEvents(server, adminToken, 'user.credits_changed', subject.id)).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import { UniqueConstraintError } from 'sequelize';
import { conversionMonthKey } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildUser } from './helpers/factories.js';
import { presentUser } from '../src/accounts/userPresenter.js';
import { DEMO_ADMIN, DEMO_USER, seedDemo } from '../src/accounts/seedDemo.js';
import { verifyPassword } from '../src/accounts/password.js';

describe('User model', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('email_mixedCase_storedLowercase', async () => {
    const user = await buildUser(server, { email: 'MiXeD@Example.COM' });
    expect(user.email).to.equal('mixed@example.com');
  });

  it('email_sameAddressTwice_uniqueViolation', async () => {
    await buildUser(server, { email: 'twice@example.com' });
    let error: unknown;
    try {
      await buildUser(server, { email: 'Twice@example.com' });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(UniqueConstraintError);
  });

  it('email_ofSoftDeletedUser_canBeUsedAgainAndOldRowKept', async () => {
    const old = await buildUser(server, { email: 'reuse@example.com' });
    await old.destroy();
    const fresh = await buildUser(server, { email: 'reuse@example.com' });
    expect(fresh.id).to.not.equal(old.id);
    const kept = await server.ctx.models.User.findByPk(old.id, { paranoid: false });
    expect(kept!.deletedAt).to.be.instanceOf(Date);
  });

  it('tokenVersion_passwordChangeOrDeactivation_raised_otherChanges_not', async () => {
    const user = await buildUser(server);
    expect(user.tokenVersion).to.equal(0);
    await user.update({ name: 'Outro', credits: 3, lastLogin: new Date() });
    expect(user.tokenVersion).to.equal(0);
    await user.update({ passwordHash: 'scrypt$other' });
    expect(user.tokenVersion).to.equal(1);
    await user.update({ isActive: false });
    expect(user.tokenVersion).to.equal(2);
    await user.update({ isActive: true });
    expect(user.tokenVersion).to.equal(2);
  });

  it('presentUser_monthlyCountOfAnotherMonth_readsZero', async () => {
    const user = await buildUser(server, { monthlyConversions: 4, monthlyConversionsMonth: conversionMonthKey() });
    expect(presentUser(user).monthlyConversions).to.equal(4);
    await user.update({ monthlyConversionsMonth: '2000-01' });
    expect(presentUser(user).monthlyConversions).to.equal(0);
  });

  it('presentUser_subscriber_currentPlanAndUsageSummary', async () => {
    const expiresAt = new Date(Date.now() - 1000);
    const user = await buildUser(server, {
      userType: 'subscription',
      currentPlanId: '11111111-1111-4111-8111-111111111111',
      subscriptionPlanId: '11111111-1111-4111-8111-111111111111',
      subscriptionExpiresAt: expiresAt,
    });
    const json = presentUser(user);
    expect(json.currentPlan).to.deep.equal({
      planId: '11111111-1111-4111-8111-111111111111',
      purchaseId: null,
      type: 'subscription',
      credits: 0,
      subscriptionDetails: { expiresAt: expiresAt.toISOString() },
      activatedAt: null,
    });
    expect(json.usageSummary).to.include({ hasActivePlan: false, isExpired: true, planAccess: 'expired', expiresAt: expiresAt.toISOString() });
  });

  it('seedDemo_twice_createsAdminAndUserOnce', async () => {
    const first = await seedDemo(server.ctx);
    expect(first.map((r) => r.created)).to.deep.equal([true, true]);
    const second = await seedDemo(server.ctx);
    expect(second.map((r) => r.created)).to.deep.equal([false, false]);
    const admin = await server.ctx.models.User.findOne({ where: { email: DEMO_ADMIN.email } });
    const user = await server.ctx.models.User.findOne({ where: { email: DEMO_USER.email } });
    expect(admin!.role).to.equal('admin');
    expect(await verifyPassword(DEMO_ADMIN.password, admin!.passwordHash)).to.equal(true);
    expect(user!.planAccess()).to.equal('active');
    expect(user!.credits).to.equal(10);
  });
});

import { expect } from 'chai';
import type { PlanSnapshot, PurchaseStatus } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { addMonths, applyPlan, revokePlan } from '../src/plans/planApplier.js';
import { PURCHASE_TRANSITIONS, canTransition } from '../src/payments/purchaseTransition.js';
import type { User } from '../src/models/index.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const DAY = 86400000;
const creditSnap: PlanSnapshot = { name: 'Pacote 10', type: 'credit', credits: 10, duration: null, priceCents: 1990, currency: 'BRL' };
const monthSnap: PlanSnapshot = { name: 'Mensal', type: 'subscription', credits: null, duration: 1, priceCents: 4990, currency: 'BRL' };
const quarterSnap: PlanSnapshot = { ...monthSnap, name: 'Trimestral', duration: 3 };

describe('planApplier', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());

  const user = (fields: Partial<User> = {}): User =>
    server.ctx.models.User.build({ email: 'x@example.com', passwordHash: 'x', credits: 0, userType: null, subscriptionExpiresAt: null, ...fields });
  const purchase = (planSnapshot: PlanSnapshot) => ({ id: 'purchase-1', planId: 'plan-1', planSnapshot });

  it('addMonths_endOfMonth_clampedToLastDay', () => {
    expect(addMonths(new Date('2027-01-31T10:00:00Z'), 1).toISOString()).to.equal('2027-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).to.equal('2028-02-29T10:00:00.000Z');
    expect(addMonths(new Date('2026-11-15T10:00:00Z'), 3).toISOString()).to.equal('2027-02-15T10:00:00.000Z');
    expect(addMonths(new Date('2026-03-31T10:00:00Z'), 12).toISOString()).to.equal('2027-03-31T10:00:00.000Z');
  });

  it('applyPlan_creditPlan_addsCreditsAndBecomesCurrent', () => {
    const u = user({ credits: 3, userType: 'credit' });
    const grant = applyPlan(u, purchase(creditSnap), NOW);
    expect([u.credits, u.userType, u.currentPlanId, u.currentPurchaseId, u.planActivatedAt]).to.deep.equal([13, 'credit', 'plan-1', 'purchase-1', NOW]);
    expect(grant).to.deep.equal({ type: 'credit', creditsAdded: 10, previousUserType: 'credit', previousExpiresAt: null, newExpiresAt: null });
  });

  it('applyPlan_firstSubscription_expiresNowPlusMonths', () => {
    const u = user();
    const grant = applyPlan(u, purchase(quarterSnap), NOW);
    expect(u.subscriptionExpiresAt!.toISOString()).to.equal('2026-06-10T12:00:00.000Z');
    expect([u.userType, u.subscriptionPlanId, u.subscriptionStartsAt]).to.deep.equal(['subscription', 'plan-1', NOW]);
    expect(grant.newExpiresAt).to.equal('2026-06-10T12:00:00.000Z');
  });

  it('applyPlan_subscriptionStillRunning_extendsFromCurrentExpiry', () => {
    const started = new Date(NOW.getTime() - 10 * DAY);
    const u = user({ userType: 'subscription', subscriptionExpiresAt: new Date('2026-04-01T00:00:00Z'), subscriptionStartsAt: started });
    applyPlan(u, purchase(monthSnap), NOW);
    expect(u.subscriptionExpiresAt!.toISOString()).to.equal('2026-05-01T00:00:00.000Z');
    expect(u.subscriptionStartsAt).to.equal(started);
  });

  it('applyPlan_subscriptionExpired_extendsFromNow', () => {
    const u = user({ userType: 'subscription', subscriptionExpiresAt: new Date('2026-01-01T00:00:00Z') });
    applyPlan(u, purchase(monthSnap), NOW);
    expect(u.subscriptionExpiresAt!.toISOString()).to.equal('2026-04-10T12:00:00.000Z');
    expect(u.subscriptionStartsAt).to.equal(NOW);
  });

  it('applyPlan_switchCreditToSubscription_creditsKept', () => {
    const u = user({ userType: 'credit', credits: 6 });
    applyPlan(u, purchase(monthSnap), NOW);
    expect([u.userType, u.credits]).to.deep.equal(['subscription', 6]);
  });

  it('applyPlan_switchSubscriptionToCredit_creditsAddedSubscriptionRecordKept', () => {
    const expiry = new Date('2026-04-01T00:00:00Z');
    const u = user({ userType: 'subscription', credits: 2, subscriptionExpiresAt: expiry });
    applyPlan(u, purchase(creditSnap), NOW);
    expect([u.userType, u.credits, u.subscriptionExpiresAt]).to.deep.equal(['credit', 12, expiry]);
    expect(u.planAccess(NOW)).to.equal('active');
  });

  it('revokePlan_creditsPartlySpent_takesBackOnlyTheFreeBalance', () => {
    const u = user({ credits: 4 });
    const grant = revokePlan(u, { type: 'credit', creditsAdded: 10, previousUserType: null, previousExpiresAt: null, newExpiresAt: null }, NOW, NOW);
    expect(u.credits).to.equal(0);
    expect(grant.creditsTakenBack).to.equal(4);
    const rich = user({ credits: 25 });
    revokePlan(rich, { type: 'credit', creditsAdded: 10, previousUserType: null, previousExpiresAt: null, newExpiresAt: null }, NOW, NOW);
    expect(rich.credits).to.equal(15);
  });

  it('revokePlan_onlySubscription_endsNow', () => {
    const u = user();
    const grant = applyPlan(u, purchase(monthSnap), NOW);
    const later = new Date(NOW.getTime() + 5 * DAY);
    revokePlan(u, grant, NOW, later);
    expect(u.subscriptionExpiresAt).to.deep.equal(later);
    expect(u.planAccess(later)).to.equal('expired');
  });

  it('revokePlan_renewalOnTopOfRunningTime_backToThePreviousExpiry', () => {
    const previous = new Date('2026-04-01T00:00:00Z');
    const u = user({ userType: 'subscription', subscriptionExpiresAt: previous, subscriptionPlanId: 'p' });
    const grant = applyPlan(u, purchase(monthSnap), NOW);
    revokePlan(u, grant, NOW, NOW);
    expect(u.subscriptionExpiresAt!.toISOString()).to.equal(previous.toISOString());
  });

  it('revokePlan_laterPurchaseExtendedToo_onlyThisPurchasesMonthsRemoved', () => {
    const u = user();
    const first = applyPlan(u, purchase(monthSnap), NOW); // → 10 Apr
    applyPlan(u, { ...purchase(quarterSnap), id: 'purchase-2' }, NOW); // → 10 Jul
    revokePlan(u, first, NOW, NOW);
    const kept = new Date('2026-07-10T12:00:00Z').getTime() - (new Date('2026-04-10T12:00:00Z').getTime() - NOW.getTime());
    expect(u.subscriptionExpiresAt!.getTime()).to.equal(kept);
  });

  it('transitions_table_onlyDocumentedMoves', () => {
    const all: PurchaseStatus[] = ['pending', 'approved', 'rejected', 'cancelled', 'refunded'];
    const allowed = all.flatMap((from) => all.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`));
    expect(allowed).to.deep.equal(['pending→approved', 'pending→rejected', 'pending→cancelled', 'approved→refunded', 'rejected→approved', 'cancelled→approved']);
    expect(PURCHASE_TRANSITIONS.pending).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import { getPlanAccess, hasPlanAccess, planAccessInputFromUser, type PlanAccessInput } from '../src/index.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const base: PlanAccessInput = { role: 'user', userType: null, credits: 0, subscriptionPlanId: null, subscriptionExpiresAt: null };
const plan = '7f1c0c2e-4b9a-4a53-9a57-0d6e3a1c2b11';

describe('getPlanAccess', () => {
  it('getPlanAccess_creditAboveZero_active', () => {
    expect(getPlanAccess({ ...base, userType: 'credit', credits: 1 }, NOW)).to.equal('active');
  });

  it('getPlanAccess_creditZero_noCredits', () => {
    expect(getPlanAccess({ ...base, userType: 'credit', credits: 0 }, NOW)).to.equal('no_credits');
  });

  it('getPlanAccess_creditNegative_noCredits', () => {
    expect(getPlanAccess({ ...base, userType: 'credit', credits: -2 }, NOW)).to.equal('no_credits');
  });

  it('getPlanAccess_subscriptionInFuture_active', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: '2025-06-15T12:00:01Z' }, NOW)).to.equal('active');
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: new Date('2026-01-01') }, NOW)).to.equal('active');
  });

  it('getPlanAccess_subscriptionInPast_expired', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: '2025-06-14T00:00:00Z' }, NOW)).to.equal('expired');
  });

  it('getPlanAccess_subscriptionExpiringExactlyNow_expired', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: NOW }, NOW)).to.equal('expired');
  });

  it('getPlanAccess_subscriptionWithoutPlanId_noPlan', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionExpiresAt: '2026-01-01T00:00:00Z' }, NOW)).to.equal('no_plan');
  });

  it('getPlanAccess_subscriptionWithoutOrWithBadExpiry_noPlan', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan }, NOW)).to.equal('no_plan');
    expect(getPlanAccess({ ...base, userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: 'amanhã' }, NOW)).to.equal('no_plan');
  });

  it('getPlanAccess_noPlanType_noPlanEvenWithCredits', () => {
    expect(getPlanAccess(base, NOW)).to.equal('no_plan');
    expect(getPlanAccess({ ...base, credits: 5 }, NOW)).to.equal('no_plan');
  });

  it('getPlanAccess_admin_alwaysActive', () => {
    expect(getPlanAccess({ ...base, role: 'admin' }, NOW)).to.equal('active');
    expect(getPlanAccess({ ...base, role: 'admin', userType: 'credit', credits: 0 }, NOW)).to.equal('active');
    expect(getPlanAccess({ ...base, role: 'admin', userType: 'subscription', subscriptionPlanId: plan, subscriptionExpiresAt: '2020-01-01' }, NOW)).to.equal('active');
  });

  it('getPlanAccess_subscriberWithLeftoverCredits_followsSubscription', () => {
    expect(getPlanAccess({ ...base, userType: 'subscription', credits: 4, subscriptionPlanId: plan, subscriptionExpiresAt: '2020-01-01' }, NOW)).to.equal('expired');
  });

  it('hasPlanAccess_onlyActive_true', () => {
    expect(['loading', 'no_plan', 'no_credits', 'expired', 'active'].map((s) => hasPlanAccess(s as 'active'))).to.deep.equal([false, false, false, false, true]);
  });

  it('planAccessInputFromUser_userJson_sameAnswerAsServerFields', () => {
    const input = planAccessInputFromUser({
      role: 'user',
      userType: 'subscription',
      credits: { available: 2, reserved: 0 },
      subscription: { plan, startsAt: null, expiresAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(input).to.deep.equal({ role: 'user', userType: 'subscription', credits: 2, subscriptionPlanId: plan, subscriptionExpiresAt: '2026-01-01T00:00:00.000Z' });
    expect(getPlanAccess(input, NOW)).to.equal('active');
  });
});

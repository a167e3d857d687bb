import { expect } from 'chai';
import type { ApiUser } from '@aabify/shared';
import { hasChanges, userChanges, userFormOf } from '../src/admin/userForm';
import { planBody, planFormValues } from '../src/admin/plans/PlanFormModal';

const user = {
  id: 'u1',
  email: 'ana@example.com',
  userType: 'credit',
  credits: { available: 4, reserved: 0 },
  subscription: { plan: null, startsAt: null, expiresAt: null },
} as unknown as ApiUser;

describe('admin forms', () => {
  it('userChanges_nothingEdited_isEmptySoNoChangeIsReported', () => {
    expect(hasChanges(userChanges(user, userFormOf(user)))).to.equal(false);
  });

  it('userChanges_creditsAsNumberAndBlankPassword_sendsOnlyCredits', () => {
    const changes = userChanges(user, { ...userFormOf(user), credits: 42, password: '' });
    expect(changes).to.deep.equal({ planData: { credits: 42 } });
  });

  it('userChanges_emailCaseOnly_isNoChange', () => {
    expect(userChanges(user, { ...userFormOf(user), email: ' ANA@example.com ' })).to.deep.equal({});
  });

  it('planBody_creditPlan_dropsBlankFeaturesAndDuration', () => {
    const body = planBody({ ...planFormValues(null), name: ' Pro ', price: 29.9, credits: '15', features: 'A\n\n  \nB ' });
    expect(body).to.deep.include({ name: 'Pro', price: 29.9, credits: 15, features: ['A', 'B'], currency: 'BRL', isActive: true });
    expect(body).to.not.have.property('subscriptionDetails');
  });

  it('planBody_subscription_sendsDurationOnlyAboveZero', () => {
    const v = { ...planFormValues(null), name: 'Mensal', type: 'subscription' as const, price: '9.9' };
    expect(planBody({ ...v, duration: 3 }).subscriptionDetails).to.deep.equal({ duration: 3 });
    expect(planBody({ ...v, duration: '' })).to.not.have.property('subscriptionDetails');
    expect(planBody({ ...v, duration: 3 })).to.not.have.property('credits');
  });
});

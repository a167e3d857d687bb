import { expect } from 'chai';
import { ValidationError } from 'yup';
import { ACCOUNT_MESSAGES, type ApiUser } from '@aabify/shared';
import { hasChanges, userChanges, userCreateSchema, userFormOf } from '../src/admin/userForm';
import { planBody, planFormValues } from '../src/admin/plans/PlanFormModal';

const user = {
  id: 'u1',
  email: 'ana@example.com',
  userType: 'credit',
  credits: { available: 4, reserved: 0 },
  subscription: { plan: null, startsAt: null, expiresAt: null },
} as unknown as ApiUser;

describe('admin forms', () => {
  it('userCreateSchema_emailAndPasswordBlank_eachFieldSaysWhatItLacks', async () => {
    const errors: Record<string, string> = {};
    try {
      await userCreateSchema.validate({ email: '', password: '', credits: '' }, { abortEarly: false });
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      for (const inner of e.inner) errors[inner.path ?? ''] ??= inner.errors[0] ?? '';
    }
    expect(errors).to.deep.equal({ email: ACCOUNT_MESSAGES.emailRequired, password: ACCOUNT_MESSAGES.passwordRequired });
  });

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
    const body = planBody({ ...planFormValues(null), name: ' Pro ', priceCents: 2990, credits: '15', features: 'A\n\n  \nB ' });
    expect(body).to.deep.include({ name: 'Pro', price: 29.9, credits: 15, features: ['A', 'B'], currency: 'BRL', isActive: true });
    expect(body).to.not.have.property('subscriptionDetails');
    // A new plan without an order goes last (the server decides).
    expect(body).to.not.have.property('displayOrder');
  });

  it('planBody_subscription_sendsDurationOnlyAboveZero', () => {
    const v = { ...planFormValues(null), name: 'Mensal', type: 'subscription' as const, priceCents: 990 };
    expect(planBody({ ...v, duration: 3 }).subscriptionDetails).to.deep.equal({ duration: 3 });
    expect(planBody({ ...v, duration: '' })).to.not.have.property('subscriptionDetails');
    expect(planBody({ ...v, duration: 3 })).to.not.have.property('credits');
  });
});

describe('plan price preview', () => {
  it('pricePreview_creditAndSubscription_whatCustomersPay', async () => {
    const { pricePreview } = await import('../src/admin/plans/PlanFormModal');
    expect(pricePreview({ priceCents: 1990, type: 'credit', credits: '10', duration: '1', currency: 'BRL' })).to.equal('Os clientes pagarão R$ 19,90 (R$ 1,99 por conversão)');
    expect(pricePreview({ priceCents: 11880, type: 'subscription', credits: '0', duration: '12', currency: 'BRL' })).to.equal('Os clientes pagarão R$ 118,80 (R$ 9,90 por mês)');
    expect(pricePreview({ priceCents: 4990, type: 'subscription', credits: '0', duration: '1', currency: 'BRL' })).to.equal('Os clientes pagarão R$ 49,90');
  });
});

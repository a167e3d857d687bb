import { expect } from 'chai';
import type { ApiUser } from '@aabify/shared';
import { creditDisplay, daysLeft, planAccessOf, planDisplay, planTileLabel, subscriptionDisplay } from '../src/lib/planStatus';

const NOW = new Date('2025-06-01T12:00:00.000Z');
const inDays = (d: number) => new Date(NOW.getTime() + d * 86400000).toISOString();

type PlanUser = Pick<ApiUser, 'role' | 'userType' | 'credits' | 'subscription'>;
const user = (over: Partial<PlanUser>): PlanUser => ({
  role: 'user',
  userType: null,
  credits: { available: 0, reserved: 0 },
  subscription: { plan: null, startsAt: null, expiresAt: null },
  ...over,
});

describe('plan status display', () => {
  it('creditDisplay_thresholds_warningsAndTones', () => {
    expect(creditDisplay(10)).to.deep.equal({ kind: 'credit', credits: 10, tone: 'success' });
    expect(creditDisplay(6).warning).to.equal(undefined);
    expect(creditDisplay(5)).to.include({ tone: 'warning', warning: 'Poucos créditos' });
    expect(creditDisplay(3)).to.include({ warning: 'Poucos créditos' });
    expect(creditDisplay(2)).to.include({ tone: 'danger', warning: 'Créditos críticos' });
    expect(creditDisplay(0)).to.include({ warning: 'Créditos críticos' });
  });

  it('subscriptionDisplay_daysLeft_coloursAndTexts', () => {
    expect(subscriptionDisplay(inDays(45), NOW)).to.include({ tone: 'info', badge: '45 dias restantes', daysLeft: 45 });
    expect(subscriptionDisplay(inDays(31), NOW)).to.include({ tone: 'info' });
    expect(subscriptionDisplay(inDays(30), NOW)).to.include({ tone: 'warning', badge: '30 dias restantes' });
    expect(subscriptionDisplay(inDays(8), NOW)).to.include({ tone: 'warning' });
    expect(subscriptionDisplay(inDays(7), NOW)).to.include({ tone: 'danger', warning: 'Renovar em breve' });
    expect(subscriptionDisplay(inDays(1), NOW)).to.include({ badge: '1 dia restante', warning: 'Renovar em breve' });
    expect(subscriptionDisplay(inDays(0), NOW)).to.include({ tone: 'danger', badge: 'Expirado' });
    expect(subscriptionDisplay(inDays(-3), NOW)).to.include({ badge: 'Expirado' });
    expect(subscriptionDisplay(null, NOW)).to.include({ badge: 'Expirado' });
  });

  it('daysLeft_partialDay_roundsUp', () => {
    expect(daysLeft(new Date(NOW.getTime() + 3600000), NOW)).to.equal(1);
  });

  it('planDisplay_byUserType_creditSubscriptionOrNone', () => {
    expect(planDisplay(user({ userType: 'credit', credits: { available: 4, reserved: 1 } }), NOW).kind).to.equal('credit');
    expect(planDisplay(user({ userType: 'subscription', subscription: { plan: 'p', startsAt: null, expiresAt: inDays(3) } }), NOW).kind).to.equal('subscription');
    expect(planDisplay(user({}), NOW).kind).to.equal('none');
  });

  it('planAccessOf_sharedRule_activeInactiveNone', () => {
    expect(planAccessOf(user({ userType: 'credit', credits: { available: 1, reserved: 0 } }), NOW)).to.equal('active');
    expect(planAccessOf(user({ userType: 'credit' }), NOW)).to.equal('no_credits');
    expect(planAccessOf(user({ userType: 'subscription', subscription: { plan: 'p', startsAt: null, expiresAt: inDays(1) } }), NOW)).to.equal('active');
    expect(planAccessOf(user({ userType: 'subscription', subscription: { plan: 'p', startsAt: null, expiresAt: inDays(-1) } }), NOW)).to.equal('expired');
    expect(planAccessOf(user({}), NOW)).to.equal('no_plan');
    expect(planAccessOf(user({ role: 'admin' }), NOW)).to.equal('active');
    expect(planTileLabel('active')).to.equal('Plano Ativo');
    expect(planTileLabel('no_credits')).to.equal('Sem Plano');
  });
});

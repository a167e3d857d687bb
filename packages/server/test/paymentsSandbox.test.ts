import { expect } from 'chai';
import { PAYMENT_MESSAGES as M, type ApiPixPayment, type ApiPurchase, type CreatePixResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { settleCredit } from '../src/conversions/credits.js';
import { expirePendingPayments } from '../src/payments/paymentExpirer.js';
import type { Conversion, Plan, User } from '../src/models/index.js';

// ---- an independent BR Code decoder: TLV walk and a table-driven CRC-16/CCITT-FALSE ----
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = (c & 0x8000 ? (c << 1) ^ 0x1021 : c << 1) & 0xffff;
  return c;
});
function crc(text: string): string {
  let value = 0xffff;
  for (const byte of Buffer.from(text, 'latin1')) value = ((value << 8) ^ CRC_TABLE[((value >> 8) ^ byte) & 0xff]) & 0xffff;
  return value.toString(16).toUpperCase().padStart(4, '0');
}
function tlvWalk(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const id = text.substr(i, 2);
    const len = parseInt(text.substr(i + 2, 2), 10);
    if (!/^\d\d$/.test(id) || Number.isNaN(len) || i + 4 + len > text.length) throw new Error(`bad TLV at ${i}`);
    out.set(id, text.substr(i + 4, len));
    i += 4 + len;
  }
  return out;
}
function decodeBrCode(code: string) {
  const fields = tlvWalk(code);
  const ids = [...fields.keys()];
  expect(ids[0]).to.equal('00');
  expect(ids[ids.length - 1]).to.equal('63');
  expect(crc(code.slice(0, -4))).to.equal(fields.get('63'));
  return { fields, merchantAccount: tlvWalk(fields.get('26')!), additional: tlvWalk(fields.get('62')!) };
}

describe('payments: sandbox provider', () => {
  let server: TestServer;
  let admin: User;
  let credit: Plan;
  let monthly: Plan;
  let quarterly: Plan;

  before(async () => {
    server = await startTestServer();
    admin = await buildAdmin(server);
    credit = await buildPlan(server, { name: 'Pacote 10', priceCents: 1990, credits: 10 });
    monthly = await buildPlan(server, { name: 'Mensal Ilimitado', type: 'subscription', priceCents: 4990, durationMonths: 1 });
    quarterly = await buildPlan(server, { name: 'Trimestral', type: 'subscription', priceCents: 12990, durationMonths: 3 });
  });
  after(async () => server?.stop());

  async function buy(user: User, plan: Plan): Promise<{ payment: ApiPixPayment; purchase: ApiPurchase }> {
    const res = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }
  const simulate = (user: User, paymentId: string) => api(server).post(`/payments/simulate-approval/${paymentId}`, undefined, tokenFor(server, user));
  const fresh = (user: User) => server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true });

  it('brCode_sandboxCharge_decodesWithRightAmountAndCrc', async () => {
    const { payment } = await buy(await buildUser(server), credit);
    const code = payment.pixCopyPaste;
    expect(code.startsWith('00020126')).to.equal(true);
    expect(code.length).to.be.at.least(50);
    const { fields, merchantAccount, additional } = decodeBrCode(code);
    expect(fields.get('00')).to.equal('01');
    expect(fields.has('01')).to.equal(false);
    expect(merchantAccount.get('00')).to.equal('br.gov.bcb.pix');
    expect(merchantAccount.get('01')).to.match(/^[0-9a-f-]{36}$/);
    expect(fields.get('52')).to.equal('0000');
    expect(fields.get('53')).to.equal('986');
    expect(fields.get('54')).to.equal('19.90');
    expect(fields.get('58')).to.equal('BR');
    expect(fields.get('59')).to.equal('AABIFY SANDBOX');
    expect(fields.get('60')).to.equal('SAO PAULO');
    expect(additional.get('05')).to.match(/^[A-Za-z0-9]{1,25}$/);
  });

  it('brCode_variousPrices_amountFieldIsThePrice', async () => {
    for (const [cents, text] of [[5, '0.05'], [123456, '1234.56'], [100000, '1000.00']] as const) {
      const plan = await buildPlan(server, { priceCents: cents });
      const { payment } = await buy(await buildUser(server), plan);
      expect(decodeBrCode(payment.pixCopyPaste).fields.get('54')).to.equal(text);
      expect(payment.amountCents).to.equal(cents);
    }
  });

  it('brCode_twoCharges_differentTxids', async () => {
    const a = await buy(await buildUser(server), credit);
    const b = await buy(await buildUser(server), credit);
    expect(decodeBrCode(a.payment.pixCopyPaste).additional.get('05')).to.not.equal(decodeBrCode(b.payment.pixCopyPaste).additional.get('05'));
  });

  it('qrImage_sandboxCharge_isBase64PngAndExpiresIn30Minutes', async () => {
    const { payment } = await buy(await buildUser(server), credit);
    const png = Buffer.from(payment.qrCodeBase64, 'base64');
    expect(png.subarray(0, 8).toString('hex')).to.equal('89504e470d0a1a0a');
    expect(png.length).to.be.greaterThan(200);
    const minutes = (Date.parse(payment.expiresAt ?? '') - Date.parse(payment.createdAt)) / 60000;
    expect(minutes).to.be.closeTo(30, 0.05);
  });

  it('simulateApproval_creditPlan_addsCreditsOnce', async () => {
    const user = await buildUser(server, { userType: 'credit', credits: 2 });
    const { payment, purchase } = await buy(user, credit);
    const first = await simulate(user, payment.id);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.include({ success: true, changed: true, message: M.simulatedApproval });
    const second = await simulate(user, payment.id);
    expect(second.status).to.equal(200);
    expect(second.body).to.deep.include({ changed: false });
    const after = await fresh(user);
    expect(after.credits).to.equal(12);
    expect(after.userType).to.equal('credit');
    expect(after.currentPlanId).to.equal(credit.id);
    expect(after.currentPurchaseId).to.equal(purchase.id);
    const status = await api(server).get(`/payments/pix-status/${payment.id}`, tokenFor(server, user));
    expect(status.body).to.deep.include({ success: true, message: M.approved });
    expect((status.body.payment as ApiPixPayment).status).to.equal('approved');
    const byPurchase = await api(server).get(`/payments/status/${purchase.id}`, tokenFor(server, user));
    expect(byPurchase.body).to.deep.include({ id: purchase.id, status: 'approved', amount: 19.9, paymentId: payment.id });
  });

  it('concurrentApprovals_buyerAndAdmins_applyOnce', async () => {
    const user = await buildUser(server);
    const { payment, purchase } = await buy(user, credit);
    const adminToken = tokenFor(server, admin);
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => simulate(user, payment.id)),
      ...Array.from({ length: 4 }, () => api(server).post(`/admin/payments/${payment.id}/approve`, {}, adminToken)),
    ]);
    expect(results.map((r) => r.status)).to.deep.equal(Array(10).fill(200));
    expect(results.filter((r) => r.body.changed === true)).to.have.length(1);
    expect((await fresh(user)).credits).to.equal(10);
    const rows = await server.ctx.models.PurchaseTransition.findAll({ where: { purchaseId: purchase.id } });
    expect(rows.map((r) => r.toStatus).sort()).to.deep.equal(['approved', 'pending']);
    expect((await server.ctx.models.Plan.findByPk(credit.id, { rejectOnEmpty: true })).salesCount).to.be.at.least(1);
  });

  it('transitions_secondApprovedRow_refusedByTheDatabase', async () => {
    const user = await buildUser(server);
    const { payment, purchase } = await buy(user, credit);
    await simulate(user, payment.id);
    let error: unknown;
    try {
      await server.ctx.models.PurchaseTransition.create({ purchaseId: purchase.id, fromStatus: 'pending', toStatus: 'approved', reason: 'x', actor: 'test' });
    } catch (err) {
      error = err;
    }
    expect((error as Error | undefined)?.name).to.equal('SequelizeUniqueConstraintError');
  });

  it('subscription_bought_expiresInItsMonthsAndRenewalExtendsFromExpiry', async () => {
    const user = await buildUser(server);
    const first = await buy(user, monthly);
    await simulate(user, first.payment.id);
    const afterFirst = await fresh(user);
    expect(afterFirst.userType).to.equal('subscription');
    expect(afterFirst.subscriptionPlanId).to.equal(monthly.id);
    const expiry1 = afterFirst.subscriptionExpiresAt!;
    const days1 = (expiry1.getTime() - Date.now()) / 86400000;
    expect(days1).to.be.within(27.9, 31.1);

    const second = await buy(user, quarterly);
    await simulate(user, second.payment.id);
    const expiry2 = (await fresh(user)).subscriptionExpiresAt!;
    const expected = new Date(expiry1);
    expected.setUTCMonth(expected.getUTCMonth() + 3);
    expect(Math.abs(expiry2.getTime() - expected.getTime())).to.be.lessThan(3 * 86400000);
    expect(expiry2.getTime()).to.be.greaterThan(expiry1.getTime() + 88 * 86400000);
    const current = await api(server).get('/plans/current', tokenFor(server, user));
    expect(current.body).to.deep.include({ hasActivePlan: true, planAccess: 'active' });
    expect((current.body.plan as { id: string }).id).to.equal(quarterly.id);
  });

  it('switchType_creditsKeptWhenBuyingSubscriptionAndBack', async () => {
    const user = await buildUser(server, { userType: 'credit', credits: 4 });
    const sub = await buy(user, monthly);
    await simulate(user, sub.payment.id);
    let u = await fresh(user);
    expect(u.userType).to.equal('subscription');
    expect(u.credits).to.equal(4);
    const back = await buy(user, credit);
    await simulate(user, back.payment.id);
    u = await fresh(user);
    expect(u.userType).to.equal('credit');
    expect(u.credits).to.equal(14);
    expect(u.currentPlanId).to.equal(credit.id);
  });

  it('simulateApproval_otherUser_404AndExpired_410', async () => {
    const owner = await buildUser(server);
    const { payment } = await buy(owner, credit);
    const stranger = await simulate(await buildUser(server), payment.id);
    expect(stranger.status).to.equal(404);
    expect(stranger.body).to.deep.include({ message: M.paymentNotFound });
    await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payment.id } });
    await server.ctx.models.SandboxCharge.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: (await server.ctx.models.Payment.findByPk(payment.id, { rejectOnEmpty: true })).providerPaymentId! } });
    const expired = await simulate(owner, payment.id);
    expect(expired.status).to.equal(410);
    expect(expired.body).to.deep.equal({ message: M.expired, code: 'PIX_EXPIRED' });
    expect((await fresh(owner)).credits).to.equal(0);
  });

  it('adminApprove_expiredAndCancelledCharge_lateApprovalApplied', async () => {
    const user = await buildUser(server);
    const { payment, purchase } = await buy(user, credit);
    await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payment.id } });
    await expirePendingPayments(server.ctx);
    expect((await server.ctx.models.Purchase.findByPk(purchase.id, { rejectOnEmpty: true })).status).to.equal('cancelled');
    const res = await api(server).post(`/admin/payments/${purchase.id}/approve`, {}, tokenFor(server, admin));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect((res.body.purchase as ApiPurchase).status).to.equal('approved');
    expect((await fresh(user)).credits).to.equal(10);
  });

  it('adminApprove_byNonAdmin_403', async () => {
    const user = await buildUser(server);
    const { payment } = await buy(user, credit);
    const res = await api(server).post(`/admin/payments/${payment.id}/approve`, {}, tokenFor(server, user));
    expect(res.status).to.equal(403);
  });

  it('cancel_thenSimulate_409AndNothingApplied', async () => {
    const user = await buildUser(server);
    const { payment } = await buy(user, credit);
    const cancel = await api(server).patch(`/payments/cancel/${payment.id}`, undefined, tokenFor(server, user));
    expect(cancel.status).to.equal(200);
    expect((cancel.body.payment as ApiPixPayment).status).to.equal('cancelled');
    const sim = await simulate(user, payment.id);
    expect(sim.status).to.equal(409);
    expect((await fresh(user)).credits).to.equal(0);
  });

  it('expiryJob_sandboxPending_cancelledHereAndAtTheSandbox', async () => {
    const user = await buildUser(server);
    const { payment, purchase } = await buy(user, credit);
    await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payment.id } });
    const report = await expirePendingPayments(server.ctx);
    expect(report.failed).to.equal(0);
    const p = await server.ctx.models.Payment.findByPk(payment.id, { rejectOnEmpty: true });
    expect(p.status).to.equal('cancelled');
    expect((await server.ctx.models.SandboxCharge.findByPk(p.providerPaymentId!, { rejectOnEmpty: true })).status).to.equal('cancelled');
    const detail = await api(server).get(`/payments/purchase/${purchase.id}`, tokenFor(server, user));
    const json = detail.body.purchase as ApiPurchase;
    expect(json.status).to.equal('cancelled');
    expect(json.transitions!.map((t) => [t.from, t.to, t.reason])).to.deep.equal([
      [null, 'pending', 'Compra criada (PIX)'],
      ['pending', 'cancelled', 'PIX expirado'],
    ]);
  });

  it('refund_subscription_endsItAndCreditsOfOtherPurchasesStay', async () => {
    const user = await buildUser(server, { userType: 'credit', credits: 5 });
    const { payment, purchase } = await buy(user, monthly);
    await simulate(user, payment.id);
    const res = await api(server).post(`/admin/payments/${payment.id}/refund`, {}, tokenFor(server, admin));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const u = await fresh(user);
    expect(u.subscriptionExpiresAt!.getTime()).to.be.at.most(Date.now());
    expect(u.planAccess()).to.equal('expired');
    expect(u.credits).to.equal(5);
    const after = await server.ctx.models.Purchase.findByPk(purchase.id, { rejectOnEmpty: true });
    expect(after.status).to.equal('refunded');
    expect(after.refundReason).to.equal('Reembolso feito por administrador');
    const again = await api(server).post(`/admin/payments/${payment.id}/refund`, {}, tokenFor(server, admin));
    expect(again.status).to.equal(409);
  });

  it('refund_creditsHeldByQueuedConversions_cancellingOrFailingThemGivesNothingBack', async () => {
    // Buy 10 credits, queue 4 conversions (4 reserved), get the money back, then cancel them:
    // the refund must end with none of the 10 usable.
    const user = await buildUser(server);
    const { payment } = await buy(user, credit);
    expect((await simulate(user, payment.id)).status).to.equal(200);
    const queued: Conversion[] = [];
    for (let i = 0; i < 4; i++) queued.push(await buildConversion(server, user, { status: 'queued', creditState: 'reserved' }));
    await server.ctx.models.User.update({ credits: 6, creditsReserved: 4 }, { where: { id: user.id } });

    const refund = await api(server).post(`/admin/payments/${payment.id}/refund`, {}, tokenFor(server, admin));
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    expect(await fresh(user)).to.deep.include({ credits: 0, creditsReserved: 4, creditsOwed: 4 });

    const session = tokenFor(server, user);
    for (const c of queued.slice(0, 3)) expect((await api(server).post(`/conversion/cancel/${c.id}`, undefined, session)).status).to.equal(200);
    expect(await fresh(user)).to.deep.include({ credits: 0, creditsReserved: 1, creditsOwed: 1 });
    // One completes: that credit was spent before the refund could take it, and the debt ends with it.
    await server.ctx.sequelize.transaction((transaction) => settleCredit(server.ctx.models, queued[3], 'spent', transaction));
    expect(await fresh(user)).to.deep.include({ credits: 0, creditsReserved: 0, creditsOwed: 0 });

    const history = await api(server).get<{ history: Array<{ type: string; creditsTakenBack: number }> }>('/plans/usage-history', session);
    expect(history.body.history.find((h) => h.type === 'plan_refunded')?.creditsTakenBack).to.equal(10);
  });

  it('refund_debtFromAnEarlierRefund_laterCreditsReturnNormallyOnceItIsPaid', async () => {
    const user = await buildUser(server);
    const first = await buy(user, credit);
    await simulate(user, first.payment.id);
    const held = await buildConversion(server, user, { status: 'queued', creditState: 'reserved' });
    await server.ctx.models.User.update({ credits: 9, creditsReserved: 1 }, { where: { id: user.id } });
    await api(server).post(`/admin/payments/${first.payment.id}/refund`, {}, tokenFor(server, admin));
    const second = await buy(user, credit);
    await simulate(user, second.payment.id);
    const fromSecond = await buildConversion(server, user, { status: 'queued', creditState: 'reserved' });
    await server.ctx.models.User.update({ credits: 9, creditsReserved: 2 }, { where: { id: user.id } });
    const session = tokenFor(server, user);
    await api(server).post(`/conversion/cancel/${held.id}`, undefined, session);
    expect(await fresh(user)).to.deep.include({ credits: 9, creditsReserved: 1, creditsOwed: 0 });
    await api(server).post(`/conversion/cancel/${fromSecond.id}`, undefined, session);
    expect(await fresh(user)).to.deep.include({ credits: 10, creditsReserved: 0, creditsOwed: 0 });
  });

  it('refund_creditPackBoughtBySubscriber_subscriptionStillPaidComesBack', async () => {
    const user = await buildUser(server);
    const sub = await buy(user, monthly);
    await simulate(user, sub.payment.id);
    const pack = await buy(user, credit);
    await simulate(user, pack.payment.id);
    expect((await fresh(user)).userType).to.equal('credit');
    expect((await api(server).post(`/admin/payments/${pack.payment.id}/refund`, {}, tokenFor(server, admin))).status).to.equal(200);
    const u = await fresh(user);
    expect(u.userType).to.equal('subscription');
    expect(u.planAccess()).to.equal('active');
  });

  it('purchases_list_newestFirstWithPagination', async () => {
    const user = await buildUser(server);
    const a = await buy(user, credit);
    const b = await buy(user, monthly);
    const res = await api(server).get('/payments/purchases?page=1&limit=1', tokenFor(server, user));
    expect(res.status).to.equal(200);
    expect(res.body.pagination).to.deep.equal({ total: 2, page: 1, limit: 1, pages: 2 });
    const list = res.body.purchases as ApiPurchase[];
    expect(list.map((p) => p.id)).to.deep.equal([b.purchase.id]);
    expect(list[0]).to.deep.include({ paymentId: b.payment.id, status: 'pending', statusLabel: 'Pendente', formattedAmount: 'R$ 49,90' });
    const other = await api(server).get(`/payments/purchase/${a.purchase.id}`, tokenFor(server, await buildUser(server)));
    expect(other.status).to.equal(404);
    expect(other.body).to.deep.include({ message: M.purchaseNotFound });
  });

  it('createPix_nonBrlPlan_400ErroDeValidacao', async () => {
    const usd = await buildPlan(server, { currency: 'USD' });
    const res = await api(server).post(`/payments/create-pix/${usd.id}`, undefined, tokenFor(server, await buildUser(server)));
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({ message: `Erro de validação: ${M.pixOnlyBrl}`, code: 'PAYMENT_VALIDATION' });
  });

  it('createPix_fallbackPath_sameAnswer', async () => {
    const res = await api(server).post<CreatePixResponse>(`/api/create-pix/${credit.id}`, undefined, tokenFor(server, await buildUser(server)));
    expect(res.status).to.equal(201);
    expect(res.body.payment.pixCopyPaste.startsWith('00020126')).to.equal(true);
  });

  it('polling_pendingSandbox_continuesWithRecommendedInterval', async () => {
    const user = await buildUser(server);
    const { payment } = await buy(user, credit);
    const res = await api(server).get(`/payments/pix-polling-status/${payment.id}`, tokenFor(server, user));
    expect(res.body).to.deep.equal({
      success: true,
      paymentId: payment.id,
      status: 'pending',
      isExpired: false,
      expiresAt: payment.expiresAt,
      shouldContinuePolling: true,
      recommendedInterval: 2000,
      message: M.pending,
    });
  });

  it('config_sandbox_noPublicKeyAndSimulationAllowed', async () => {
    const res = await api(server).get('/payments/config');
    expect(res.body).to.deep.include({ provider: 'sandbox', sandbox: true, publicKey: null, currency: 'BRL', pixExpirationMinutes: 30, canSimulateApproval: true });
  });

  describe('debug calls (sandbox, admins only)', () => {
    it('debug_nonAdmin_403', async () => {
      const user = await buildUser(server);
      const res = await api(server).get(`/debug/user-state/${user.id}`, tokenFor(server, user));
      expect(res.status).to.equal(403);
    });

    it('debug_testApplyPlanThenReset_userStateFollows', async () => {
      const user = await buildUser(server);
      const token = tokenFor(server, admin);
      const applied = await api(server).post('/debug/test-apply-plan', { userId: user.id, planId: credit.id }, token);
      expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
      expect((applied.body.purchase as ApiPurchase)).to.deep.include({ status: 'approved', provider: 'manual', amountCents: 0 });
      expect((await fresh(user)).credits).to.equal(10);
      const state = await api(server).get(`/debug/user-state/${user.id}`, token);
      expect((state.body.purchases as ApiPurchase[]).length).to.equal(1);
      const reset = await api(server).post(`/debug/reset-user/${user.id}`, {}, token);
      expect(reset.status).to.equal(200);
      const u = await fresh(user);
      expect([u.credits, u.userType, u.currentPlanId, u.planAccess()]).to.deep.equal([0, null, null, 'no_plan']);
    });

    it('debug_simulatePurchaseAutoApprove_planApplied', async () => {
      const user = await buildUser(server);
      const res = await api(server).post('/debug/simulate-purchase', { userId: user.id, planId: monthly.id, autoApprove: true }, tokenFor(server, admin));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((res.body.purchase as ApiPurchase).status).to.equal('approved');
      expect((await fresh(user)).planAccess()).to.equal('active');
    });

    it('debug_badBody_400WithFields', async () => {
      const res = await api(server).post('/debug/test-apply-plan', { userId: 'x' }, tokenFor(server, admin));
      expect(res.status).to.equal(400);
      expect(res.body.fields).to.deep.equal({ userId: 'userId inválido', planId: 'planId é obrigatório' });
    });
  });
});

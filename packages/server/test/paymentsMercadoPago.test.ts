import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { PAYMENT_MESSAGES as M, checkPixCode, type ApiPixPayment, type ApiPurchase, type CreatePixResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { MercadoPagoStandIn } from './helpers/mercadoPagoStandIn.js';
import { verifyMercadoPagoSignature } from '../src/payments/providers/index.js';
import { expirePendingPayments } from '../src/payments/paymentExpirer.js';
import type { Plan, User } from '../src/models/index.js';

const TOKEN = 'TEST-7719-access-token-for-tests';
const PUBLIC_KEY = 'TEST-public-key-0001';
const SECRET = 'mp-webhook-secret-for-tests';
const PUBLIC_URL = 'https://aabify.example.com';

describe('payments: Mercado Pago provider against the stand-in', () => {
  let mp: MercadoPagoStandIn;
  let server: TestServer;
  let plan: Plan;
  let admin: User;

  before(async () => {
    mp = await MercadoPagoStandIn.start({ accessToken: TOKEN, webhookSecret: SECRET });
    server = await startTestServer(
      {
        MERCADOPAGO_ACCESS_TOKEN: TOKEN,
        MERCADOPAGO_PUBLIC_KEY: PUBLIC_KEY,
        MERCADOPAGO_WEBHOOK_SECRET: SECRET,
        MERCADOPAGO_API_URL: mp.url,
        PUBLIC_URL,
      },
      { payments: { mercadoPago: { timeoutMs: 3000, retries: 1 } } },
    );
    plan = await buildPlan(server, { name: 'Pacote 10', priceCents: 1990, credits: 10 });
    admin = await buildAdmin(server);
  });
  after(async () => {
    await server?.stop();
    await mp?.close();
  });
  afterEach(() => mp.clearFailures());

  async function buy(user: User, planId = plan.id): Promise<{ payment: ApiPixPayment; purchase: ApiPurchase; mpId: number }> {
    const res = await api(server).post<CreatePixResponse>(`/payments/create-pix/${planId}`, undefined, tokenFor(server, user));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return { payment: res.body.payment, purchase: res.body.purchase, mpId: Number(res.body.payment.providerPaymentId) };
  }

  async function purchaseOf(id: string) {
    return server.ctx.models.Purchase.findByPk(id, { rejectOnEmpty: true });
  }

  async function credits(user: User) {
    return (await server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true })).credits;
  }

  async function transitions(purchaseId: string) {
    const rows = await server.ctx.models.PurchaseTransition.findAll({ where: { purchaseId }, order: [['id', 'ASC']] });
    return rows.map((t) => t.toStatus);
  }

  it('createPix_mercadopago_sendsTheDocumentedRequestAndAnswersMpCode', async () => {
    const user = await buildUser(server);
    const before = mp.requests.length;
    const { payment, purchase, mpId } = await buy(user);
    const sent = mp.requests.slice(before).filter((r) => r.method === 'POST');
    expect(sent).to.have.length(1);
    const req = sent[0];
    expect(req.path).to.equal('/v1/payments');
    expect(req.headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(req.headers['x-idempotency-key']).to.equal(`aabify-pix-${payment.id}`);
    const body = req.body as Record<string, unknown>;
    expect(body).to.deep.include({
      transaction_amount: 19.9,
      payment_method_id: 'pix',
      payer: { email: user.email },
      external_reference: purchase.id,
      notification_url: `${PUBLIC_URL}/api/payments/webhook?source_news=webhooks`,
    });
    expect(body.date_of_expiration).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}-03:00$/);

    const record = mp.payment(mpId);
    expect(payment).to.deep.include({
      provider: 'mercadopago',
      status: 'pending',
      amount: 19.9,
      amountCents: 1990,
      pixCopyPaste: record.point_of_interaction?.transaction_data.qr_code,
      qrCodeBase64: record.point_of_interaction?.transaction_data.qr_code_base64,
      ticketUrl: record.point_of_interaction?.transaction_data.ticket_url,
      isExpired: false,
    });
    expect(checkPixCode(payment.pixCopyPaste).valid).to.equal(true);
    const minutes = (Date.parse(payment.expiresAt ?? '') - Date.now()) / 60000;
    expect(minutes).to.be.within(29, 30.01);
    expect(purchase).to.deep.include({ status: 'pending', planId: plan.id, amountCents: 1990 });
    expect(purchase.planSnapshot).to.deep.equal({ name: 'Pacote 10', type: 'credit', credits: 10, duration: null, priceCents: 1990, currency: 'BRL' });
  });

  it('createPix_twiceForSamePlan_secondAnswersTheSameCharge', async () => {
    const user = await buildUser(server);
    const first = await buy(user);
    const res = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
    expect(res.status).to.equal(200);
    expect(res.body.reused).to.equal(true);
    expect(res.body.payment.id).to.equal(first.payment.id);
  });

  it('webhookApproved_signedNotification_readsBackAndAppliesPlanOnce', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    mp.approve(mpId);
    const gets = () => mp.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payments/${mpId}`).length;
    const getsBefore = gets();
    const res = await mp.notify(mpId, { to: server.url });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ received: true, processed: true, changed: true });
    expect(gets()).to.equal(getsBefore + 1);
    expect(await credits(user)).to.equal(10);
    const after = await purchaseOf(purchase.id);
    expect(after.status).to.equal('approved');
    expect(after.appliedAt).to.be.instanceOf(Date);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved']);

    // Replays (same or new request ids, created/updated actions) change nothing.
    for (const action of ['payment.updated', 'payment.created'] as const) {
      const replay = await mp.notify(mpId, { to: server.url, action });
      expect(replay.status).to.equal(200);
      expect(replay.body).to.deep.include({ changed: false });
    }
    expect(await credits(user)).to.equal(10);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved']);
    expect((await server.ctx.models.Plan.findByPk(plan.id, { rejectOnEmpty: true })).salesCount).to.be.at.least(1);

    const status = await api(server).get(`/payments/pix-polling-status/${payment.id}`, tokenFor(server, user));
    expect(status.body).to.deep.include({ status: 'approved', shouldContinuePolling: false, recommendedInterval: 0 });
  });

  it('webhook_forgedOrMissingSignature_401AndNothingRead', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    mp.approve(mpId);
    const gets = () => mp.requests.filter((r) => r.method === 'GET').length;
    const before = gets();
    const attempts = [
      { secret: 'not-the-secret' },
      { unsigned: true },
      { rawSignature: 'garbage' },
      { rawSignature: `ts=${Math.floor(Date.now() / 1000)}` },
      { rawSignature: `v1=${'0'.repeat(64)}` },
      { signedId: '999' },
    ];
    for (const attempt of attempts) {
      const res = await mp.notify(mpId, { to: server.url, ...attempt });
      expect(res.status, JSON.stringify(attempt)).to.equal(401);
      expect(res.body).to.deep.equal({ message: M.webhookSignatureInvalid, code: 'WEBHOOK_SIGNATURE_INVALID' });
    }
    expect(gets()).to.equal(before);
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
    expect(await credits(user)).to.equal(0);
  });

  it('webhook_staleOrFutureTimestamp_401', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    mp.approve(mpId);
    for (const ts of [Math.floor(Date.now() / 1000) - 600, Math.floor(Date.now() / 1000) + 600]) {
      const res = await mp.notify(mpId, { to: server.url, ts });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ message: M.webhookStale, code: 'WEBHOOK_STALE' });
    }
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
  });

  it('webhook_paymentStillPending_changesNothing', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    const res = await mp.notify(mpId, { to: server.url, action: 'payment.created' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ changed: false });
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
  });

  it('webhook_unknownPaymentOrTopic_acknowledgedAndIgnored', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const sign = (id: string) => createHmac('sha256', SECRET).update(`id:${id};request-id:r1;ts:${ts};`).digest('hex');
    const res = await fetch(`${server.url}/api/payments/webhook?data.id=424242&type=payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'r1', 'x-signature': `ts=${ts},v1=${sign('424242')}` },
      body: JSON.stringify({ type: 'payment', action: 'payment.updated', data: { id: '424242' } }),
    });
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ received: true, processed: false });
    const other = await fetch(`${server.url}/api/payments/webhook?data.id=77&type=merchant_order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'r1', 'x-signature': `ts=${ts},v1=${sign('77')}` },
      body: '{}',
    });
    expect(other.status).to.equal(200);
  });

  it('concurrentApprovals_webhooksPollsAndAdminSync_applyOnce', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    mp.approve(mpId);
    const userToken = tokenFor(server, user);
    const adminToken = tokenFor(server, admin);
    await Promise.all([
      ...Array.from({ length: 6 }, () => mp.notify(mpId, { to: server.url })),
      ...Array.from({ length: 3 }, () => api(server).get(`/payments/pix-status/${payment.id}`, userToken)),
      api(server).post(`/admin/payments/${payment.id}/sync`, {}, adminToken),
      api(server).post(`/admin/payments/${payment.id}/sync`, {}, adminToken),
    ]);
    expect(await credits(user)).to.equal(10);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved']);
  });

  it('webhookRejected_purchaseRejectedWithReasonAndPollingStops', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    mp.reject(mpId);
    expect((await mp.notify(mpId, { to: server.url })).status).to.equal(200);
    const after = await purchaseOf(purchase.id);
    expect(after.status).to.equal('rejected');
    expect(after.rejectedAt).to.be.instanceOf(Date);
    expect(after.rejectionReason).to.contain('bank_error');
    expect(await credits(user)).to.equal(0);
    const poll = await api(server).get(`/payments/pix-polling-status/${payment.id}`, tokenFor(server, user));
    expect(poll.body).to.deep.include({ status: 'rejected', shouldContinuePolling: false, message: M.rejected });
  });

  it('cancel_byBuyer_cancelsAtMpThenLateApprovalIsStillApplied', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    const res = await api(server).patch(`/payments/cancel/${payment.id}`, undefined, tokenFor(server, user));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ success: true, message: M.cancelledOk });
    const put = mp.requests.filter((r) => r.method === 'PUT' && r.path === `/v1/payments/${mpId}`);
    expect(put.map((r) => r.body)).to.deep.equal([{ status: 'cancelled' }]);
    expect(mp.payment(mpId).status).to.equal('cancelled');
    const cancelled = await purchaseOf(purchase.id);
    expect(cancelled.status).to.equal('cancelled');
    expect(cancelled.cancelledAt).to.be.instanceOf(Date);

    const again = await api(server).patch(`/payments/cancel/${payment.id}`, undefined, tokenFor(server, user));
    expect(again.status).to.equal(409);
    expect(again.body).to.deep.include({ message: M.cannotCancel });

    // A PIX that landed at the last second is accepted (docs/payments-pix.md "Refunds, cancellation and expiry").
    mp.approve(mpId);
    expect((await mp.notify(mpId, { to: server.url })).status).to.equal(200);
    expect((await purchaseOf(purchase.id)).status).to.equal('approved');
    expect(await credits(user)).to.equal(10);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'cancelled', 'approved']);
  });

  it('cancel_otherUsersPayment_404', async () => {
    const owner = await buildUser(server);
    const stranger = await buildUser(server);
    const { payment } = await buy(owner);
    const res = await api(server).patch(`/payments/cancel/${payment.id}`, undefined, tokenFor(server, stranger));
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.include({ message: M.paymentNotFound });
  });

  it('expiryJob_pendingPastExpiry_cancelledAtMpAndHere', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payment.id } });
    const poll = await api(server).get(`/payments/pix-polling-status/${payment.id}`, tokenFor(server, user));
    expect(poll.body).to.deep.include({ status: 'pending', isExpired: true, shouldContinuePolling: false, message: M.expired });

    const report = await expirePendingPayments(server.ctx);
    expect(report.failed).to.equal(0);
    expect(mp.payment(mpId).status).to.equal('cancelled');
    const after = await purchaseOf(purchase.id);
    expect(after.status).to.equal('cancelled');
    const last = await server.ctx.models.PurchaseTransition.findOne({ where: { purchaseId: purchase.id, toStatus: 'cancelled' }, rejectOnEmpty: true });
    expect(last.reason).to.equal('PIX expirado');
    expect(last.actor).to.equal('job:payments:expire');
  });

  it('expiryJob_paidAtTheLastSecond_approvedNotCancelled', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    mp.approve(mpId);
    await server.ctx.models.Payment.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { id: payment.id } });
    await expirePendingPayments(server.ctx);
    expect((await purchaseOf(purchase.id)).status).to.equal('approved');
    expect(await credits(user)).to.equal(10);
    expect(mp.payment(mpId).status).to.equal('approved');
  });

  it('expiryJob_registeredEveryMinuteInAgenda', async () => {
    const [rows] = await server.ctx.sequelize.query(`SELECT name, repeat_interval FROM agenda_jobs WHERE name = 'payments:expire'`);
    expect(rows).to.deep.equal([{ name: 'payments:expire', repeat_interval: '1 minute' }]);
  });

  it('refund_byAdmin_refundsAtMpAndTakesBackUnspentCredits', async () => {
    const user = await buildUser(server);
    const { payment, purchase, mpId } = await buy(user);
    mp.approve(mpId);
    await mp.notify(mpId, { to: server.url });
    await server.ctx.models.User.update({ credits: 7 }, { where: { id: user.id } }); // 3 spent
    const res = await api(server).post(`/admin/payments/${payment.id}/refund`, { reason: 'Pedido do cliente' }, tokenFor(server, admin));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const refundCall = mp.requests.find((r) => r.method === 'POST' && r.path === `/v1/payments/${mpId}/refunds`);
    expect(refundCall?.headers['x-idempotency-key']).to.equal(`aabify-refund-${payment.id}`);
    const after = await purchaseOf(purchase.id);
    expect(after.status).to.equal('refunded');
    expect(after.refundReason).to.equal('Pedido do cliente');
    expect(after.planGrant?.creditsTakenBack).to.equal(7);
    expect(await credits(user)).to.equal(0);
    // A refund webhook afterwards changes nothing more.
    expect((await mp.notify(mpId, { to: server.url })).body).to.deep.include({ changed: false });
  });

  it('chargeback_webhook_treatedAsRefund', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    mp.approve(mpId);
    await mp.notify(mpId, { to: server.url });
    mp.setStatus(mpId, 'charged_back', 'reimbursed');
    await mp.notify(mpId, { to: server.url });
    expect((await purchaseOf(purchase.id)).status).to.equal('refunded');
    expect(await credits(user)).to.equal(0);
  });

  it('webhook_approvedAmountDiffersFromCharge_notApplied', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    mp.approve(mpId).transaction_amount = 0.01;
    await mp.notify(mpId, { to: server.url });
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
    expect(await credits(user)).to.equal(0);
  });

  it('webhook_approvedInAnotherCurrency_notApplied', async () => {
    const user = await buildUser(server);
    const { purchase, mpId } = await buy(user);
    // The same number, in dollars: never R$ 19,90.
    (mp.approve(mpId) as { currency_id: string }).currency_id = 'USD';
    await mp.notify(mpId, { to: server.url });
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
    expect(await credits(user)).to.equal(0);
  });

  describe('provider errors map to their pt-BR messages', () => {
    it('createPix_mpAnswers400_400ErroDeValidacao', async () => {
      mp.failNext(400, { message: 'payer.email must be a valid email', error: 'bad_request', status: 400, cause: [{ code: 4050 }] });
      const res = await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, await buildUser(server)));
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ message: 'Erro de validação: payer.email must be a valid email', code: 'PAYMENT_VALIDATION' });
    });

    it('createPix_mpRefusesToken_500NeverA401', async () => {
      mp.failNext(401, { message: 'invalid access token', error: 'unauthorized', status: 401, cause: [] });
      const res = await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, await buildUser(server)));
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ message: M.internal, code: 'PAYMENT_PROVIDER_AUTH' });
    });

    it('createPix_mpDown_500AfterRetryAndPurchaseCancelled', async () => {
      const user = await buildUser(server);
      mp.failNext(503, { message: 'unavailable' }, { times: 2 });
      const res = await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ message: M.internal, code: 'PAYMENT_PROVIDER_UNAVAILABLE' });
      const purchases = await server.ctx.models.Purchase.findAll({ where: { userId: user.id } });
      expect(purchases.map((p) => p.status)).to.deep.equal(['cancelled']);
    });

    it('createPix_mpFailsOnceThenAnswers_retriedWithSameIdempotencyKey', async () => {
      mp.failNext(502, { message: 'bad gateway' });
      const before = mp.requests.length;
      const res = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, await buildUser(server)));
      expect(res.status).to.equal(201);
      const keys = mp.requests.slice(before).filter((r) => r.method === 'POST').map((r) => r.headers['x-idempotency-key']);
      expect(keys).to.have.length(2);
      expect(keys[0]).to.equal(keys[1]);
    });

    it('createPix_accountWithoutPixKey_503ClearMessage', async () => {
      mp.pixKeyMissing = true;
      try {
        const res = await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, await buildUser(server)));
        expect(res.status).to.equal(503);
        expect(res.body).to.deep.equal({ message: M.pixKeyMissing, code: 'PIX_KEY_MISSING' });
      } finally {
        mp.pixKeyMissing = false;
      }
    });

    it('createPix_unknownOrInactivePlan_404PlanoNaoEncontrado', async () => {
      const inactive = await buildPlan(server, { isActive: false });
      for (const id of ['7e0f6a77-3f0e-4d55-9e0b-2a8a3d7f0c11', 'not-a-uuid', inactive.id]) {
        const res = await api(server).post(`/payments/create-pix/${id}`, undefined, tokenFor(server, await buildUser(server)));
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ message: M.planNotFound, code: 'PLAN_NOT_FOUND' });
      }
    });

    it('createPix_noSession_401', async () => {
      const res = await api(server).post(`/payments/create-pix/${plan.id}`);
      expect(res.status).to.equal(401);
    });

    it('sync_paymentGoneAtMp_404PagamentoNaoEncontrado', async () => {
      const { payment } = await buy(await buildUser(server));
      mp.failNext(404, { message: 'Payment not found', error: 'not_found', status: 404, cause: [{ code: 2000 }] });
      const res = await api(server).post(`/admin/payments/${payment.id}/sync`, {}, tokenFor(server, admin));
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ message: M.paymentNotFound, code: 'PAYMENT_NOT_FOUND' });
    });

    it('polling_mpDown_keepsLocalStateAndContinues', async () => {
      const user = await buildUser(server);
      const { payment } = await buy(user);
      mp.failNext(500, { message: 'boom' }, { times: 5 });
      const res = await api(server).get(`/payments/pix-polling-status/${payment.id}`, tokenFor(server, user));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ status: 'pending', shouldContinuePolling: true });
    });
  });

  it('config_mercadopago_publicKeyOnlyNeverSecrets', async () => {
    const res = await api(server).get('/payments/config');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ provider: 'mercadopago', sandbox: false, publicKey: PUBLIC_KEY, canSimulateApproval: false });
    const text = JSON.stringify(res.body);
    expect(text).to.not.contain(TOKEN);
    expect(text).to.not.contain(SECRET);
  });

  it('sandboxOnlyCalls_inMercadoPagoMode_refused', async () => {
    const user = await buildUser(server);
    const { payment } = await buy(user);
    const sim = await api(server).post(`/payments/simulate-approval/${payment.id}`, undefined, tokenFor(server, user));
    expect(sim.status).to.equal(403);
    expect(sim.body).to.deep.include({ message: M.sandboxOnly });
    const approve = await api(server).post(`/admin/payments/${payment.id}/approve`, {}, tokenFor(server, admin));
    expect(approve.status).to.equal(403);
    const debug = await api(server).get(`/debug/user-state/${user.id}`, tokenFor(server, admin));
    expect(debug.status).to.equal(404);
  });
});

describe('payments: Mercado Pago webhooks without a configured secret', () => {
  let mp: MercadoPagoStandIn;
  let server: TestServer;
  let plan: Plan;

  before(async () => {
    mp = await MercadoPagoStandIn.start({ accessToken: TOKEN, webhookSecret: SECRET });
    // No MERCADOPAGO_WEBHOOK_SECRET: notifications cannot be authenticated, only re-read.
    server = await startTestServer(
      { MERCADOPAGO_ACCESS_TOKEN: TOKEN, MERCADOPAGO_PUBLIC_KEY: PUBLIC_KEY, MERCADOPAGO_API_URL: mp.url, PUBLIC_URL },
      { payments: { mercadoPago: { timeoutMs: 3000, retries: 1 } } },
    );
    plan = await buildPlan(server, { name: 'Pacote 10', priceCents: 1990, credits: 10 });
  });
  after(async () => {
    await server?.stop();
    await mp?.close();
  });

  it('webhook_unsignedBurstForOnePayment_readsItBackAtMostOncePerFiveSeconds', async () => {
    const user = await buildUser(server);
    const created = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const { payment } = created.body;
    const mpId = Number(payment.providerPaymentId);
    const gets = () => mp.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payments/${mpId}`).length;
    const credits = async () => (await server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true })).credits;
    mp.approve(mpId);

    // Anyone who knows the id can post these: at once, then one after another.
    const burst = await Promise.all(Array.from({ length: 8 }, () => mp.notify(mpId, { to: server.url, unsigned: true })));
    for (let i = 0; i < 4; i++) burst.push(await mp.notify(mpId, { to: server.url, unsigned: true }));
    expect(burst.map((r) => r.status)).to.deep.equal(Array(12).fill(200));
    expect(gets()).to.equal(1);
    expect(await credits()).to.equal(10);

    // Once the last read is older than the window, a notification reads the payment again.
    await server.ctx.models.Payment.update({ lastSyncedAt: new Date(Date.now() - 6000) }, { where: { id: payment.id } });
    mp.setStatus(mpId, 'charged_back', 'reimbursed');
    const later = await mp.notify(mpId, { to: server.url, unsigned: true });
    expect(later.status).to.equal(200);
    expect(later.body).to.deep.include({ processed: true, changed: true });
    expect(gets()).to.equal(2);
    expect(await credits()).to.equal(0);
  });
});

describe('payments: Mercado Pago webhook signature', () => {
  const secret = 'abc123';
  const now = 1_704_908_010_000;
  const ts = String(now / 1000);
  const sign = (manifest: string, key = secret) => createHmac('sha256', key).update(manifest).digest('hex');
  const check = (xSignature: string | string[] | undefined, parts: { dataId?: string; xRequestId?: string | string[] } = { dataId: '123', xRequestId: 'req-1' }) =>
    verifyMercadoPagoSignature({ xSignature, xRequestId: parts.xRequestId, dataId: parts.dataId, secret, nowMs: now });

  it('verify_documentedManifest_ok', () => {
    expect(check(`ts=${ts},v1=${sign(`id:123;request-id:req-1;ts:${ts};`)}`)).to.deep.equal({ ok: true });
  });
  it('verify_spacesAndArrayHeaders_ok', () => {
    const v1 = sign(`id:123;request-id:req-1;ts:${ts};`);
    expect(check([`ts=${ts}, v1=${v1}`], { dataId: '123', xRequestId: ['req-1'] })).to.deep.equal({ ok: true });
  });
  it('verify_noRequestId_manifestWithoutIt', () => {
    expect(check(`ts=${ts},v1=${sign(`id:123;ts:${ts};`)}`, { dataId: '123' })).to.deep.equal({ ok: true });
  });
  it('verify_noDataId_manifestWithoutIt', () => {
    expect(check(`ts=${ts},v1=${sign(`request-id:req-1;ts:${ts};`)}`, { xRequestId: 'req-1' })).to.deep.equal({ ok: true });
  });
  it('verify_uppercaseHexDigest_ok', () => {
    expect(check(`ts=${ts},v1=${sign(`id:123;request-id:req-1;ts:${ts};`).toUpperCase()}`)).to.deep.equal({ ok: true });
  });
  it('verify_otherSecret_signatureMismatch', () => {
    expect(check(`ts=${ts},v1=${sign(`id:123;request-id:req-1;ts:${ts};`, 'other')}`)).to.deep.equal({ ok: false, reason: 'signature_mismatch' });
  });
  it('verify_otherDataId_signatureMismatch', () => {
    expect(check(`ts=${ts},v1=${sign(`id:124;request-id:req-1;ts:${ts};`)}`)).to.deep.equal({ ok: false, reason: 'signature_mismatch' });
  });
  it('verify_truncatedDigest_signatureMismatch', () => {
    expect(check(`ts=${ts},v1=${sign(`id:123;request-id:req-1;ts:${ts};`).slice(0, 40)}`)).to.deep.equal({ ok: false, reason: 'signature_mismatch' });
  });
  it('verify_missingOrMalformedHeader_reasons', () => {
    expect(check(undefined)).to.deep.equal({ ok: false, reason: 'missing_signature' });
    expect(check('nonsense')).to.deep.equal({ ok: false, reason: 'malformed_signature' });
    expect(check('v1=abc')).to.deep.equal({ ok: false, reason: 'missing_timestamp' });
    expect(check(`ts=${ts}`)).to.deep.equal({ ok: false, reason: 'missing_hash' });
    expect(check('ts=yesterday,v1=abc')).to.deep.equal({ ok: false, reason: 'malformed_signature' });
  });
  it('verify_timestampOutsideFiveMinutes_stale', () => {
    const old = String(now / 1000 - 301);
    expect(check(`ts=${old},v1=${sign(`id:123;request-id:req-1;ts:${old};`)}`)).to.deep.equal({ ok: false, reason: 'stale_timestamp' });
    const edge = String(now / 1000 - 299);
    expect(check(`ts=${edge},v1=${sign(`id:123;request-id:req-1;ts:${edge};`)}`)).to.deep.equal({ ok: true });
  });
});

/**
 * Card and boleto through Mercado Pago's Checkout Pro, and renewing subscriptions through its
 * preapprovals, against the stand-in: the documented requests go out (preference, preapproval),
 * payments are learned only by reading them back (webhook, the return page's polling), applied
 * exactly once, refunded through the provider; replayed or forged notifications change nothing.
 */
import { expect } from 'chai';
import type { ApiPurchase, CheckoutResponse, PurchaseStatusResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { MercadoPagoStandIn } from './helpers/mercadoPagoStandIn.js';
import type { Plan, User } from '../src/models/index.js';
import { CHECKOUT_EXPIRED_REASON, HOSTED_RECHECK_MS, reconcileHostedPayments } from '../src/payments/paymentExpirer.js';
import { CHECKOUT_LIFETIME_MS } from '../src/payments/checkoutCreator.js';

const TOKEN = 'TEST-7719-access-token-for-tests';
const SECRET = 'mp-webhook-secret-for-tests';
const PUBLIC_URL = 'https://aabify.example.com';

describe('payments: Mercado Pago Checkout Pro and recurring payments against the stand-in', () => {
  let mp: MercadoPagoStandIn;
  let server: TestServer;
  let pack: Plan;
  let monthly: Plan;
  let admin: User;

  before(async () => {
    mp = await MercadoPagoStandIn.start({ accessToken: TOKEN, webhookSecret: SECRET });
    server = await startTestServer(
      { MERCADOPAGO_ACCESS_TOKEN: TOKEN, MERCADOPAGO_WEBHOOK_SECRET: SECRET, MERCADOPAGO_API_URL: mp.url, PUBLIC_URL },
      { payments: { mercadoPago: { timeoutMs: 3000, retries: 1 } } },
    );
    pack = await buildPlan(server, { name: 'Pacote 30', priceCents: 4990, credits: 30 });
    monthly = await buildPlan(server, { name: 'Mensal', type: 'subscription', durationMonths: 1, priceCents: 2990 });
    admin = await buildAdmin(server);
  });
  after(async () => {
    await server?.stop();
    await mp?.close();
  });

  async function checkout(user: User, plan: Plan, renew = false) {
    const res = await api(server).post<CheckoutResponse>(`/payments/checkout/${plan.id}`, { renew }, tokenFor(server, user));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  }
  const fresh = async (user: User) => server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true });
  const purchaseOf = (id: string) => server.ctx.models.Purchase.findByPk(id, { rejectOnEmpty: true });
  const transitions = async (purchaseId: string) =>
    (await server.ctx.models.PurchaseTransition.findAll({ where: { purchaseId }, order: [['id', 'ASC']] })).map((t) => t.toStatus);
  const status = async (user: User, purchaseId: string) => (await api(server).get<PurchaseStatusResponse>(`/payments/status/${purchaseId}`, tokenFor(server, user))).body;

  it('checkout_sendsTheDocumentedPreferenceAndAnswersItsPage', async () => {
    const user = await buildUser(server);
    const before = mp.requests.length;
    const body = await checkout(user, pack);
    const sent = mp.requests.slice(before).filter((r) => r.method === 'POST');
    expect(sent.map((r) => r.path)).to.deep.equal(['/checkout/preferences']);
    expect(sent[0].headers.authorization).to.equal(`Bearer ${TOKEN}`);
    expect(sent[0].headers['x-idempotency-key']).to.equal(`aabify-checkout-${body.purchase.id}`);
    const pref = [...mp.checkout.preferences.values()].find((p) => p.external_reference === body.purchase.id)!;
    expect(pref.items).to.deep.equal([{ id: body.purchase.id, title: 'aabify - Pacote 30', quantity: 1, currency_id: 'BRL', unit_price: 49.9 }]);
    expect(pref.payer).to.deep.equal({ email: user.email });
    expect(pref.notification_url).to.equal(`${PUBLIC_URL}/api/payments/webhook?source_news=webhooks`);
    const back = `${PUBLIC_URL}/payment-status?purchase_id=${body.purchase.id}`;
    expect(pref.back_urls).to.deep.equal({ success: back, pending: back, failure: back });
    expect(pref.payment_methods.installments).to.equal(12);
    expect(body.checkoutUrl).to.equal(pref.init_point);
    expect(body.purchase).to.deep.include({ status: 'pending', provider: 'mercadopago', method: null, checkoutUrl: pref.init_point, amountCents: 4990 });
    expect(body.renewal).to.equal(null);
  });

  it('cardApproved_webhookReadsBackByReference_appliesOnce_replaysAndForgeriesChangeNothing', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const prefId = (await purchaseOf(purchase.id)).checkoutId!;
    const paymentId = mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'approved', installments: 3 });

    const forged = await mp.notify(paymentId, { to: server.url, secret: 'not-the-secret' });
    expect(forged.status).to.equal(401);
    expect((await fresh(user)).credits).to.equal(0);

    const res = await mp.notify(paymentId, { to: server.url });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ processed: true, changed: true });
    expect((await fresh(user)).credits).to.equal(30);
    const after = await purchaseOf(purchase.id);
    expect(after).to.include({ status: 'approved', method: 'card', installments: 3 });
    for (let i = 0; i < 3; i++) expect((await mp.notify(paymentId, { to: server.url })).body).to.deep.include({ changed: false });
    expect((await fresh(user)).credits).to.equal(30);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved']);
    const rows = await server.ctx.models.Payment.findAll({ where: { purchaseId: purchase.id } });
    expect(rows.map((p) => [p.providerPaymentId, p.method, p.installments, p.status])).to.deep.equal([[String(paymentId), 'card', 3, 'approved']]);
  });

  it('cardRejected_thenPaidOnTheSamePage_returnPagePollingReadsBack', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const prefId = (await purchaseOf(purchase.id)).checkoutId!;
    mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'rejected' });
    // No webhook: the return page's polling reads the checkout's payments back.
    expect(await status(user, purchase.id)).to.include({ status: 'rejected', method: 'card' });
    expect((await fresh(user)).credits).to.equal(0);

    mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'approved' });
    await new Promise((r) => setTimeout(r, 5100)); // one provider read per 5 s per purchase
    // A rejected purchase is no longer polled: the webhook of the new payment brings it.
    const latest = [...mp.payments.values()].filter((p) => p.external_reference === purchase.id).sort((a, b) => b.id - a.id)[0];
    expect((await mp.notify(latest.id, { to: server.url })).body).to.deep.include({ changed: true });
    expect((await purchaseOf(purchase.id)).status).to.equal('approved');
    expect((await fresh(user)).credits).to.equal(30);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'rejected', 'approved']);
  });

  it('boleto_pendingWithItsUrl_thenPaid_thenRefundedThroughTheProvider', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const prefId = (await purchaseOf(purchase.id)).checkoutId!;
    const paymentId = mp.checkout.payPreference(prefId, { type: 'ticket', status: 'pending' });
    await mp.notify(paymentId, { to: server.url, action: 'payment.created' });
    const pending = await status(user, purchase.id);
    expect(pending).to.include({ status: 'pending', method: 'boleto', boletoUrl: `${mp.url}/boletos/${paymentId}`, checkoutUrl: null });
    const mine = await api(server).get<{ purchases: ApiPurchase[] }>('/payments/purchases', tokenFor(server, user));
    expect(mine.body.purchases[0]).to.deep.include({ id: purchase.id, method: 'boleto', methodLabel: 'Boleto', boletoUrl: `${mp.url}/boletos/${paymentId}` });

    mp.approve(paymentId);
    expect((await mp.notify(paymentId, { to: server.url })).body).to.deep.include({ changed: true });
    expect((await fresh(user)).credits).to.equal(30);

    const refund = await api(server).post(`/admin/payments/${purchase.id}/refund`, { reason: 'Pedido do cliente' }, tokenFor(server, admin));
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    expect(mp.requests.some((r) => r.method === 'POST' && r.path === `/v1/payments/${paymentId}/refunds`)).to.equal(true);
    expect((await purchaseOf(purchase.id)).status).to.equal('refunded');
    expect((await fresh(user)).credits).to.equal(0);
  });

  it('reconcileJob_boletoPaidWithoutNotification_readBackAndApplied_abandonedCheckoutClosed', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const prefId = (await purchaseOf(purchase.id)).checkoutId!;
    const paymentId = mp.checkout.payPreference(prefId, { type: 'ticket', status: 'pending' });
    await mp.notify(paymentId, { to: server.url, action: 'payment.created' });
    // The boleto is paid days later and its notification is lost.
    mp.approve(paymentId);
    const justRead = await reconcileHostedPayments(server.ctx);
    expect((await purchaseOf(purchase.id)).status, 'read back within the hour: not yet').to.equal('pending');
    expect(justRead.failed).to.equal(0);
    const row = await server.ctx.models.Payment.findOne({ where: { providerPaymentId: String(paymentId) }, rejectOnEmpty: true });
    await row.update({ lastSyncedAt: new Date(Date.now() - HOSTED_RECHECK_MS - 60_000) });
    await reconcileHostedPayments(server.ctx);
    expect((await purchaseOf(purchase.id)).status).to.equal('approved');
    expect((await fresh(user)).credits).to.equal(30);
    await reconcileHostedPayments(server.ctx);
    expect((await fresh(user)).credits).to.equal(30);

    // A checkout nobody paid within its lifetime is read one last time and closed.
    const other = await buildUser(server);
    const abandoned = (await checkout(other, pack)).purchase;
    const later = new Date(Date.now() + CHECKOUT_LIFETIME_MS + 60_000);
    const report = await reconcileHostedPayments(server.ctx, later);
    expect(report.closed).to.be.at.least(1);
    expect((await purchaseOf(abandoned.id)).status).to.equal('cancelled');
    const last = await server.ctx.models.PurchaseTransition.findOne({ where: { purchaseId: abandoned.id }, order: [['id', 'DESC']], rejectOnEmpty: true });
    expect(last.reason).to.equal(CHECKOUT_EXPIRED_REASON);
    expect((await fresh(other)).credits).to.equal(0);
  });

  it('paymentOfAnotherPurchase_sentToOurWebhook_isNotRecordedAnywhere', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const prefId = (await purchaseOf(purchase.id)).checkoutId!;
    const paymentId = mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'approved' });
    // The payment now names a purchase that is not a Checkout Pro purchase of ours.
    mp.payment(paymentId).external_reference = '00000000-0000-4000-8000-000000000000';
    const res = await mp.notify(paymentId, { to: server.url });
    expect(res.body).to.deep.include({ processed: false });
    expect(await server.ctx.models.Payment.count({ where: { providerPaymentId: String(paymentId) } })).to.equal(0);
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');
  });

  it('renewal_authorizedThenFailedThenCancelled_extendsOnceEmailsAndStops', async () => {
    const user = await buildUser(server);
    const body = await checkout(user, monthly, true);
    const renewal = body.renewal!;
    expect(renewal).to.deep.include({ status: 'pending', provider: 'mercadopago', frequencyMonths: 1, amountCents: 2990 });
    const pre = [...mp.checkout.preapprovals.values()].find((p) => p.external_reference === renewal.id)!;
    expect(pre).to.deep.include({ reason: 'aabify - Mensal', payer_email: user.email, back_url: `${PUBLIC_URL}/payment-status?purchase_id=${body.purchase.id}` });
    expect(pre.auto_recurring).to.deep.equal({ frequency: 1, frequency_type: 'months', transaction_amount: 29.9, currency_id: 'BRL' });
    expect(body.checkoutUrl).to.equal(pre.init_point);

    // Authorized with its first charge: the first purchase is paid, the subscription starts once.
    const first = mp.checkout.authorize(pre.id);
    expect((await mp.notifySubscription('subscription_authorized_payment', first, { to: server.url })).body).to.deep.include({ changed: true });
    for (let i = 0; i < 2; i++) expect((await mp.notifySubscription('subscription_authorized_payment', first, { to: server.url })).body).to.deep.include({ changed: false });
    // The preapproval's own notification reads it and its charges back: nothing new.
    expect((await mp.notifySubscription('subscription_preapproval', pre.id, { to: server.url })).body).to.deep.include({ processed: true, changed: false });
    expect((await purchaseOf(body.purchase.id)).status).to.equal('approved');
    const afterFirst = (await fresh(user)).subscriptionExpiresAt!;
    expect(afterFirst.getTime() - Date.now()).to.be.within(27 * 86400_000, 32 * 86400_000);
    expect((await server.ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true })).status).to.equal('active');

    // The next period's charge is refused: a rejected purchase, the period intact, one e-mail.
    const failed = mp.checkout.charge(pre.id, 'rejected');
    await mp.notifySubscription('subscription_authorized_payment', failed, { to: server.url });
    await mp.notifySubscription('subscription_authorized_payment', failed, { to: server.url });
    expect((await fresh(user)).subscriptionExpiresAt!.getTime()).to.equal(afterFirst.getTime());
    const charges = await server.ctx.models.Purchase.findAll({ where: { renewalId: renewal.id }, order: [['createdAt', 'ASC']] });
    expect(charges.map((p) => p.status)).to.deep.equal(['approved', 'rejected']);
    const mails = await server.ctx.models.EmailMessage.findAll({ where: { kind: 'renewal_failed', to: user.email } });
    expect(mails).to.have.length(1);
    expect((await server.ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true })).lastFailureAt).to.be.instanceOf(Date);

    // "Cancelar renovação": the preapproval is cancelled at Mercado Pago; the paid period remains.
    const cancel = await api(server).post(`/payments/renewals/${renewal.id}/cancel`, {}, tokenFor(server, user));
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect(mp.checkout.preapproval(pre.id).status).to.equal('cancelled');
    expect(mp.requests.some((r) => r.method === 'PUT' && r.path === `/preapproval/${pre.id}`)).to.equal(true);
    expect((await server.ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true })).status).to.equal('cancelled');
    expect((await fresh(user)).subscriptionExpiresAt!.getTime()).to.equal(afterFirst.getTime());
    const again = await api(server).post(`/payments/renewals/${renewal.id}/cancel`, {}, tokenFor(server, user));
    expect(again.status).to.equal(409);
  });

  it('renewal_ofAnotherUser_cannotBeCancelled_answers404', async () => {
    const owner = await buildUser(server);
    const stranger = await buildUser(server);
    const body = await checkout(owner, monthly, true);
    const res = await api(server).post(`/payments/renewals/${body.renewal!.id}/cancel`, {}, tokenFor(server, stranger));
    expect(res.status).to.equal(404);
    expect((await server.ctx.models.Renewal.findByPk(body.renewal!.id, { rejectOnEmpty: true })).status).to.equal('pending');
  });

  it('usdPlan_withoutStripe_cannotBeActivatedAndIsNeverShownToCustomers', async () => {
    const adminToken = tokenFor(server, admin);
    const body = { name: 'Pacote Dólar', description: 'Dez conversões', type: 'credit', price: 9.9, currency: 'USD', credits: 10, features: [], isPopular: false, isActive: true };
    const refused = await api(server).post('/admin/plans', body, adminToken);
    expect(refused.status).to.equal(400);
    const message = 'Nenhum provedor de pagamento configurado cobra em USD: este plano não pode ser ativado. Configure o Stripe (USD e EUR) ou o Mercado Pago (BRL), ou mude a moeda.';
    expect(refused.body).to.deep.include({ message, fields: { currency: message } });
    const draft = await api(server).post<{ plan: { id: string } }>('/admin/plans', { ...body, isActive: false }, adminToken);
    expect(draft.status, JSON.stringify(draft.body)).to.equal(201);
    const toggled = await api(server).patch(`/admin/plans/${draft.body.plan.id}/toggle-status`, undefined, adminToken);
    expect(toggled.status).to.equal(400);
    expect((await server.ctx.models.Plan.findByPk(draft.body.plan.id, { rejectOnEmpty: true })).isActive).to.equal(false);

    // One made active before Stripe was removed: customers do not see it; admins do.
    const stranded = await buildPlan(server, { name: 'Pacote Euro', currency: 'EUR', isActive: true });
    const customer = await buildUser(server);
    const publicList = await api(server).get<{ plans: Array<{ id: string }> }>('/plans/public');
    const customerList = await api(server).get<{ plans: Array<{ id: string }> }>('/plans?limit=100', tokenFor(server, customer));
    for (const list of [publicList.body.plans, customerList.body.plans]) {
      expect(list.map((p) => p.id)).to.include(pack.id).and.not.include(stranded.id);
    }
    expect((await api(server).get(`/plans/${stranded.id}`, tokenFor(server, customer))).status).to.equal(404);
    expect((await api(server).get(`/plans/${stranded.id}`, adminToken)).status).to.equal(200);
    const buy = await api(server).post(`/payments/checkout/${stranded.id}`, {}, tokenFor(server, customer));
    expect(buy.status).to.equal(400);
  });

  it('renewal_ofACreditPlan_refusedBeforeAnyRow', async () => {
    const user = await buildUser(server);
    const before = await server.ctx.models.Purchase.count();
    const res = await api(server).post(`/payments/checkout/${pack.id}`, { renew: true }, tokenFor(server, user));
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ code: 'PAYMENT_VALIDATION', message: 'Erro de validação: A renovação automática vale apenas para planos de assinatura' });
    expect(await server.ctx.models.Purchase.count()).to.equal(before);
  });
});

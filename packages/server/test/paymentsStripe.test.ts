/**
 * USD and EUR plans through Stripe Checkout (the official SDK pointed at the stand-in by
 * STRIPE_API_URL): the documented Checkout Session goes out, the plan is applied only from a
 * verified event whose object is read back from Stripe, exactly once; forged, stale and replayed
 * events change nothing; refunds and subscription cancellation go through Stripe's API.
 */
import { expect } from 'chai';
import type { CheckoutResponse, PurchaseStatusResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { StripeStandIn } from './helpers/stripeStandIn.js';
import type { Plan, User } from '../src/models/index.js';

const SECRET_KEY = 'sk_test_standInSecretKey4242';
const WEBHOOK_SECRET = 'whsec_standInWebhookSecret4242';
const PUBLIC_URL = 'https://aabify.example.com';

describe('payments: Stripe Checkout against the stand-in', () => {
  let stripe: StripeStandIn;
  let server: TestServer;
  let pack: Plan;
  let monthly: Plan;
  let admin: User;

  before(async () => {
    stripe = await StripeStandIn.start({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    server = await startTestServer(
      { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url, PUBLIC_URL },
      { payments: { stripe: { timeoutMs: 3000, retries: 0 } } },
    );
    pack = await buildPlan(server, { name: 'Dollar Pack', priceCents: 990, credits: 10, currency: 'USD' });
    monthly = await buildPlan(server, { name: 'Euro Monthly', type: 'subscription', durationMonths: 1, priceCents: 1200, currency: 'EUR' });
    admin = await buildAdmin(server);
  });
  after(async () => {
    await server?.stop();
    await stripe?.close();
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

  it('checkout_sendsTheDocumentedSessionThroughTheSdkAndAnswersItsPage', async () => {
    const user = await buildUser(server);
    const before = stripe.requests.length;
    const body = await checkout(user, pack);
    const sent = stripe.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /v1/checkout/sessions']);
    expect(sent[0].headers.authorization).to.equal(`Bearer ${SECRET_KEY}`);
    expect(sent[0].headers['idempotency-key']).to.equal(`aabify-checkout-${body.purchase.id}`);
    expect(sent[0].body).to.deep.include({
      mode: 'payment',
      customer_email: user.email,
      client_reference_id: body.purchase.id,
      success_url: `${PUBLIC_URL}/payment-status?purchase_id=${body.purchase.id}`,
      cancel_url: `${PUBLIC_URL}/plans`,
    });
    expect(sent[0].body.line_items).to.deep.equal([{ quantity: '1', price_data: { currency: 'usd', unit_amount: '990', product_data: { name: 'aabify - Dollar Pack' } } }]);
    expect(sent[0].body.payment_intent_data).to.deep.equal({ metadata: { purchaseId: body.purchase.id } });
    const session = stripe.sessionOf(body.purchase.id);
    expect(body.checkoutUrl).to.equal(session.url);
    expect(body.purchase).to.deep.include({ status: 'pending', provider: 'stripe', amountCents: 990, currency: 'USD' });
  });

  it('cardApproved_forgedAndStaleEventsRefused_verifiedEventAppliesOnce_replaysChangeNothing', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const session = stripe.sessionOf(purchase.id);
    // A validly signed event about a session nobody paid: the object is read back, nothing happens.
    const early = await stripe.send('checkout.session.completed', { ...session, status: 'complete', payment_status: 'paid' }, { to: server.url });
    expect(early.status).to.equal(200);
    expect(early.body).to.deep.include({ processed: true, changed: false });
    expect((await purchaseOf(purchase.id)).status).to.equal('pending');

    stripe.completeSession(session.id, 'succeeded');
    const forged = await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url, secret: 'whsec_notTheSecret1234' });
    expect(forged.status).to.equal(400);
    expect(forged.body).to.include({ code: 'WEBHOOK_SIGNATURE_INVALID' });
    const stale = await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url, ts: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).to.equal(400);
    expect((await fresh(user)).credits).to.equal(0);

    const first = await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url });
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.include({ processed: true, changed: true });
    for (let i = 0; i < 2; i++) {
      const replay = await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url, eventId: first.eventId });
      expect(replay.body).to.deep.include({ changed: false });
    }
    expect((await fresh(user)).credits).to.equal(10);
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved']);
    expect(await purchaseOf(purchase.id)).to.include({ status: 'approved', method: 'card' });
  });

  it('cardDeclined_returnPagePollingReadsTheSessionBack_rejected', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    stripe.completeSession(stripe.sessionOf(purchase.id).id, 'declined');
    const res = await api(server).get<PurchaseStatusResponse>(`/payments/status/${purchase.id}`, tokenFor(server, user));
    expect(res.body).to.include({ status: 'rejected', method: 'card' });
    expect((await fresh(user)).credits).to.equal(0);
  });

  it('refund_goesThroughStripeRefunds_planTakenBack_refundEventReplayChangesNothing', async () => {
    const user = await buildUser(server);
    const { purchase } = await checkout(user, pack);
    const session = stripe.sessionOf(purchase.id);
    const intentId = stripe.completeSession(session.id, 'succeeded');
    await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url });
    expect((await fresh(user)).credits).to.equal(10);

    const refund = await api(server).post(`/admin/payments/${purchase.id}/refund`, { reason: 'Pedido do cliente' }, tokenFor(server, admin));
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    const refundCall = stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.body.payment_intent === intentId);
    expect(refundCall?.headers['idempotency-key']).to.match(/^aabify-refund-/);
    expect((await purchaseOf(purchase.id)).status).to.equal('refunded');
    expect((await fresh(user)).credits).to.equal(0);
    const charge = stripe.charges.get(String(stripe.intents.get(intentId)!.latest_charge))!;
    const event = await stripe.send('charge.refunded', charge, { to: server.url });
    expect(event.body).to.deep.include({ processed: true, changed: false });
    expect(await transitions(purchase.id)).to.deep.equal(['pending', 'approved', 'refunded']);
  });

  it('renewal_subscriptionPaidThenFailedThenCancelled_extendsOnceEmailsAndStopsAtStripe', async () => {
    const user = await buildUser(server);
    const body = await checkout(user, monthly, true);
    const renewal = body.renewal!;
    const sent = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(sent.body).to.deep.include({ mode: 'subscription', client_reference_id: body.purchase.id });
    expect(sent.body.line_items).to.deep.equal([
      { quantity: '1', price_data: { currency: 'eur', unit_amount: '1200', product_data: { name: 'aabify - Euro Monthly' }, recurring: { interval: 'month', interval_count: '1' } } },
    ]);
    expect(sent.body.subscription_data).to.deep.equal({ metadata: { renewalId: renewal.id, purchaseId: body.purchase.id } });

    const session = stripe.sessionOf(body.purchase.id);
    stripe.completeSession(session.id, 'succeeded');
    const sub = stripe.subscriptions.get(stripe.session(session.id).subscription!)!;
    const invoice = [...stripe.invoices.values()].find((i) => i.parent.subscription_details.subscription === sub.id)!;
    expect((await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url })).body).to.deep.include({ processed: true });
    const paid = await stripe.send('invoice.paid', invoice, { to: server.url });
    expect(paid.body).to.deep.include({ processed: true });
    await stripe.send('invoice.paid', invoice, { to: server.url, eventId: paid.eventId });
    expect((await purchaseOf(body.purchase.id)).status).to.equal('approved');
    const afterFirst = (await fresh(user)).subscriptionExpiresAt!;
    expect(afterFirst.getTime() - Date.now()).to.be.within(27 * 86400_000, 32 * 86400_000);
    const row = await server.ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true });
    expect(row).to.include({ status: 'active', providerRenewalId: sub.id });

    const failed = stripe.chargeSubscription(sub.id, 'failed');
    await stripe.send('invoice.payment_failed', failed, { to: server.url });
    await stripe.send('invoice.payment_failed', failed, { to: server.url });
    expect((await fresh(user)).subscriptionExpiresAt!.getTime()).to.equal(afterFirst.getTime());
    const charges = await server.ctx.models.Purchase.findAll({ where: { renewalId: renewal.id }, order: [['createdAt', 'ASC']] });
    expect(charges.map((p) => p.status)).to.deep.equal(['approved', 'rejected']);
    expect(await server.ctx.models.EmailMessage.count({ where: { kind: 'renewal_failed', to: user.email } })).to.equal(1);

    const cancel = await api(server).post(`/payments/renewals/${renewal.id}/cancel`, {}, tokenFor(server, user));
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    expect(stripe.requests.some((r) => r.method === 'DELETE' && r.path === `/v1/subscriptions/${sub.id}`)).to.equal(true);
    expect(sub.status).to.equal('canceled');
    expect((await server.ctx.models.Renewal.findByPk(renewal.id, { rejectOnEmpty: true })).status).to.equal('cancelled');
    expect((await fresh(user)).subscriptionExpiresAt!.getTime()).to.equal(afterFirst.getTime());
    const deleted = await stripe.send('customer.subscription.deleted', sub, { to: server.url });
    expect(deleted.body).to.deep.include({ processed: true, changed: false });
  });

  it('brlPlan_withStripeOnly_isNotOnSale', async () => {
    const brl = await buildPlan(server, { name: 'Pacote Real', currency: 'BRL', isActive: true });
    const customer = await buildUser(server);
    const list = await api(server).get<{ plans: Array<{ id: string }> }>('/plans/public');
    expect(list.body.plans.map((p) => p.id)).to.include(pack.id).and.not.include(brl.id);
    const pix = await api(server).post(`/payments/create-pix/${brl.id}`, undefined, tokenFor(server, customer));
    expect(pix.status).to.equal(400);
  });
});

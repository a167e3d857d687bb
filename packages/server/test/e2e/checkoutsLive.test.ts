/**
 * Card, boleto, renewals and refunds in a real browser with the real providers configured — as
 * an operator goes live: Mercado Pago for BRL and Stripe for USD/EUR, both the stand-ins that
 * speak their documented APIs (test/helpers). What a payer does on the provider's own page is
 * played by the stand-in (pay, authorize, charge) and its notification sent to our webhook; the
 * customer's and the admin's screens are the dashboard's.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildUser } from '../helpers/factories.js';
import { buildPlan } from '../helpers/adminFactories.js';
import { MercadoPagoStandIn } from '../helpers/mercadoPagoStandIn.js';
import { StripeStandIn } from '../helpers/stripeStandIn.js';
import type { User } from '../../src/models/index.js';
import { openPage, sessionOf, shootBoth, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15_000;
const MP_TOKEN = 'APP_USR-7770001-e2e-live-token-4242';
const MP_SECRET = 'segredo-do-webhook-e2e-ao-vivo';

describe('checkouts against the providers\' stand-ins (Mercado Pago and Stripe configured) in a real browser', function () {
  this.timeout(240_000);
  let mp: MercadoPagoStandIn;
  let stripe: StripeStandIn;
  let server: TestServer;
  let browser: Browser;
  let admin: User;
  const opened: OpenPage[] = [];

  const open = async (user: User): Promise<Page> => {
    const o = await openPage(browser, { session: sessionOf(server, user), width: 1400 });
    opened.push(o);
    return o.page;
  };
  const fresh = (user: User) => server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true });
  const myRow = (page: Page, name: string) => page.locator('[data-testid="my-purchase-row"]', { has: page.getByRole('heading', { name }) });
  const adminRow = (page: Page, purchaseId: string) => page.locator(`[data-testid="purchase-row"][data-purchase-id="${purchaseId}"]`);

  /**
   * From /plans, one of a plan's buttons: the browser leaves for the provider's page. Answers the
   * purchase (and renewal) the checkout made, read from the database once the page is left.
   */
  async function startCheckout(page: Page, buyer: User, button: string, providerUrl: string): Promise<{ purchaseId: string; renewalId: string | null }> {
    await page.goto(`${server.url}/plans`);
    if (button.includes('renovação')) await page.locator('label[for="plan-type-subscription"]').click({ timeout: SHORT });
    await page.getByRole('button', { name: button }).click({ timeout: SHORT });
    await page.waitForURL((u) => u.href.startsWith(providerUrl), { timeout: SHORT });
    const purchase = await server.ctx.models.Purchase.findOne({ where: { userId: buyer.id }, order: [['createdAt', 'DESC']], rejectOnEmpty: true });
    return { purchaseId: purchase.id, renewalId: purchase.renewalId };
  }

  /** The customer comes back to our return page. */
  async function comeBack(page: Page, purchaseId: string): Promise<void> {
    await page.goto(`${server.url}/payment-status?purchase_id=${encodeURIComponent(purchaseId)}`);
  }

  /** An admin refunds a purchase from Compras; it turns refunded. */
  async function refundAsAdmin(purchaseId: string, buyer: User): Promise<void> {
    const page = await open(admin);
    await page.goto(`${server.url}/admin/purchases`);
    const row = adminRow(page, purchaseId);
    await row.getByRole('button', { name: `Reembolsar compra de ${buyer.email}` }).click({ timeout: SHORT });
    await page.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
  }

  before(async function () {
    requireChromium(this);
    mp = await MercadoPagoStandIn.start({ accessToken: MP_TOKEN, webhookSecret: MP_SECRET });
    stripe = await StripeStandIn.start({ secretKey: 'sk_test_e2eLiveStandInKey77', webhookSecret: 'whsec_e2eLiveStandInSecret77' });
    server = await startTestServer({
      DASHBOARD_DIR: ensureDashboardBuilt(),
      MERCADOPAGO_ACCESS_TOKEN: MP_TOKEN,
      MERCADOPAGO_WEBHOOK_SECRET: MP_SECRET,
      MERCADOPAGO_API_URL: mp.url,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.url,
    });
    browser = await launchBrowser();
    admin = await buildAdmin(server);
    await buildPlan(server, { name: 'Pacote Real', credits: 10, priceCents: 4990 });
    await buildPlan(server, { name: 'Mensal Real', type: 'subscription', durationMonths: 1, priceCents: 2990 });
    await buildPlan(server, { name: 'Dollar Pack', credits: 10, priceCents: 990, currency: 'USD' });
    await buildPlan(server, { name: 'Euro Monthly', type: 'subscription', durationMonths: 1, priceCents: 1200, currency: 'EUR' });
  });
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await mp?.close();
    await stripe?.close();
  });

  it('mercadoPago_cardApprovedIn3x_thenRefundedByAdminThroughMercadoPago', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Pagar com cartão ou boleto: Pacote Real', mp.url);
    const prefId = new URL(page.url()).searchParams.get('pref_id')!;
    expect(mp.checkout.preference(prefId).external_reference).to.equal(body.purchaseId);

    const paymentId = mp.checkout.payPreference(prefId, { type: 'credit_card', status: 'approved', installments: 3 });
    expect((await mp.notify(paymentId, { to: server.url })).body).to.deep.include({ changed: true });
    await comeBack(page, body.purchaseId);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    expect((await fresh(buyer)).credits).to.equal(10);
    await page.goto(`${server.url}/purchases`);
    await soon(() => myRow(page, 'Pacote Real').getByTestId('purchase-method').textContent(), (t) => expect(t).to.equal('Pago com: Cartão · 3x'));

    await refundAsAdmin(body.purchaseId, buyer);
    expect(mp.requests.some((r) => r.method === 'POST' && r.path === `/v1/payments/${paymentId}/refunds`)).to.equal(true);
    expect((await fresh(buyer)).credits).to.equal(0);
  });

  it('mercadoPago_cardRejected_returnPageSaysSo_nothingApplied', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Pagar com cartão ou boleto: Pacote Real', mp.url);
    const paymentId = mp.checkout.payPreference(new URL(page.url()).searchParams.get('pref_id')!, { type: 'credit_card', status: 'rejected' });
    await mp.notify(paymentId, { to: server.url });
    await comeBack(page, body.purchaseId);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Rejeitado'));
    expect(await page.getByTestId('payment-status-text').textContent()).to.contain('recusado');
    expect((await fresh(buyer)).credits).to.equal(0);
  });

  it('mercadoPago_boletoPendingThenPaid_thenRefunded', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Pagar com cartão ou boleto: Pacote Real', mp.url);
    const paymentId = mp.checkout.payPreference(new URL(page.url()).searchParams.get('pref_id')!, { type: 'ticket', status: 'pending' });
    await mp.notify(paymentId, { to: server.url, action: 'payment.created' });
    await comeBack(page, body.purchaseId);
    await soon(() => page.getByTestId('payment-status-text').textContent(), (t) => expect(t).to.contain('Boleto gerado'));
    await page.goto(`${server.url}/purchases`);
    const row = myRow(page, 'Pacote Real').first();
    await soon(() => row.getByTestId('purchase-method').textContent(), (t) => expect(t).to.equal('Pago com: Boleto'));
    // No sandbox button with a real provider: the payer pays the boleto at the bank.
    expect(await row.getByRole('button', { name: /Simular/ }).count()).to.equal(0);
    await shootBoth(page, 'minhas-compras-boleto-mercadopago');

    mp.approve(paymentId);
    expect((await mp.notify(paymentId, { to: server.url })).body).to.deep.include({ changed: true });
    await page.reload();
    await soon(() => myRow(page, 'Pacote Real').first().getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    expect((await fresh(buyer)).credits).to.equal(10);
    await refundAsAdmin(body.purchaseId, buyer);
    expect((await fresh(buyer)).credits).to.equal(0);
  });

  it('mercadoPago_renewalAuthorizedThenRefusedThenCancelledByTheCustomer_periodKept', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Assinar com renovação automática: Mensal Real', mp.url);
    const preapprovalId = new URL(page.url()).searchParams.get('preapproval_id')!;
    expect(mp.checkout.preapproval(preapprovalId).external_reference).to.equal(body.renewalId);

    const first = mp.checkout.authorize(preapprovalId);
    expect((await mp.notifySubscription('subscription_authorized_payment', first, { to: server.url })).body).to.deep.include({ changed: true });
    await comeBack(page, body.purchaseId);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    const paidUntil = (await fresh(buyer)).subscriptionExpiresAt!.getTime();

    const refused = mp.checkout.charge(preapprovalId, 'rejected');
    await mp.notifySubscription('subscription_authorized_payment', refused, { to: server.url });
    await page.goto(`${server.url}/purchases`);
    await soon(() => page.locator('[data-testid="my-purchase-row"][data-status="rejected"]').count(), (n) => expect(n).to.equal(1));
    expect((await fresh(buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);

    const row = myRow(page, 'Mensal Real').first();
    await row.getByRole('button', { name: 'Cancelar renovação: Mensal Real' }).click();
    await page.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => row.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação cancelada'));
    expect(mp.checkout.preapproval(preapprovalId).status).to.equal('cancelled');
    expect((await fresh(buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);
  });

  it('stripe_usdCardPaid_thenRefundedByAdminThroughStripe', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Pagar com cartão: Dollar Pack', stripe.url);
    const session = stripe.sessionOf(body.purchaseId);
    const intentId = stripe.completeSession(session.id, 'succeeded');
    await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url });
    await page.goto(session.success_url);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    expect((await fresh(buyer)).credits).to.equal(10);

    await refundAsAdmin(body.purchaseId, buyer);
    expect(stripe.requests.some((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.body.payment_intent === intentId)).to.equal(true);
    expect((await fresh(buyer)).credits).to.equal(0);
  });

  it('stripe_eurRenewalPaidThenFailedThenCancelledByTheCustomer_periodKept', async () => {
    const buyer = await buildUser(server);
    const page = await open(buyer);
    const body = await startCheckout(page, buyer, 'Assinar com renovação automática: Euro Monthly', stripe.url);
    const session = stripe.sessionOf(body.purchaseId);
    stripe.completeSession(session.id, 'succeeded');
    const subscription = stripe.subscriptions.get(stripe.session(session.id).subscription!)!;
    const invoice = [...stripe.invoices.values()].find((i) => i.parent.subscription_details.subscription === subscription.id)!;
    await stripe.send('checkout.session.completed', stripe.session(session.id), { to: server.url });
    await stripe.send('invoice.paid', invoice, { to: server.url });
    await page.goto(session.success_url);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    const paidUntil = (await fresh(buyer)).subscriptionExpiresAt!.getTime();

    await stripe.send('invoice.payment_failed', stripe.chargeSubscription(subscription.id, 'failed'), { to: server.url });
    await page.goto(`${server.url}/purchases`);
    await soon(() => page.locator('[data-testid="my-purchase-row"][data-status="rejected"]').count(), (n) => expect(n).to.equal(1));
    const row = myRow(page, 'Euro Monthly').first();
    await soon(() => row.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.match(/^Renovação automática ativa · última cobrança recusada em /));
    await row.getByRole('button', { name: 'Cancelar renovação: Euro Monthly' }).click();
    await page.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => row.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação cancelada'));
    expect(subscription.status).to.equal('canceled');
    expect((await fresh(buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);
  });
});

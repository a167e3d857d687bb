/**
 * Card, boleto and automatic renewals in a real browser. On the embedded default (the payments
 * sandbox, no outside account): a card approved in installments, a card refused, a boleto left
 * pending then paid, a renewal authorized then refused then cancelled ("Cancelar renovação"),
 * each through the sandbox's hosted checkout page and the return page, and refunds of a card and
 * a boleto from the admin "Compras". Against the Stripe stand-in: a USD plan bought by card.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { CheckoutResponse } from '@aabify/shared';
import { buildDashboardNow, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildAdmin, buildUser } from '../helpers/factories.js';
import { buildPlan } from '../helpers/planFactories.js';
import { StripeStandIn } from '../helpers/stripeStandIn.js';
import type { User } from '../../src/models/index.js';
import { openPage, sessionOf, shootBoth, waitForPath, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15000;

describe('checkouts: card, boleto and renewals end to end in a real browser', function () {
  this.timeout(240000);
  let dashboard: string;
  let server: TestServer;
  let browser: Browser;
  let admin: User;
  const opened: OpenPage[] = [];

  const open = async (srv: TestServer, user: User): Promise<OpenPage> => {
    const o = await openPage(browser, { session: sessionOf(srv, user) });
    opened.push(o);
    return o;
  };
  const fresh = (srv: TestServer, user: User) => srv.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true });
  /** The return page (or any path with its query) is open. */
  const waitForReturn = (page: Page, purchaseId: string) =>
    page.waitForURL((u) => u.pathname === '/payment-status' && u.searchParams.get('purchase_id') === purchaseId, { timeout: SHORT });
  const myRow = (page: Page, name: string) => page.locator('[data-testid="my-purchase-row"]', { has: page.getByRole('heading', { name }) });

  /** From /plans, one of the plan's buttons; answers the checkout the server made. */
  async function startCheckout(page: Page, srv: TestServer, button: string): Promise<CheckoutResponse> {
    await page.goto(`${srv.url}/plans`);
    const created = page.waitForResponse((r) => r.url().includes('/api/payments/checkout/'));
    const target = page.getByRole('button', { name: button });
    if (button.includes('renovação')) await page.locator('label[for="plan-type-subscription"]').click({ timeout: SHORT });
    await target.click({ timeout: SHORT });
    return (await (await created).json()) as CheckoutResponse;
  }

  before(async function () {
    requireChromium(this);
    dashboard = buildDashboardNow();
    server = await startTestServer({ DASHBOARD_DIR: dashboard });
    browser = await launchBrowser();
    admin = await buildAdmin(server);
    await buildPlan(server, { name: 'Pacote Cartão', credits: 10, priceCents: 4990 });
    await buildPlan(server, { name: 'Mensal Renovável', type: 'subscription', durationMonths: 1, priceCents: 2990 });
  });
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sandbox_cardApprovedIn3x_returnPageApproved_minhasComprasShowsIt_adminRefunds', async () => {
    const buyer = await buildUser(server);
    const { page, errors } = await open(server, buyer);
    const body = await startCheckout(page, server, 'Pagar com cartão ou boleto: Pacote Cartão');
    await waitForPath(page, body.checkoutUrl);
    const checkout = page.getByTestId('sandbox-checkout');
    await checkout.waitFor({ timeout: SHORT });
    await checkout.getByLabel('Parcelas').selectOption('3');
    await shootBoth(page, 'sandbox-checkout-card');
    await checkout.getByRole('button', { name: 'Pagar com cartão (aprovado)' }).click();
    await waitForReturn(page, body.purchase.id);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    expect(await page.getByTestId('payment-status-method').textContent()).to.equal('Forma de pagamento: Cartão');
    expect((await fresh(server, buyer)).credits).to.equal(10);

    await page.goto(`${server.url}/purchases`);
    const row = myRow(page, 'Pacote Cartão');
    await soon(() => row.getByTestId('purchase-method').textContent(), (t) => expect(t).to.equal('Pago com: Cartão · 3x'));
    expect(errors).to.deep.equal([]);

    const adminPage = (await open(server, admin)).page;
    await adminPage.goto(`${server.url}/admin/purchases`);
    const adminRow = adminPage.locator(`[data-testid="purchase-row"][data-purchase-id="${body.purchase.id}"]`);
    await soon(() => adminRow.getByTestId('purchase-method').textContent(), (t) => expect(t).to.equal('Cartão · 3x'));
    await adminRow.getByRole('button', { name: `Reembolsar compra de ${buyer.email}` }).click();
    await adminPage.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => adminRow.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
    expect((await fresh(server, buyer)).credits).to.equal(0);
  });

  it('sandbox_cardRefused_returnPageSaysSoAndNothingIsApplied', async () => {
    const buyer = await buildUser(server);
    const { page } = await open(server, buyer);
    const body = await startCheckout(page, server, 'Pagar com cartão ou boleto: Pacote Cartão');
    await page.getByTestId('sandbox-checkout').getByRole('button', { name: 'Cartão recusado' }).click({ timeout: SHORT });
    await waitForReturn(page, body.purchase.id);
    await soon(() => page.getByTestId('payment-status-text').textContent(), (t) => expect(t).to.equal('Pagamento recusado. Tente outro cartão ou outro meio de pagamento.'));
    expect(await page.getByTestId('payment-status-label').textContent()).to.equal('Rejeitado');
    expect((await fresh(server, buyer)).credits).to.equal(0);
  });

  it('sandbox_boletoPendingThenPaid_thenRefundedByAdmin', async () => {
    const buyer = await buildUser(server);
    const { page } = await open(server, buyer);
    const body = await startCheckout(page, server, 'Pagar com cartão ou boleto: Pacote Cartão');
    await page.getByTestId('sandbox-checkout').getByRole('button', { name: 'Gerar boleto' }).click({ timeout: SHORT });
    await waitForReturn(page, body.purchase.id);
    await soon(() => page.getByTestId('payment-status-text').textContent(), (t) => expect(t).to.contain('Boleto gerado'));
    expect(await page.getByTestId('payment-status-label').textContent()).to.equal('Pendente');

    await page.goto(`${server.url}/purchases`);
    const row = myRow(page, 'Pacote Cartão');
    await soon(() => row.getByTestId('purchase-method').textContent(), (t) => expect(t).to.equal('Pago com: Boleto'));
    expect(await row.getByText('Boleto aguardando pagamento').count()).to.equal(1);
    await shootBoth(page, 'minhas-compras-boleto');
    await row.getByRole('button', { name: 'Simular pagamento aprovado (sandbox)' }).click();
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    expect((await fresh(server, buyer)).credits).to.equal(10);

    const adminPage = (await open(server, admin)).page;
    await adminPage.goto(`${server.url}/admin/purchases`);
    await adminPage.getByLabel('Forma de pagamento').selectOption('boleto');
    const adminRow = adminPage.locator(`[data-testid="purchase-row"][data-purchase-id="${body.purchase.id}"]`);
    await adminRow.getByRole('button', { name: `Reembolsar compra de ${buyer.email}` }).click({ timeout: SHORT });
    await adminPage.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => adminRow.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
    expect((await fresh(server, buyer)).credits).to.equal(0);
  });

  it('sandbox_renewalAuthorizedThenRefusedThenCancelled_periodKept', async () => {
    const buyer = await buildUser(server);
    const { page } = await open(server, buyer);
    const body = await startCheckout(page, server, 'Assinar com renovação automática: Mensal Renovável');
    const checkout = page.getByTestId('sandbox-checkout');
    await soon(() => checkout.getAttribute('data-kind'), (v) => expect(v).to.equal('renewal'));
    await checkout.getByRole('button', { name: 'Autorizar (primeira cobrança aprovada)' }).click();
    await waitForReturn(page, body.purchase.id);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    const paidUntil = (await fresh(server, buyer)).subscriptionExpiresAt!.getTime();
    expect(paidUntil - Date.now()).to.be.within(27 * 86400_000, 32 * 86400_000);

    await page.goto(`${server.url}/purchases`);
    const row = myRow(page, 'Mensal Renovável').first();
    await soon(() => row.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação automática ativa'));
    await row.getByRole('button', { name: 'Simular cobrança recusada (sandbox)' }).click();
    await soon(() => page.locator('[data-testid="my-purchase-row"][data-status="rejected"]').count(), (n) => expect(n).to.equal(1));
    expect((await fresh(server, buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);
    expect(await server.ctx.models.EmailMessage.count({ where: { kind: 'renewal_failed', to: buyer.email } })).to.equal(1);

    const newest = myRow(page, 'Mensal Renovável').first();
    await newest.getByRole('button', { name: 'Cancelar renovação: Mensal Renovável' }).click();
    await page.getByRole('dialog').getByTestId('confirm-button').click();
    await soon(() => newest.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação cancelada'));
    await shootBoth(page, 'minhas-compras-renewal-cancelled');
    expect(await newest.getByRole('button', { name: /Cancelar renovação/ }).count()).to.equal(0);
    expect((await fresh(server, buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);
    const renewal = await server.ctx.models.Renewal.findByPk(body.renewal!.id, { rejectOnEmpty: true });
    expect(renewal.status).to.equal('cancelled');
  });

  it('sandbox_adminCancelsACustomersRenewalFromCompras_periodKept_audited', async () => {
    const buyer = await buildUser(server);
    const { page } = await open(server, buyer);
    const body = await startCheckout(page, server, 'Assinar com renovação automática: Mensal Renovável');
    await page.getByTestId('sandbox-checkout').getByRole('button', { name: 'Autorizar (primeira cobrança aprovada)' }).click({ timeout: SHORT });
    await waitForReturn(page, body.purchase.id);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
    const paidUntil = (await fresh(server, buyer)).subscriptionExpiresAt!.getTime();

    const adminPage = (await open(server, admin)).page;
    await adminPage.goto(`${server.url}/admin/purchases`);
    const adminRow = adminPage.locator(`[data-testid="purchase-row"][data-purchase-id="${body.purchase.id}"]`);
    await soon(() => adminRow.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação automática ativa'));
    await adminRow.getByRole('button', { name: `Cancelar renovação de ${buyer.email}` }).click();
    const dialog = adminPage.getByRole('dialog');
    expect(await dialog.textContent()).to.contain(buyer.email);
    await dialog.getByTestId('confirm-button').click();
    await soon(() => adminRow.getByTestId('purchase-renewal').textContent(), (t) => expect(t).to.equal('Renovação cancelada'));
    expect(await adminRow.getByTestId('purchase-cancel-renewal').count()).to.equal(0);
    expect((await server.ctx.models.Renewal.findByPk(body.renewal!.id, { rejectOnEmpty: true })).status).to.equal('cancelled');
    expect((await fresh(server, buyer)).subscriptionExpiresAt!.getTime()).to.equal(paidUntil);
    const audited = await server.ctx.models.AuditEvent.findOne({ where: { action: 'renewal.cancelled', actorId: admin.id, targetId: body.renewal!.id } });
    expect(audited, 'the admin action is in the audit trail').to.not.equal(null);
  });

  it('stripeStandIn_usdPlanByCard_paidOnStripesPage_returnPageApproved', async () => {
    const stripe = await StripeStandIn.start({ secretKey: 'sk_test_e2eStandInKey42', webhookSecret: 'whsec_e2eStandInSecret42' });
    const withStripe = await startTestServer({ DASHBOARD_DIR: dashboard, STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url });
    try {
      await buildAdmin(withStripe);
      await buildPlan(withStripe, { name: 'Dollar Pack', credits: 10, priceCents: 990, currency: 'USD' });
      await buildPlan(withStripe, { name: 'Pacote Real', credits: 10, priceCents: 990, currency: 'BRL' });
      const buyer = await buildUser(withStripe);
      const { page } = await open(withStripe, buyer);
      await page.goto(`${withStripe.url}/plans`);
      await page.locator('[data-plan-name="Dollar Pack"]').waitFor({ timeout: SHORT });
      // Nobody charges BRL here: that plan is not offered.
      expect(await page.locator('[data-plan-name="Pacote Real"]').count()).to.equal(0);
      expect(await page.getByRole('button', { name: 'Pagar com PIX: Dollar Pack' }).count()).to.equal(0);
      await page.getByRole('button', { name: 'Pagar com cartão: Dollar Pack' }).click();
      // The browser goes to Stripe's page (the stand-in's address); the payer pays there.
      await page.waitForURL((url) => url.href.startsWith(`${stripe.url}/c/pay/cs_test_`), { timeout: SHORT });
      const session = stripe.session(new URL(page.url()).pathname.split('/').at(-1)!);
      const purchase = await withStripe.ctx.models.Purchase.findByPk(session.client_reference_id!, { rejectOnEmpty: true });
      expect(purchase).to.include({ userId: buyer.id, provider: 'stripe', currency: 'USD', amountCents: 990 });
      stripe.completeSession(session.id, 'succeeded');
      await page.goto(session.success_url);
      // Until the event arrives the return page reads the session back from Stripe itself.
      await soon(() => page.getByTestId('payment-status-label').textContent(), (t) => expect(t).to.equal('Aprovado'));
      expect((await stripe.send('checkout.session.completed', stripe.session(session.id), { to: withStripe.url })).body).to.deep.include({ changed: false });
      expect((await fresh(withStripe, buyer)).credits).to.equal(10);
    } finally {
      await withStripe.stop();
      await stripe.close();
    }
  });
});

/**
 * Purchases in a real browser against a real server in the payments sandbox: a user buys a
 * credit plan and approves the PIX with the sandbox button of the PIX modal; 'Minhas compras'
 * lists the user's own purchases (and only those), reopens a pending PIX and follows it on
 * the return page; the admin 'Compras' screen approves a pending purchase (the buyer's credits
 * change), refunds with a reason (the plan is taken back), syncs, filters by status, pages,
 * and words a refused action as 'Erro ao …: <server message>'; /plans stays open (and checks)
 * for a user with a plan and a remembered pending PIX, and sign-out forgets that PIX.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { CreatePixResponse } from '@aabify/shared';
import { ensureDashboardBuilt, launchBrowser, requireChromium, soon, screenshotPath } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from '../helpers/factories.js';
import { buildPlan, buildPurchase } from '../helpers/planFactories.js';
import type { Plan, User } from '../../src/models/index.js';
import { openPage, sessionOf, shootBoth, toastWith, waitForPath, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15000;
const PENDING_KEY = 'aabify-pending-payment';
const pendingStored = (page: Page) => page.evaluate((k) => localStorage.getItem(k), PENDING_KEY);

describe('purchases: sandbox PIX approval, "Minhas compras" and the admin "Compras" screen in a real browser', function () {
  this.timeout(180000);
  let server: TestServer;
  let browser: Browser;
  let admin: User;
  let plan: Plan;
  let buyer: User;
  let other: User;
  let buyerPurchaseId = '';
  let otherPurchaseId = '';
  const opened: OpenPage[] = [];

  const open = async (user: User, width?: number): Promise<OpenPage> => {
    const o = await openPage(browser, { session: sessionOf(server, user), width });
    opened.push(o);
    return o;
  };
  const rowOf = (page: Page, purchaseId: string) => page.locator(`[data-testid="purchase-row"][data-purchase-id="${purchaseId}"]`);
  const myRowOf = (page: Page, purchaseId: string) => page.locator(`[data-testid="my-purchase-row"][data-purchase-id="${purchaseId}"]`);
  const creditsOf = async (user: User) => (await server.ctx.models.User.findByPk(user.id))!.credits;

  before(async function () {
    requireChromium(this);
    server = await startTestServer({ DASHBOARD_DIR: ensureDashboardBuilt() });
    browser = await launchBrowser();
    admin = await buildAdmin(server);
    plan = await buildPlan(server, { name: 'Pacote 10 E2E', credits: 10, priceCents: 1990, isPopular: true });
    await buildPlan(server, { name: 'Assinatura E2E', type: 'subscription', durationMonths: 1, priceCents: 4990 });
    buyer = await buildUser(server);
    other = await buildUser(server);
  });
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('buyer_pixModalSandboxButton_approvesThenSuccessCreditsAndMinhasCompras', async () => {
    const { page, errors } = await open(buyer);
    await page.goto(`${server.url}/plans`);
    await page.locator('[data-plan-name="Pacote 10 E2E"]').waitFor({ timeout: SHORT });
    const createPix = page.waitForResponse((r) => r.url().includes('/api/payments/create-pix/'));
    await page.getByRole('button', { name: 'Pagar com PIX: Pacote 10 E2E' }).click();
    const pix = (await (await createPix).json()) as CreatePixResponse;
    buyerPurchaseId = pix.purchase.id;
    await page.getByTestId('pix-modal').waitFor();
    const simulate = page.getByRole('button', { name: 'Simular pagamento aprovado (sandbox)' });
    await simulate.waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('pix-sandbox').textContent(), (v) => expect(v).to.contain('Sandbox').and.contain('nenhum pagamento real'));
    await soon(() => pendingStored(page), (v) => expect(v).to.contain(pix.payment.id).and.contain(buyer.id));
    await shootBoth(page, 'pix-modal-sandbox');

    await simulate.click();
    await page.getByTestId('payment-success').waitFor({ timeout: 30000 });
    await toastWith(page, 'Pagamento aprovado! Seu plano foi ativado.');
    await soon(() => pendingStored(page), (v) => expect(v).to.equal(null));
    expect(await creditsOf(buyer)).to.equal(10);
    await page.getByRole('link', { name: 'Ir para o Painel' }).click();
    await waitForPath(page, '/dashboard');
    const dashboard = async () => ({
      path: new URL(page.url()).pathname,
      credits: await page.getByTestId('plan-credits').textContent({ timeout: 1000 }).catch(() => null),
      stored: await page.evaluate(() => localStorage.getItem('aabify-user')),
    });
    await soon(dashboard, (v) => expect(v, JSON.stringify(v)).to.include({ path: '/dashboard', credits: '10' }), 20000);

    // 'Minhas compras' from the account menu.
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('link', { name: 'Minhas compras' }).click();
    await waitForPath(page, '/purchases');
    const row = myRowOf(page, buyerPurchaseId);
    await row.waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('my-purchase-row').count(), (v) => expect(v).to.equal(1));
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    await soon(() => row.textContent(), (v) => expect(v).to.contain('Pacote 10 E2E').and.contain('10 créditos').and.contain('R$ 19,90').and.contain('Aprovado').and.contain('Aprovada em'));
    expect(await row.getByRole('button', { name: /Pagar com PIX/ }).count()).to.equal(0);
    await shootBoth(page, 'my-purchases');
    expect(errors).to.deep.equal([]);
  });

  it('otherUser_minhasCompras_onlyOwn_thenReopensPendingPixAndFollowsIt', async () => {
    const { page, errors } = await open(other);
    await page.goto(`${server.url}/purchases`);
    await page.getByTestId('purchases-empty').waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('my-purchase-row').count(), (v) => expect(v).to.equal(0));
    await shootBoth(page, 'my-purchases-empty');

    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, other));
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    otherPurchaseId = pix.body.purchase.id;
    await page.reload();
    const row = myRowOf(page, otherPurchaseId);
    await row.waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('my-purchase-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-purchase-id'))), (v) => expect(v).to.deep.equal([otherPurchaseId]));
    await soon(() => row.getByTestId('purchase-status').textContent(), (v) => expect(v).to.equal('Pendente'));

    // Back to the PIX: the modal with the same charge, polling; closing keeps the purchase pending.
    await row.getByRole('button', { name: 'Pagar com PIX: Pacote 10 E2E' }).click();
    const modal = page.getByTestId('pix-modal');
    await modal.waitFor({ timeout: SHORT });
    await soon(() => modal.getAttribute('data-payment-id'), (v) => expect(v).to.equal(pix.body.payment.id));
    await soon(() => page.getByTestId('pix-code').inputValue(), (v) => expect(v).to.equal(pix.body.payment.pixCopyPaste));
    await page.getByTestId('pix-simulate').waitFor();
    await soon(() => pendingStored(page), (v) => expect(v).to.contain(pix.body.payment.id));
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).last().click();
    await soon(() => page.getByTestId('pix-modal').count(), (v) => expect(v).to.equal(0));

    // …or its return page.
    await row.getByRole('link', { name: 'Acompanhar pagamento: Pacote 10 E2E' }).click();
    await waitForPath(page, '/payment-status');
    await soon(() => page.getByTestId('payment-status-label').textContent(), (v) => expect(v).to.equal('Pendente'));
    expect(new URL(page.url()).searchParams.get('purchase_id')).to.equal(otherPurchaseId);
    await shootBoth(page, 'payment-status-pending');
    expect(errors).to.deep.equal([]);
  });

  it('admin_compras_approvesPendingPurchase_buyerCreditsChange', async () => {
    expect(await creditsOf(other)).to.equal(0);
    const { page, errors } = await open(admin, 1400);
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('admin-sidebar').getByRole('link', { name: 'Compras' }).click();
    await waitForPath(page, '/admin/purchases');
    await page.getByTestId('purchases-table').waitFor({ timeout: SHORT });
    const row = rowOf(page, otherPurchaseId);
    await row.waitFor({ timeout: SHORT });
    await soon(() => row.textContent(), (v) => expect(v).to.contain(other.email).and.contain('Pacote 10 E2E').and.contain('R$ 19,90').and.contain('Pendente').and.contain('Sandbox'));
    await soon(() => rowOf(page, buyerPurchaseId).getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    expect(await rowOf(page, buyerPurchaseId).getByRole('button', { name: /^Aprovar/ }).count()).to.equal(0);
    expect(await row.getByRole('button', { name: /^Reembolsar/ }).count()).to.equal(0);
    await shootBoth(page, 'admin-purchases');

    await row.getByRole('button', { name: `Aprovar compra de ${other.email}` }).click();
    await toastWith(page, 'Compra aprovada! O plano foi aplicado ao comprador.');
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    await soon(() => row.getByTestId('purchase-status').textContent(), (v) => expect(v).to.equal('Aprovado'));
    await soon(() => creditsOf(other), (v) => expect(v).to.equal(10));

    // The buyer sees it: the credits on the dashboard and the purchase approved in 'Minhas compras'.
    const buyerPage = (await open(other)).page;
    await buyerPage.goto(`${server.url}/dashboard`);
    await soon(() => buyerPage.getByTestId('plan-credits').textContent(), (v) => expect(v).to.equal('10'));
    await buyerPage.goto(`${server.url}/purchases`);
    await soon(() => myRowOf(buyerPage, otherPurchaseId).getAttribute('data-status'), (v) => expect(v).to.equal('approved'));
    expect(errors).to.deep.equal([]);
  });

  it('admin_compras_refundWithReasonTakesThePlanBack_syncs_andFiltersByStatus', async () => {
    const { page, errors } = await open(admin, 1400);
    await page.goto(`${server.url}/admin/purchases`);
    const row = rowOf(page, otherPurchaseId);
    await row.waitFor({ timeout: SHORT });

    await row.getByRole('button', { name: `Reembolsar compra de ${other.email}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Reembolsar pagamento' }).waitFor();
    await dialog.getByLabel('Motivo (opcional)').fill('Pedido do cliente (E2E)');
    await soon(() => dialog.getByText(/caracteres$/).textContent(), (v) => expect(v).to.equal('23/500 caracteres'));
    await shootBoth(page, 'admin-purchases-refund');
    await dialog.getByTestId('confirm-button').click();
    await toastWith(page, 'Pagamento reembolsado!');
    await soon(() => page.getByRole('dialog').count(), (v) => expect(v).to.equal(0));
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
    await soon(() => row.textContent(), (v) => expect(v).to.contain('Reembolsado').and.contain('Reembolsada em').and.contain('Motivo: Pedido do cliente (E2E)'));
    await soon(() => creditsOf(other), (v) => expect(v).to.equal(0));
    const stored = await server.ctx.models.Purchase.findByPk(otherPurchaseId);
    expect(stored?.status).to.equal('refunded');
    expect(stored?.refundReason).to.equal('Pedido do cliente (E2E)');

    // Sync reads the payment back.
    await rowOf(page, buyerPurchaseId).getByRole('button', { name: `Sincronizar compra de ${buyer.email}` }).click();
    await toastWith(page, 'Pagamento sincronizado');

    // The status filter.
    const statuses = () => page.getByTestId('purchase-row').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-purchase-id')}:${r.getAttribute('data-status')}`));
    await page.getByLabel('Status').selectOption('refunded');
    await soon(statuses, (v) => expect(v).to.deep.equal([`${otherPurchaseId}:refunded`]));
    await shootBoth(page, 'admin-purchases-filter-refunded');
    await page.getByLabel('Status').selectOption('approved');
    await soon(statuses, (v) => expect(v).to.deep.equal([`${buyerPurchaseId}:approved`]));
    await page.getByLabel('Status').selectOption('pending');
    await page.getByTestId('purchases-empty').waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('purchases-empty').textContent(), (v) => expect(v).to.equal('Nenhuma compra encontrada'));
    await page.getByLabel('Status').selectOption('');
    await soon(statuses, (v) => expect(v).to.have.members([`${otherPurchaseId}:refunded`, `${buyerPurchaseId}:approved`]));

    // The refund shows in the buyer's own list too.
    const buyerPage = (await open(other)).page;
    await buyerPage.goto(`${server.url}/purchases`);
    await soon(() => myRowOf(buyerPage, otherPurchaseId).textContent(), (v) => expect(v).to.contain('Reembolsado').and.contain('Motivo: Pedido do cliente (E2E)'));
    expect(errors).to.deep.equal([]);
  });

  it('admin_compras_refusedAction_errorToastWithTheServerMessage', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const sim = await api(server).post(`/payments/simulate-approval/${pix.body.payment.id}`, undefined, token);
    expect(sim.status, JSON.stringify(sim.body)).to.equal(200);

    const { page } = await open(admin, 1400);
    await page.goto(`${server.url}/admin/purchases`);
    const row = rowOf(page, pix.body.purchase.id);
    await row.getByRole('button', { name: `Reembolsar compra de ${user.email}` }).click();
    // Refunded elsewhere meanwhile: the server refuses, the screen says why.
    const refunded = await api(server).post(`/admin/payments/${pix.body.purchase.id}/refund`, {}, tokenFor(server, admin));
    expect(refunded.status, JSON.stringify(refunded.body)).to.equal(200);
    await page.getByRole('dialog').getByTestId('confirm-button').click();
    await toastWith(page, 'Erro ao reembolsar pagamento: Apenas pagamentos aprovados podem ser reembolsados');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
    await page.getByRole('button', { name: 'Atualizar lista de compras' }).click();
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
  });

  it('pagination_adminAndMinhasCompras_secondPage', async () => {
    const many = await buildUser(server);
    for (let i = 0; i < 12; i++) await buildPurchase(server, many, plan, { status: 'cancelled', cancelledAt: new Date() });

    const mine = (await open(many)).page;
    await mine.goto(`${server.url}/purchases`);
    await soon(() => mine.getByTestId('my-purchase-row').count(), (v) => expect(v).to.equal(10));
    await soon(() => mine.getByTestId('purchases-summary').textContent(), (v) => expect(v).to.equal('12 compras · página 1 de 2'));
    await mine.getByRole('button', { name: 'Página 2' }).or(mine.getByRole('link', { name: 'Página 2' })).first().click();
    await soon(() => mine.getByTestId('my-purchase-row').count(), (v) => expect(v).to.equal(2));
    await soon(() => mine.getByTestId('purchases-summary').textContent(), (v) => expect(v).to.equal('12 compras · página 2 de 2'));

    const { page } = await open(admin, 1400);
    await page.goto(`${server.url}/admin/purchases`);
    await page.getByLabel('Status').selectOption('cancelled');
    await soon(() => page.getByTestId('purchases-summary').textContent(), (v) => expect(v).to.equal('12 compras · página 1 de 2'));
    await soon(() => page.getByTestId('purchase-row').count(), (v) => expect(v).to.equal(10));
    await page.getByRole('button', { name: 'Página 2' }).or(page.getByRole('link', { name: 'Página 2' })).first().click();
    await soon(() => page.getByTestId('purchases-summary').textContent(), (v) => expect(v).to.equal('12 compras · página 2 de 2'));
    await soon(() => page.getByTestId('purchase-row').count(), (v) => expect(v).to.equal(2));
    await page.getByLabel('Por página').selectOption('25');
    await soon(() => page.getByTestId('purchase-row').count(), (v) => expect(v).to.equal(12));
    await soon(() => page.getByTestId('pagination').count(), (v) => expect(v).to.equal(0));
  });

  it('plans_withPlanAndRememberedPendingPix_staysOpenAndChecksIt_signOutForgetsIt', async () => {
    const { page, errors } = await open(buyer);
    // A user with a plan is sent away from /plans…
    await page.goto(`${server.url}/plans`);
    await waitForPath(page, '/dashboard');
    // …but buys more from the plan card, then closes the PIX unpaid.
    await page.getByRole('link', { name: 'Comprar créditos' }).click();
    await waitForPath(page, '/plans');
    const createPix = page.waitForResponse((r) => r.url().includes('/api/payments/create-pix/'));
    await page.getByRole('button', { name: 'Pagar com PIX: Pacote 10 E2E' }).click();
    const pix = (await (await createPix).json()) as CreatePixResponse;
    await page.getByTestId('pix-modal').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).last().click();
    await soon(() => pendingStored(page), (v) => expect(v).to.contain(pix.payment.id));

    // Reopening /plans checks it: the page stays and the PIX is shown again.
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('plan-card').waitFor();
    await page.goto(`${server.url}/plans`);
    await page.getByTestId('pix-modal').waitFor({ timeout: SHORT });
    await soon(() => page.getByTestId('pix-modal').getAttribute('data-payment-id'), (v) => expect(v).to.equal(pix.payment.id));
    expect(new URL(page.url()).pathname).to.equal('/plans');
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).last().click();

    // The return page's links keep a user with a plan on /plans.
    await page.goto(`${server.url}/payment-status?purchase_id=${pix.purchase.id}&payment_id=${pix.payment.id}`);
    await soon(() => page.getByTestId('payment-status-label').textContent(), (v) => expect(v).to.equal('Pendente'));
    await page.evaluate((k) => localStorage.removeItem(k), PENDING_KEY);
    await page.getByRole('link', { name: 'Escolher outro plano' }).click();
    await waitForPath(page, '/plans');
    await page.locator('[data-plan-name="Pacote 10 E2E"]').waitFor({ timeout: SHORT });
    await soon(async () => new URL(page.url()).pathname, (v) => expect(v).to.equal('/plans'));
    await page.goto(`${server.url}/payment-status`);
    await page.getByRole('link', { name: 'Ver planos' }).click();
    await waitForPath(page, '/plans');
    await page.locator('[data-plan-name="Pacote 10 E2E"]').waitFor({ timeout: SHORT });
    await soon(async () => new URL(page.url()).pathname, (v) => expect(v).to.equal('/plans'));

    // Buying the same plan again answers the same pending PIX; signing out forgets it.
    await page.getByRole('button', { name: 'Pagar com PIX: Pacote 10 E2E' }).click();
    await page.getByTestId('pix-modal').waitFor();
    await soon(() => pendingStored(page), (v) => expect(v).to.contain(pix.payment.id));
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar' }).last().click();
    await page.getByRole('button', { name: 'Menu da conta' }).click();
    await page.getByRole('button', { name: 'Sair', exact: true }).click();
    await waitForPath(page, '/login');
    await soon(() => pendingStored(page), (v) => expect(v).to.equal(null));
    expect(errors).to.deep.equal([]);
  });

  it('layout_360pxWide_purchaseScreensFit', async () => {
    for (const [user, path, testId, name] of [
      [buyer, '/purchases', 'my-purchases-list', 'purchases'],
      [admin, '/admin/purchases', 'purchases-table', 'admin-purchases'],
    ] as const) {
      const { page } = await open(user, 360);
      await page.goto(`${server.url}${path}`);
      await page.getByTestId(testId).waitFor({ timeout: SHORT });
      await page.waitForLoadState('networkidle');
      await soon(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), (v) => expect(v, path).to.be.at.most(0));
      await page.screenshot({ path: await screenshotPath(`dashboard-360-${name}`), fullPage: true, animations: 'disabled' });
    }
  });
});

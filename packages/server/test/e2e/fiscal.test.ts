/**
 * Billing details, receipts and NFS-e in a real browser: a company without billing details picks
 * PIX, is asked for them (a wrong CNPJ is refused beside its field), buys in the sandbox and
 * downloads its PDF receipt from "Minhas compras" (its text read back); with the Focus NFe
 * stand-in as the NFS-e provider, a purchase's note goes processando → autorizada with its links
 * in "Minhas compras" and Admin › Compras › Detalhes, and an admin's refund turns it cancelada.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { BILLING_MESSAGES, formatBrasiliaDateTime, type ApiPurchase, type CreatePixResponse } from '@aabify/shared';
import { buildDashboardNow, launchBrowser, requireChromium, soon } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { api } from '../helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from '../helpers/factories.js';
import { buildPlan } from '../helpers/planFactories.js';
import { pdfText } from '../helpers/pdfText.js';
import { waitFor } from '../helpers/conversions.js';
import { FocusNfeStandIn } from '../helpers/focusNfeStandIn.js';
import type { Plan, User } from '../../src/models/index.js';
import { openPage, sessionOf, shootBoth, toastWith, type OpenPage } from './dashboardHelpers.js';

const SHORT = 15000;
const TOKEN = 'focus-token-e2e';

describe('fiscal: billing details, PDF receipts and NFS-e in a real browser', function () {
  this.timeout(240000);
  let focus: FocusNfeStandIn;
  let server: TestServer;
  let browser: Browser;
  let plan: Plan;
  let admin: User;
  const opened: OpenPage[] = [];

  const open = async (user: User): Promise<OpenPage> => {
    const o = await openPage(browser, { session: sessionOf(server, user) });
    opened.push(o);
    return o;
  };

  before(async function () {
    requireChromium(this);
    focus = await FocusNfeStandIn.start({ token: TOKEN });
    server = await startTestServer({ DASHBOARD_DIR: buildDashboardNow(), NFSE_API_URL: focus.url }, { fiscal: { retryDelayMs: 100, minPollMs: 150, maxAttempts: 3 } });
    browser = await launchBrowser();
    admin = await buildAdmin(server);
    plan = await buildPlan(server, { name: 'Pacote Empresa', credits: 20, priceCents: 9990 });
    const settings: Record<string, string> = {
      'fiscal.sellerName': 'Conversões Brasileiras Ltda',
      'fiscal.sellerCnpj': '11.444.777/0001-61',
      'fiscal.sellerAddress': 'Rua da Consolação, 100 – Consolação – São Paulo/SP – CEP 01302-000',
      'fiscal.sellerEmail': 'fiscal@aabify.example',
      'nfse.token': TOKEN,
      'nfse.municipalRegistration': '12345678',
      'nfse.cityCode': '3550308',
      'nfse.serviceCode': '01.05',
      'nfse.issRate': '2',
    };
    for (const [key, value] of Object.entries(settings)) await server.ctx.settings.set(key as 'nfse.token', value);
  });
  afterEach(async () => {
    for (const o of opened.splice(0)) await o.context.close();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
    await focus?.stop();
  });

  it('company_askedForBillingDetailsAtFirstPurchase_buysWithCnpj_downloadsItsReceipt', async () => {
    const company = await buildUser(server, { billingDetails: null });
    const { page, errors } = await open(company);
    await page.goto(`${server.url}/plans`);
    await page.locator('[data-plan-name="Pacote Empresa"]').waitFor({ timeout: SHORT });
    await page.getByRole('button', { name: 'Pagar com PIX: Pacote Empresa' }).click();

    const modal = page.getByTestId('billing-modal');
    await modal.getByTestId('billing-form').waitFor({ timeout: SHORT });
    await modal.getByLabel('CPF ou CNPJ').fill('11.222.333/0001-82');
    await modal.getByLabel('Nome completo ou razão social').fill('Aplicativos Ação Ltda');
    await modal.getByLabel('CEP').fill('30130010');
    await modal.getByTestId('billing-submit').click();
    await soon(() => page.locator('#field-document-error').textContent(), (v) => expect(v).to.equal(BILLING_MESSAGES.documentInvalid));
    await soon(() => page.locator('#field-street-error').textContent(), (v) => expect(v).to.equal(BILLING_MESSAGES.streetRequired));
    await shootBoth(page, 'billing-modal-errors');

    await modal.getByLabel('CPF ou CNPJ').fill('11.222.333/0001-81');
    await modal.getByLabel('Logradouro').fill('Avenida Afonso Pena');
    await modal.getByLabel('Número').fill('1500');
    await modal.getByLabel('Bairro').fill('Centro');
    await modal.getByLabel('Município').fill('Belo Horizonte');
    await modal.getByLabel('UF').selectOption('MG');
    const createPix = page.waitForResponse((r) => r.url().includes('/api/payments/create-pix/'));
    await modal.getByTestId('billing-submit').click();
    // Saved, and the purchase goes on by itself: the PIX modal opens.
    const pix = (await (await createPix).json()) as CreatePixResponse;
    await page.getByTestId('pix-modal').waitFor({ timeout: SHORT });
    expect(pix.purchase.billing).to.deep.include({ documentFormatted: '11.222.333/0001-81', name: 'Aplicativos Ação Ltda', city: 'Belo Horizonte', state: 'MG' });
    await page.getByRole('button', { name: 'Simular pagamento aprovado (sandbox)' }).click();
    await page.getByTestId('payment-success').waitFor({ timeout: 30000 });

    await page.goto(`${server.url}/purchases`);
    const row = page.locator(`[data-testid="my-purchase-row"][data-purchase-id="${pix.purchase.id}"]`);
    await row.waitFor({ timeout: SHORT });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('receipt-download').click()]);
    expect(download.suggestedFilename()).to.equal(`recibo-aabify-${pix.purchase.id.slice(0, 8)}.pdf`);
    const text = await pdfText(new Uint8Array(await readFile((await download.path())!)));
    const approvedAt = (await server.ctx.models.Purchase.findByPk(pix.purchase.id))!.approvedAt!;
    expect(text).to.include('Aplicativos Ação Ltda');
    expect(text).to.include('CNPJ: 11.222.333/0001-81');
    expect(text).to.include('Plano: Pacote Empresa');
    expect(text).to.include('Valor: R$ 99,90');
    expect(text).to.include(`Data do pagamento (horário de Brasília): ${formatBrasiliaDateTime(approvedAt)}`);
    expect(text).to.include('Conversões Brasileiras Ltda');
    await shootBoth(page, 'my-purchases-receipt');

    // Conta › Dados de faturamento shows what was saved, ready to edit.
    await page.goto(`${server.url}/account/billing`);
    await soon(() => page.getByLabel('CPF ou CNPJ').inputValue(), (v) => expect(v).to.equal('11.222.333/0001-81'));
    await shootBoth(page, 'account-billing');
    expect(errors).to.deep.equal([]);

    // Admin › Usuários › Dados de faturamento: a company is listed by its razão social and CNPJ.
    const adminPage = (await open(admin)).page;
    await adminPage.goto(`${server.url}/admin/users`);
    await adminPage.getByLabel('Buscar').fill(company.email);
    await adminPage.getByRole('button', { name: 'Buscar', exact: true }).click();
    const userRow = adminPage.getByTestId(`user-row-${company.email}`);
    await userRow.getByRole('button', { name: `Mais ações para ${company.email}` }).click();
    await adminPage.getByRole('button', { name: 'Dados de faturamento' }).click();
    const billing = adminPage.getByTestId('user-billing');
    await soon(
      () => billing.locator('dl').textContent({ timeout: SHORT }),
      (v) => expect(v).to.equal('Razão socialAplicativos Ação LtdaCNPJ11.222.333/0001-81E-mail para notas' + company.email + 'EndereçoAvenida Afonso Pena, 1500 – Centro – Belo Horizonte/MG – CEP 30130-010'),
    );
  });

  it('nfse_processandoThenAutorizadaWithLinks_thenAnAdminRefundCancelsIt', async () => {
    const buyer = await buildUser(server);
    const token = tokenFor(server, buyer);
    const created = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    const approved = await api(server).post<{ purchase: ApiPurchase }>(`/payments/simulate-approval/${created.body.payment.id}`, undefined, token);
    expect(approved.status).to.equal(200);
    const purchaseId = created.body.purchase.id;
    const ref = `aabify-${purchaseId}`;
    await waitFor(() => focus.note(ref), 20_000, 'the note at the provider');

    const { page, errors } = await open(buyer);
    const noteLine = page.locator(`[data-testid="my-purchase-row"][data-purchase-id="${purchaseId}"] [data-testid="fiscal-note"]`);
    const noteStatus = async () => {
      await page.goto(`${server.url}/purchases`);
      return noteLine.getAttribute('data-nfse-status', { timeout: SHORT });
    };
    await soon(noteStatus, (v) => expect(v).to.equal('processando'));
    expect(await noteLine.textContent()).to.contain('NFS-e em processamento');

    // The municipality answers later, as the real service does.
    focus.authorize(ref);
    await soon(noteStatus, (v) => expect(v).to.equal('autorizada'), 20_000);
    expect(await noteLine.textContent()).to.contain(`NFS-e autorizada nº ${focus.note(ref)!.numero}`);
    expect(await noteLine.getByTestId('nfse-pdf').getAttribute('href')).to.equal(`${focus.url}/notas/${ref}.pdf`);
    expect(await noteLine.getByTestId('nfse-xml').getAttribute('href')).to.equal(`${focus.url}/arquivos/${ref}-nfse.xml`);
    await shootBoth(page, 'my-purchases-nfse');

    const adminPage = (await open(admin)).page;
    await adminPage.goto(`${server.url}/admin/purchases`);
    const row = adminPage.locator(`[data-testid="purchase-row"][data-purchase-id="${purchaseId}"]`);
    await row.waitFor({ timeout: SHORT });
    expect(await adminPage.getByTestId('nfse-not-configured').count()).to.equal(0);
    await row.getByRole('button', { name: `Detalhes da compra de ${buyer.email}` }).click();
    const detail = adminPage.getByTestId('purchase-detail');
    await soon(() => detail.getByTestId('fiscal-note').getAttribute('data-nfse-status'), (v) => expect(v).to.equal('autorizada'));
    expect(await detail.getByTestId('purchase-billing').textContent()).to.contain('529.982.247-25').and.contain('Avenida Paulista, 1000');
    expect(await detail.getByTestId('nfse-pdf').getAttribute('href')).to.equal(`${focus.url}/notas/${ref}.pdf`);
    await shootBoth(adminPage, 'admin-purchase-detail');
    await detail.getByRole('button', { name: 'Fechar' }).last().click();

    await row.getByRole('button', { name: `Reembolsar compra de ${buyer.email}` }).click();
    await adminPage.getByRole('dialog').getByTestId('confirm-button').click();
    await toastWith(adminPage, 'Pagamento reembolsado!');
    await soon(() => row.getAttribute('data-status'), (v) => expect(v).to.equal('refunded'));
    await waitFor(() => (focus.note(ref)?.status === 'cancelado' ? true : undefined), 20_000, 'the cancellation at the provider');
    await soon(
      async () => {
        await adminPage.getByRole('button', { name: 'Atualizar lista de compras' }).click();
        await row.getByRole('button', { name: `Detalhes da compra de ${buyer.email}` }).click();
        const status = await detail.getByTestId('fiscal-note').getAttribute('data-nfse-status', { timeout: SHORT });
        await detail.getByRole('button', { name: 'Fechar' }).last().click();
        return status;
      },
      (v) => expect(v).to.equal('cancelada'),
      20_000,
    );
    await soon(noteStatus, (v) => expect(v).to.equal('cancelada'));
    expect(await noteLine.textContent()).to.contain('NFS-e cancelada');
    expect(errors).to.deep.equal([]);
  });
});

import { expect } from 'chai';
import { FISCAL_MESSAGES, formatBrasiliaDateTime, type ApiPurchase, type CreatePixResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { TEST_BILLING, buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { pdfText } from './helpers/pdfText.js';
import type { Plan, User } from '../src/models/index.js';

const COMPANY = { ...TEST_BILLING, document: '11222333000181', name: 'Construções Ágeis Ltda' };

describe('fiscal: PDF receipts', () => {
  let server: TestServer;
  let plan: Plan;
  let admin: User;

  before(async () => {
    server = await startTestServer();
    plan = await buildPlan(server, { name: 'Pacote Ação 10', priceCents: 12345, credits: 10 });
    admin = await buildAdmin(server);
    await server.ctx.settings.set('fiscal.sellerName', 'Conversões Brasileiras Ltda');
    await server.ctx.settings.set('fiscal.sellerCnpj', '11.444.777/0001-61');
    await server.ctx.settings.set('fiscal.sellerAddress', 'Rua da Conceição, 10 – Centro – São Paulo/SP – CEP 01001-000');
    await server.ctx.settings.set('fiscal.sellerEmail', 'fiscal@aabify.example');
  });
  after(async () => server?.stop());

  /** A purchase paid by PIX in the sandbox. */
  async function approvedPurchase(user: User): Promise<ApiPurchase> {
    const token = tokenFor(server, user);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const approved = await api(server).post<{ purchase: ApiPurchase }>(`/payments/simulate-approval/${pix.body.payment.id}`, undefined, token);
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    return approved.body.purchase;
  }

  async function receipt(purchaseId: string, token: string): Promise<{ status: number; headers: Headers; text: string | null }> {
    const res = await fetch(`${server.url}/api/payments/purchase/${purchaseId}/receipt`, { headers: { authorization: `Bearer ${token}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = res.headers.get('content-type') === 'application/pdf' ? await pdfText(bytes) : null;
    return { status: res.status, headers: res.headers, text };
  }

  it('approvedPurchase_ownerDownloadsAPdfNamingSellerBuyerPlanAmountMethodAndBrasiliaDate', async () => {
    const user = await buildUser(server, { billingDetails: COMPANY });
    const purchase = await approvedPurchase(user);
    expect(purchase.receiptAvailable).to.equal(true);
    const res = await receipt(purchase.id, tokenFor(server, user));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-disposition')).to.match(/^attachment; filename="recibo-aabify-[0-9a-f]{8}\.pdf"; filename\*=UTF-8''recibo-aabify-[0-9a-f]{8}\.pdf$/);
    const text = res.text!;
    expect(text).to.include('Recibo de compra');
    expect(text).to.include('Conversões Brasileiras Ltda');
    expect(text).to.include('CNPJ: 11.444.777/0001-61');
    expect(text).to.include('Construções Ágeis Ltda');
    expect(text).to.include('CNPJ: 11.222.333/0001-81');
    expect(text).to.include('Plano: Pacote Ação 10');
    expect(text).to.include('Valor: R$ 123,45');
    expect(text).to.include('Forma de pagamento: PIX');
    const approvedAt = new Date(purchase.approvedAt!);
    expect(text).to.include(`Data do pagamento (horário de Brasília): ${formatBrasiliaDateTime(approvedAt)}`);
    expect(text).to.include(`Identificador da compra: ${purchase.id}`);
    expect(text).to.not.include(FISCAL_MESSAGES.receiptRefunded.toUpperCase());
  });

  it('laterEditOfBillingDetails_receiptKeepsTheBuyerAsBought', async () => {
    const user = await buildUser(server, { billingDetails: COMPANY });
    const token = tokenFor(server, user);
    const purchase = await approvedPurchase(user);
    await api(server).put('/account/billing', { ...COMPANY, name: 'Nome Posterior S.A.' }, token);
    const text = (await receipt(purchase.id, token)).text!;
    expect(text).to.include('Construções Ágeis Ltda');
    expect(text).to.not.include('Nome Posterior');
  });

  it('anotherUsersPurchase_404_adminGetsIt', async () => {
    const owner = await buildUser(server);
    const purchase = await approvedPurchase(owner);
    const stranger = tokenFor(server, await buildUser(server));
    const refused = await receipt(purchase.id, stranger);
    expect(refused.status).to.equal(404);
    expect(refused.text).to.equal(null);
    const byAdmin = await receipt(purchase.id, tokenFor(server, admin));
    expect(byAdmin.status).to.equal(200);
    expect(byAdmin.text).to.include('Cliente de Teste');
  });

  it('pendingPurchase_409NoReceipt', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    expect(pix.body.purchase.receiptAvailable).to.equal(false);
    const res = await fetch(`${server.url}/api/payments/purchase/${pix.body.purchase.id}/receipt`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(409);
    expect(await res.json()).to.deep.include({ code: 'RECEIPT_UNAVAILABLE', message: FISCAL_MESSAGES.receiptUnavailable });
  });

  it('refundedPurchase_keepsItsReceiptMarkedEstornado', async () => {
    const user = await buildUser(server);
    const purchase = await approvedPurchase(user);
    const refund = await api(server).post(`/admin/payments/${purchase.id}/refund`, { reason: 'Pedido do cliente' }, tokenFor(server, admin));
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    const res = await receipt(purchase.id, tokenFor(server, user));
    expect(res.status).to.equal(200);
    expect(res.text).to.include('ESTORNADO');
    expect(res.text).to.include(FISCAL_MESSAGES.receiptRefundedNote);
  });
});

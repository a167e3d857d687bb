import { expect } from 'chai';
import {
  BILLING_MESSAGES,
  type AdminUserDetail,
  type ApiPurchase,
  type BillingDetailsResponse,
  type CheckoutResponse,
  type CreatePixResponse,
} from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { DEFAULT_PASSWORD, TEST_BILLING, buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { auditEvent } from './helpers/audit.js';
import type { Plan } from '../src/models/index.js';

const COMPANY = {
  document: '11.222.333/0001-81',
  name: 'Ação & Cia Desenvolvimento Ltda',
  email: 'Fiscal@Empresa.com.br',
  cep: '30130-010',
  street: 'Avenida Afonso Pena',
  number: '1500',
  complement: 'Sala 12',
  district: 'Centro',
  city: 'Belo Horizonte',
  cityCode: '3106200',
  state: 'MG',
};

describe('fiscal: billing details', () => {
  let server: TestServer;
  let plan: Plan;
  let adminToken: string;

  before(async () => {
    server = await startTestServer();
    plan = await buildPlan(server, { name: 'Pacote 10', priceCents: 1990, credits: 10 });
    adminToken = tokenFor(server, await buildAdmin(server));
  });
  after(async () => server?.stop());

  it('put_validCompany_savedNormalisedAndReadBack', async () => {
    const user = await buildUser(server, { billingDetails: null });
    const token = tokenFor(server, user);
    expect((await api(server).get<BillingDetailsResponse>('/account/billing', token)).body.billingDetails).to.equal(null);

    const saved = await api(server).put<BillingDetailsResponse>('/account/billing', COMPANY, token);
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body.message).to.equal(BILLING_MESSAGES.saved);
    expect(saved.body.billingDetails).to.deep.include({
      document: '11222333000181',
      documentKind: 'cnpj',
      documentFormatted: '11.222.333/0001-81',
      email: 'fiscal@empresa.com.br',
      cep: '30130-010',
      state: 'MG',
    });
    const read = await api(server).get<BillingDetailsResponse>('/account/billing', token);
    expect(read.body.billingDetails?.name).to.equal('Ação & Cia Desenvolvimento Ltda');
  });

  it('put_invalidFields_400WithAPtBrMessagePerField', async () => {
    const token = tokenFor(server, await buildUser(server));
    const res = await api(server).put<{ code: string; fields: Record<string, string> }>(
      '/account/billing',
      { ...COMPANY, document: '11.222.333/0001-82', cep: '3013-010', state: 'XX', email: 'sem-arroba' },
      token,
    );
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('VALIDATION_ERROR');
    expect(res.body.fields).to.deep.include({
      document: BILLING_MESSAGES.documentInvalid,
      cep: BILLING_MESSAGES.cepInvalid,
      state: BILLING_MESSAGES.stateInvalid,
      email: BILLING_MESSAGES.emailInvalid,
    });
    // Nothing was saved: the details stay the ones the user had.
    const read = await api(server).get<BillingDetailsResponse>('/account/billing', token);
    expect(read.body.billingDetails?.document).to.equal(TEST_BILLING.document);
  });

  it('purchase_withoutBillingDetails_refusedBeforeAnyRow', async () => {
    const user = await buildUser(server, { billingDetails: null });
    const token = tokenFor(server, user);
    for (const path of [`/payments/create-pix/${plan.id}`, `/payments/checkout/${plan.id}`]) {
      const res = await api(server).post<{ code: string; message: string }>(path, {}, token);
      expect(res.status, path).to.equal(400);
      expect(res.body).to.deep.include({ code: 'BILLING_DETAILS_REQUIRED', message: BILLING_MESSAGES.required });
    }
    expect(await server.ctx.models.Purchase.count({ where: { userId: user.id } })).to.equal(0);
  });

  it('purchase_keepsTheDetailsAsBought_laterEditsDoNotRewriteIt', async () => {
    const user = await buildUser(server, { billingDetails: null });
    const token = tokenFor(server, user);
    await api(server).put('/account/billing', COMPANY, token);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const checkout = await api(server).post<CheckoutResponse>(`/payments/checkout/${plan.id}`, {}, token);
    expect(checkout.status, JSON.stringify(checkout.body)).to.equal(201);

    await api(server).put('/account/billing', { ...COMPANY, name: 'Outro Nome S.A.', street: 'Rua Nova' }, token);

    for (const id of [pix.body.purchase.id, checkout.body.purchase.id]) {
      const mine = await api(server).get<{ purchase: ApiPurchase }>(`/payments/purchase/${id}`, token);
      expect(mine.body.purchase.billing).to.deep.include({ name: 'Ação & Cia Desenvolvimento Ltda', street: 'Avenida Afonso Pena', documentFormatted: '11.222.333/0001-81' });
    }
    // Admins see the same copy in Compras.
    const list = await api(server).get<{ purchases: (ApiPurchase & { user: { email: string } | null })[] }>('/admin/payments/purchases?limit=100', adminToken);
    const row = list.body.purchases.find((p) => p.id === pix.body.purchase.id);
    expect(row?.billing?.name).to.equal('Ação & Cia Desenvolvimento Ltda');
  });

  it('change_isAuditedWithTheChangedFieldsNotTheirValues_andAdminSeesTheDetails', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    await api(server).put('/account/billing', { ...COMPANY }, token);
    const event = await auditEvent(server, adminToken, 'account.billing_updated', user.id);
    expect(event.details).to.deep.include({ first: false });
    expect(event.details?.fields).to.include.members(['document', 'name', 'cep']);
    expect(JSON.stringify(event)).to.not.include('11222333000181');

    const detail = await api(server).get<AdminUserDetail>(`/admin/users/${user.id}`, adminToken);
    expect(detail.status).to.equal(200);
    expect(detail.body.billingDetails?.documentFormatted).to.equal('11.222.333/0001-81');
  });

  it('billingRoute_onlyTheCallersOwn_andTheAdminUserRouteRefusesCustomers', async () => {
    const other = await buildUser(server, { billingDetails: { ...TEST_BILLING, name: 'Segredo Alheio' } });
    const token = tokenFor(server, await buildUser(server));
    const mine = await api(server).get<BillingDetailsResponse>('/account/billing', token);
    expect(mine.body.billingDetails?.name).to.not.equal('Segredo Alheio');
    // A customer is not an admin: the admin user route answers 403.
    expect((await api(server).get(`/admin/users/${other.id}`, token)).status).to.equal(403);
  });

  it('accountDeleted_itsBillingDetailsCleared_thePurchasesCopyKeptAsTheFiscalRecord', async () => {
    const user = await buildUser(server, { billingDetails: { ...TEST_BILLING, name: 'Titular Que Sai' } });
    const token = tokenFor(server, user);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    expect(pix.status).to.equal(201);
    const deleted = await api(server).request('DELETE', '/account', { password: DEFAULT_PASSWORD }, { token });
    expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
    const row = await server.ctx.models.User.findByPk(user.id, { paranoid: false, rejectOnEmpty: true });
    expect(row.billingDetails).to.equal(null);
    const purchase = await server.ctx.models.Purchase.findByPk(pix.body.purchase.id, { rejectOnEmpty: true });
    expect(purchase.billingSnapshot?.name).to.equal('Titular Que Sai');
  });
});

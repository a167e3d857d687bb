import { expect } from 'chai';
import { FISCAL_MESSAGES, type ApiPurchase, type CreatePixResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { TEST_BILLING, buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import { Op } from 'sequelize';
import { waitFor } from './helpers/conversions.js';
import { FocusNfeStandIn } from './helpers/focusNfeStandIn.js';
import type { Plan, User } from '../src/models/index.js';

const TOKEN = 'focus-token-de-teste';
const COMPANY = { ...TEST_BILLING, document: '11222333000181', name: 'Empresa Tomadora Ltda', complement: 'Conjunto 5' };
const FAST = { fiscal: { retryDelayMs: 100, minPollMs: 150, maxAttempts: 3 } };

async function configureNfse(server: TestServer, overrides: Record<string, unknown> = {}): Promise<void> {
  const values: Record<string, unknown> = {
    'nfse.token': TOKEN,
    'fiscal.sellerCnpj': '11.444.777/0001-61',
    'nfse.municipalRegistration': '12345678',
    'nfse.cityCode': '3550308',
    'nfse.serviceCode': '01.05',
    'nfse.issRate': '2,5',
    'nfse.simplesNacional': 'sim',
    ...overrides,
  };
  for (const [key, value] of Object.entries(values)) {
    if (value === null) await server.ctx.settings.unset(key as 'nfse.serviceCode');
    else await server.ctx.settings.set(key as 'nfse.token', value);
  }
}

describe('fiscal: NFS-e through Focus NFe', () => {
  let focus: FocusNfeStandIn;
  let server: TestServer;
  let plan: Plan;
  let admin: User;

  before(async () => {
    focus = await FocusNfeStandIn.start({ token: TOKEN });
    server = await startTestServer({ NFSE_API_URL: focus.url }, FAST);
    plan = await buildPlan(server, { name: 'Pacote 10', priceCents: 4990, credits: 10 });
    admin = await buildAdmin(server);
    await configureNfse(server);
  });
  after(async () => {
    await server?.stop();
    await focus?.stop();
  });

  async function approvedPurchase(user: User, srv: TestServer = server, p: Plan = plan): Promise<ApiPurchase> {
    const token = tokenFor(srv, user);
    const pix = await api(srv).post<CreatePixResponse>(`/payments/create-pix/${p.id}`, undefined, token);
    expect(pix.status, JSON.stringify(pix.body)).to.equal(201);
    const approved = await api(srv).post<{ purchase: ApiPurchase }>(`/payments/simulate-approval/${pix.body.payment.id}`, undefined, token);
    expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
    return approved.body.purchase;
  }

  const purchaseOf = async (id: string, user: User, srv: TestServer = server) =>
    (await api(srv).get<{ purchase: ApiPurchase }>(`/payments/purchase/${id}`, tokenFor(srv, user))).body.purchase;

  const noteIn = (id: string, user: User, ...statuses: string[]) =>
    waitFor(async () => {
      const p = await purchaseOf(id, user);
      return p.fiscalNote && statuses.includes(p.fiscalNote.status) ? p : undefined;
    }, 20_000, `NFS-e ${statuses.join('/')}`);

  it('approval_requestsTheNoteWithBuyerServiceAndSeller_thenAuthorizedWithLinks', async () => {
    const user = await buildUser(server, { billingDetails: COMPANY });
    const purchase = await approvedPurchase(user);
    const ref = `aabify-${purchase.id}`;
    const sent = await waitFor(() => focus.note(ref), 20_000, 'the note at the provider');
    const post = focus.requests.find((r) => r.method === 'POST' && r.path === `/v2/nfse?ref=${ref}`);
    expect(post?.authorization).to.equal(`Basic ${Buffer.from(`${TOKEN}:`).toString('base64')}`);
    expect(sent.request).to.deep.include({ natureza_operacao: 1, optante_simples_nacional: true });
    expect(sent.request.prestador).to.deep.equal({ cnpj: '11444777000161', inscricao_municipal: '12345678', codigo_municipio: '3550308' });
    expect(sent.request.tomador).to.deep.equal({
      cnpj: '11222333000181',
      razao_social: 'Empresa Tomadora Ltda',
      email: TEST_BILLING.email,
      endereco: { logradouro: 'Avenida Paulista', numero: '1000', complemento: 'Conjunto 5', bairro: 'Bela Vista', codigo_municipio: '3550308', uf: 'SP', cep: '01310100' },
    });
    expect(sent.request.servico).to.deep.include({ valor_servicos: 49.9, aliquota: 2.5, iss_retido: false, item_lista_servico: '01.05' });
    expect(sent.request.data_emissao).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-03:00$/);

    const processing = await noteIn(purchase.id, user, 'processando');
    expect(processing.fiscalNote?.statusLabel).to.equal('NFS-e em processamento');
    focus.authorize(ref);
    const authorized = await noteIn(purchase.id, user, 'autorizada');
    expect(authorized.fiscalNote).to.deep.include({ number: sent.numero, verificationCode: sent.codigo_verificacao, errorMessage: null });
    expect(authorized.fiscalNote?.pdfUrl).to.equal(`${focus.url}/notas/${ref}.pdf`);
    expect(authorized.fiscalNote?.xmlUrl).to.equal(`${focus.url}/arquivos/${ref}-nfse.xml`);
  });

  it('municipalityRefuses_noteShowsTheProvidersMessage', async () => {
    const user = await buildUser(server);
    const purchase = await approvedPurchase(user);
    const ref = `aabify-${purchase.id}`;
    await waitFor(() => focus.note(ref), 20_000, 'the note at the provider');
    focus.refuse(ref, 'Código de serviço não permitido para o município');
    const refused = await noteIn(purchase.id, user, 'erro');
    expect(refused.fiscalNote?.errorMessage).to.equal('Código de serviço não permitido para o município');
    // The buyer is a person: the request named a CPF.
    expect(focus.note(ref)?.request.tomador).to.deep.include({ cpf: TEST_BILLING.document });
  });

  it('providerDown_retriedWithBackoff_thenRequested', async () => {
    focus.failNext(2);
    const user = await buildUser(server);
    const purchase = await approvedPurchase(user);
    const ref = `aabify-${purchase.id}`;
    await waitFor(() => focus.note(ref), 20_000, 'the note at the provider after the failures');
    // Two answered 503, the third was accepted: one request per run of the job, with backoff between.
    const posts = focus.requests.filter((r) => r.method === 'POST' && r.path === `/v2/nfse?ref=${ref}`);
    expect(posts.map((r) => r.status)).to.deep.equal([503, 503, 202]);
    // The job records the request once the provider's answer is back: read the row once it has.
    const row = await waitFor(
      async () => (await server.ctx.models.FiscalNote.findOne({ where: { purchaseId: purchase.id, requestedAt: { [Op.ne]: null } } })) ?? undefined,
      20_000,
      'the note recorded as requested',
    );
    expect(row.attempts).to.equal(0);
  });

  it('providerDownBeyondTheRetryBudget_noteShowsTheError', async () => {
    focus.failNext(50);
    try {
      const user = await buildUser(server);
      const purchase = await approvedPurchase(user);
      const failed = await noteIn(purchase.id, user, 'erro');
      expect(failed.fiscalNote?.errorMessage).to.include(FISCAL_MESSAGES.nfseGaveUp);
      expect(failed.fiscalNote?.errorMessage).to.include('Serviço temporariamente indisponível');
      expect(focus.note(`aabify-${purchase.id}`)).to.equal(undefined);
    } finally {
      focus.failNext(0);
    }
  });

  it('refundByAdmin_cancelsTheAuthorizedNoteWithAJustification', async () => {
    const user = await buildUser(server);
    const purchase = await approvedPurchase(user);
    const ref = `aabify-${purchase.id}`;
    await waitFor(() => focus.note(ref), 20_000, 'the note at the provider');
    focus.authorize(ref);
    await noteIn(purchase.id, user, 'autorizada');
    const refund = await api(server).post(`/admin/payments/${purchase.id}/refund`, {}, tokenFor(server, admin));
    expect(refund.status, JSON.stringify(refund.body)).to.equal(200);
    const cancelled = await noteIn(purchase.id, user, 'cancelada');
    expect(cancelled.fiscalNote?.cancelledAt).to.be.a('string');
    expect(focus.note(ref)).to.deep.include({ status: 'cancelado', justificativa: FISCAL_MESSAGES.nfseCancelJustification });
  });

  it('anotherUsersPurchase_itsNoteIsNotReachable', async () => {
    const owner = await buildUser(server);
    const purchase = await approvedPurchase(owner);
    const stranger = tokenFor(server, await buildUser(server));
    const res = await api(server).get(`/payments/purchase/${purchase.id}`, stranger);
    expect(res.status).to.equal(404);
    expect(JSON.stringify(res.body)).to.not.include('fiscalNote');
  });

  it('incompleteFiscalSettings_noteInErrorNamingWhatIsMissing_nothingSent', async () => {
    await configureNfse(server, { 'nfse.serviceCode': null });
    try {
      const user = await buildUser(server);
      const purchase = await approvedPurchase(user);
      const failed = await noteIn(purchase.id, user, 'erro');
      expect(failed.fiscalNote?.errorMessage).to.equal(FISCAL_MESSAGES.nfseMissingSettings('item da lista de serviços'));
      expect(focus.note(`aabify-${purchase.id}`)).to.equal(undefined);
    } finally {
      await configureNfse(server);
    }
  });
});

describe('fiscal: without an NFS-e provider', () => {
  let focus: FocusNfeStandIn;
  let server: TestServer;

  before(async () => {
    focus = await FocusNfeStandIn.start({ token: TOKEN });
    server = await startTestServer({ NFSE_API_URL: focus.url }, FAST);
  });
  after(async () => {
    await server?.stop();
    await focus?.stop();
  });

  it('approval_requestsNothing_andAdminComprasAndSettingsSaySo', async () => {
    const plan = await buildPlan(server, { name: 'Pacote 5', priceCents: 990, credits: 5 });
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const pix = await api(server).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, token);
    const approved = await api(server).post<{ purchase: ApiPurchase }>(`/payments/simulate-approval/${pix.body.payment.id}`, undefined, token);
    expect(approved.body.purchase.status).to.equal('approved');
    // Give a job every chance to run: none exists, and nothing reaches the provider.
    await new Promise((r) => setTimeout(r, 1000));
    expect(await server.ctx.models.FiscalNote.count()).to.equal(0);
    expect(focus.requests).to.have.length(0);
    expect((await api(server).get<{ purchase: ApiPurchase }>(`/payments/purchase/${approved.body.purchase.id}`, token)).body.purchase.fiscalNote).to.equal(null);

    const adminToken = tokenFor(server, await buildAdmin(server));
    const list = await api(server).get<{ nfse: { configured: boolean; message: string } }>('/admin/payments/purchases', adminToken);
    expect(list.body.nfse).to.deep.equal({ configured: false, message: FISCAL_MESSAGES.nfseNotConfigured });
    const settings = await api(server).get<{ configs: { key: string; hint?: string | null }[] }>('/admin/config', adminToken);
    expect(settings.body.configs.find((c) => c.key === 'nfse.token')?.hint).to.equal(FISCAL_MESSAGES.nfseNotConfigured);
  });
});

/**
 * The sandbox's hosted checkout through HTTP: only its buyer reads or pays it, a card paid in
 * installments is applied once and recorded with its method, a closed checkout takes no second
 * payment, a boleto stays pending until simulated, and USD checkouts offer no boleto.
 */
import { expect } from 'chai';
import type { ApiSandboxCheckout, CheckoutResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import type { Plan, User } from '../src/models/index.js';

describe('payments: the sandbox hosted checkout', () => {
  let server: TestServer;
  let pack: Plan;
  let dollars: Plan;

  before(async () => {
    server = await startTestServer();
    pack = await buildPlan(server, { name: 'Pacote Sandbox', priceCents: 4990, credits: 30 });
    dollars = await buildPlan(server, { name: 'Dollar Sandbox', priceCents: 990, credits: 10, currency: 'USD' });
  });
  after(async () => {
    await server?.stop();
  });

  async function checkout(user: User, plan: Plan): Promise<{ body: CheckoutResponse; checkoutId: string }> {
    const res = await api(server).post<CheckoutResponse>(`/payments/checkout/${plan.id}`, { renew: false }, tokenFor(server, user));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.checkoutUrl).to.match(/^\/sandbox\/checkout\//);
    return { body: res.body, checkoutId: res.body.checkoutUrl.split('/').at(-1)! };
  }
  const credits = async (user: User) => (await server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true })).credits;

  it('anotherUsersCheckout_cannotBeReadOrPaid_404', async () => {
    const buyer = await buildUser(server);
    const stranger = await buildUser(server);
    const { body, checkoutId } = await checkout(buyer, pack);
    expect((await api(server).get(`/payments/sandbox/checkouts/${checkoutId}`, tokenFor(server, stranger))).status).to.equal(404);
    const paid = await api(server).post(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'card', outcome: 'approved' }, tokenFor(server, stranger));
    expect(paid.status).to.equal(404);
    expect((await server.ctx.models.Purchase.findByPk(body.purchase.id, { rejectOnEmpty: true })).status).to.equal('pending');
    expect(await credits(stranger)).to.equal(0);
  });

  it('cardIn3x_appliedOnceWithItsMethod_closedCheckoutRefusesASecondPayment', async () => {
    const buyer = await buildUser(server);
    const { body, checkoutId } = await checkout(buyer, pack);
    const page = await api(server).get<{ checkout: ApiSandboxCheckout }>(`/payments/sandbox/checkouts/${checkoutId}`, tokenFor(server, buyer));
    expect(page.body.checkout).to.deep.include({ kind: 'payment', status: 'open', amountCents: 4990, currency: 'BRL', methods: ['card', 'boleto'], maxInstallments: 12 });
    const paid = await api(server).post(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'card', outcome: 'approved', installments: 3 }, tokenFor(server, buyer));
    expect(paid.status, JSON.stringify(paid.body)).to.equal(200);
    expect(await credits(buyer)).to.equal(30);
    const again = await api(server).post(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'card', outcome: 'approved' }, tokenFor(server, buyer));
    expect(again.status).to.equal(409);
    expect(await credits(buyer)).to.equal(30);
    expect(await server.ctx.models.Purchase.findByPk(body.purchase.id, { rejectOnEmpty: true })).to.include({ status: 'approved', method: 'card', installments: 3 });
  });

  it('boleto_pendingUntilSimulated_thenApplied', async () => {
    const buyer = await buildUser(server);
    const { body, checkoutId } = await checkout(buyer, pack);
    const issued = await api(server).post<{ payment: { id: string } }>(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'boleto' }, tokenFor(server, buyer));
    expect(issued.status, JSON.stringify(issued.body)).to.equal(200);
    expect(await server.ctx.models.Purchase.findByPk(body.purchase.id, { rejectOnEmpty: true })).to.include({ status: 'pending', method: 'boleto' });
    expect(await credits(buyer)).to.equal(0);
    expect((await api(server).post(`/payments/simulate-approval/${issued.body.payment.id}`, undefined, tokenFor(server, buyer))).status).to.equal(200);
    expect(await credits(buyer)).to.equal(30);
  });

  it('usdCheckout_offersCardOnly_boletoRefused400', async () => {
    const buyer = await buildUser(server);
    const { checkoutId } = await checkout(buyer, dollars);
    const page = await api(server).get<{ checkout: ApiSandboxCheckout }>(`/payments/sandbox/checkouts/${checkoutId}`, tokenFor(server, buyer));
    expect(page.body.checkout).to.deep.include({ currency: 'USD', methods: ['card'] });
    const boleto = await api(server).post(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'boleto' }, tokenFor(server, buyer));
    expect(boleto.status).to.equal(400);
    expect(await credits(buyer)).to.equal(0);
  });

  it('badOutcome_400WithThePtBrMessage', async () => {
    const buyer = await buildUser(server);
    const { checkoutId } = await checkout(buyer, pack);
    const res = await api(server).post(`/payments/sandbox/checkouts/${checkoutId}/pay`, { method: 'pix', outcome: 'approved' }, tokenFor(server, buyer));
    expect(res.status).to.equal(400);
    expect(JSON.stringify(res.body)).to.contain('Resultado de pagamento inválido');
  });
});

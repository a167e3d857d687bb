import { expect } from 'chai';
import { pino } from 'pino';
import { PAYMENT_MESSAGES as M, type AdminConfigResponse, type CreatePixResponse, type PaymentConfigResponse, type PaymentsStatus } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createTestDatabase } from './helpers/postgres.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan } from './helpers/planFactories.js';
import type { Plan, User } from '../src/models/index.js';

const TOKEN = 'APP_USR-5550001-real-money-token-7788';
const WEBHOOK_SECRET = 'mp-webhook-secret-other-key-0099';
/** Not the test servers' shared key: what a process given the wrong key sees. */
const OTHER_ENCRYPTION_KEY = 'f0'.repeat(32);

/** Rows once the query finds some (the notice is queued right after start-up, off the request path). */
async function waitForRows<T>(query: () => Promise<T[]>, ms = 10000): Promise<T[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const rows = await query();
    if (rows.length || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A logger that keeps its JSON lines, to read the start-up line. */
function capturingLogger() {
  const lines: string[] = [];
  return { lines, logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) };
}

describe('payments: a configured provider that cannot be used is an error state, never the sandbox', function () {
  this.timeout(120000);

  describe('Mercado Pago key stored under another encryption key', () => {
    let databaseUrl: string;
    let server: TestServer;
    let logs: string[];
    let plan: Plan;
    let user: User;
    let admin: User;
    let sandboxPayment: { id: string; purchaseId: string };

    before(async () => {
      databaseUrl = await createTestDatabase();
      // Data dir A: the sandbox at first (a user opens a charge), then an admin stores the keys.
      const first = await startTestServer({}, { databaseUrl });
      try {
        plan = await buildPlan(first, { name: 'Pacote 10', priceCents: 1990, credits: 10 });
        user = await buildUser(first);
        admin = await buildAdmin(first);
        const pix = await api(first).post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(first, user));
        expect(pix.status).to.equal(201);
        expect(pix.body.payment.provider).to.equal('sandbox');
        sandboxPayment = { id: pix.body.payment.id, purchaseId: pix.body.purchase.id };
        for (const [key, value] of [['payments.mercadopago.accessToken', TOKEN], ['payments.mercadopago.webhookSecret', WEBHOOK_SECRET]]) {
          expect((await api(first).put(`/admin/config/${key}`, { value }, tokenFor(first, admin))).status).to.equal(200);
        }
      } finally {
        await first.stop();
      }
      // Process B: the same database, another ENCRYPTION_KEY (and no ENCRYPTION_KEY_PREVIOUS).
      const capture = capturingLogger();
      logs = capture.lines;
      server = await startTestServer({ ENCRYPTION_KEY: OTHER_ENCRYPTION_KEY }, { databaseUrl, logger: capture.logger });
    });
    after(async () => server?.stop());

    const userToken = () => tokenFor(server, user);
    const adminToken = () => tokenFor(server, admin);

    it('startUp_logsOneErrorLineWithTheReasonAndNoSecret', () => {
      const lines = logs.map((l) => JSON.parse(l) as { level: number; msg: string; reason?: string });
      const unavailable = lines.filter((l) => l.msg.startsWith('payments unavailable'));
      expect(unavailable, logs.join('\n')).to.have.length(1);
      expect(unavailable[0]).to.include({ level: 50, reason: 'ACCESS_TOKEN_UNREADABLE' });
      expect(unavailable[0].msg).to.contain('cannot be decrypted');
      expect(lines.some((l) => l.msg.includes('sandbox provider')), 'no switch to the sandbox').to.equal(false);
      expect(logs.join('\n')).to.not.contain(TOKEN).and.not.contain(WEBHOOK_SECRET);
    });

    it('startUp_everyAdminGetsTheUnusableProviderNoticeInTheOutbox', async () => {
      const notices = await waitForRows(() => server.ctx.models.EmailMessage.findAll({ where: { kind: 'admin_notice', to: admin.email } }));
      expect(notices.map((n) => n.subject)).to.include('[aabify] Provedor de pagamentos configurado não pode ser usado');
      expect(JSON.stringify(notices.map((n) => n.toJSON()))).to.not.contain(TOKEN);
    });

    it('simulateApproval_ownSandboxCharge_refused403AndNothingApproved', async () => {
      // The attack: with the key unreadable the old code fell back to the sandbox and let the
      // buyer approve their own purchase.
      const res = await api(server).post(`/payments/simulate-approval/${sandboxPayment.id}`, undefined, userToken());
      expect(res.status, JSON.stringify(res.body)).to.equal(403);
      expect(res.body).to.include({ code: 'SANDBOX_ONLY', message: M.sandboxOnly });
      const purchase = await server.ctx.models.Purchase.findByPk(sandboxPayment.purchaseId, { rejectOnEmpty: true });
      expect(purchase.status).to.equal('pending');
      expect((await server.ctx.models.User.findByPk(user.id, { rejectOnEmpty: true })).credits).to.equal(0);
      // Nor can an admin approve a sandbox charge while a real provider is configured.
      expect((await api(server).post(`/admin/payments/${sandboxPayment.id}/approve`, {}, adminToken())).status).to.equal(403);
    });

    it('createPix_refused503PaymentsUnavailableBeforeAnyRow', async () => {
      const before = await server.ctx.models.Purchase.count();
      const res = await api(server).post(`/payments/create-pix/${plan.id}`, undefined, userToken());
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ code: 'PAYMENTS_UNAVAILABLE', message: M.paymentsUnavailable });
      expect(await server.ctx.models.Purchase.count()).to.equal(before);
    });

    it('debugRoutes_answer404AsIfAbsent', async () => {
      expect((await api(server).get(`/debug/user-state/${user.id}`, adminToken())).status).to.equal(404);
      const simulate = await api(server).post('/debug/simulate-purchase', { userId: user.id, planId: plan.id, autoApprove: true }, adminToken());
      expect(simulate.status).to.equal(404);
      expect((await api(server).post('/debug/test-apply-plan', { userId: user.id, planId: plan.id }, adminToken())).status).to.equal(404);
    });

    it('webhook_refused503SoMercadoPagoRetriesLater', async () => {
      const res = await api(server).post('/payments/webhook?data.id=123&type=payment', { type: 'payment', data: { id: '123' } });
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ code: 'PAYMENTS_UNAVAILABLE' });
    });

    it('paymentsConfig_saysUnavailableWithoutTheReasonOrASecret', async () => {
      const res = await api(server).get<PaymentConfigResponse>('/payments/config');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        provider: 'mercadopago',
        sandbox: false,
        available: false,
        canSimulateApproval: false,
        publicKey: null,
        unavailableMessage: M.paymentsUnavailable,
      });
      expect(JSON.stringify(res.body)).to.not.contain(TOKEN);
    });

    it('adminConfig_showsTheErrorAndTheUnreadableKeysWithoutSecrets', async () => {
      const res = await api(server).get<AdminConfigResponse>('/admin/config', adminToken());
      expect(res.status).to.equal(200);
      const expected: PaymentsStatus = {
        provider: 'mercadopago',
        label: 'Mercado Pago',
        sandbox: false,
        available: false,
        reason: 'ACCESS_TOKEN_UNREADABLE',
        message: 'A chave do Mercado Pago não pôde ser lida (foi salva com outra chave de criptografia). Cadastre-a de novo em Configurações.',
        // BRL stays Mercado Pago's (purchases answer 503 until fixed); nothing else charges USD or EUR.
        routes: { BRL: { provider: 'mercadopago', pix: true, card: true, renewal: true, maxInstallments: 12 }, USD: null, EUR: null },
      };
      expect(res.body.payments).to.deep.equal(expected);
      const token = res.body.configs.find((c) => c.key === 'payments.mercadopago.accessToken')!;
      expect(token).to.include({ isSet: false, source: 'database', value: null, problem: 'O valor salvo não pôde ser lido (foi salvo com outra chave de criptografia). Cadastre-o de novo.' });
      expect(JSON.stringify(res.body)).to.not.contain(TOKEN).and.not.contain(WEBHOOK_SECRET);
      const status = await api(server).get<PaymentsStatus>('/admin/payments/status', adminToken());
      expect(status.body).to.deep.equal(expected);
      expect((await api(server).get('/admin/payments/status', userToken())).status).to.equal(403);
    });

    it('adminStoresTheKeysAgain_paymentsComeBackWithoutRestart', async () => {
      expect((await api(server).put('/admin/config/payments.mercadopago.accessToken', { value: TOKEN }, adminToken())).status).to.equal(200);
      // The webhook secret of the old key is still unreadable: webhooks would go unchecked, so still unavailable.
      let status = await api(server).get<PaymentsStatus>('/admin/payments/status', adminToken());
      expect(status.body).to.include({ available: false, reason: 'WEBHOOK_SECRET_UNREADABLE' });
      expect(status.body.message).to.contain('A assinatura secreta dos webhooks');
      expect((await api(server).put('/admin/config/payments.mercadopago.webhookSecret', { value: WEBHOOK_SECRET }, adminToken())).status).to.equal(200);
      status = await api(server).get<PaymentsStatus>('/admin/payments/status', adminToken());
      expect(status.body).to.deep.include({ provider: 'mercadopago', available: true, reason: null, message: null });
      const config = await api(server).get<PaymentConfigResponse>('/payments/config');
      expect(config.body).to.include({ provider: 'mercadopago', available: true, canSimulateApproval: false, unavailableMessage: null });
    });
  });

  describe('configuration alone', () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.stop();
      server = undefined;
    });

    it('paymentProviderMercadopagoWithoutToken_startsInTheErrorState', async () => {
      const capture = capturingLogger();
      server = await startTestServer({ PAYMENT_PROVIDER: 'mercadopago' }, { logger: capture.logger });
      expect(capture.lines.some((l) => l.includes('"reason":"ACCESS_TOKEN_MISSING"'))).to.equal(true);
      const admin = await buildAdmin(server);
      const user = await buildUser(server);
      const plan = await buildPlan(server, { name: 'Pacote 5', priceCents: 990, credits: 5 });
      const status = await api(server).get<PaymentsStatus>('/admin/payments/status', tokenFor(server, admin));
      expect(status.body).to.include({ provider: 'mercadopago', available: false, reason: 'ACCESS_TOKEN_MISSING' });
      expect(status.body.message).to.contain('PAYMENT_PROVIDER=mercadopago');
      expect((await api(server).post(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, user))).body).to.include({ code: 'PAYMENTS_UNAVAILABLE' });
      expect((await api(server).get(`/debug/user-state/${user.id}`, tokenFor(server, admin))).status).to.equal(404);
      // Saving the token in the settings is enough; no restart.
      expect((await api(server).put('/admin/config/payments.mercadopago.accessToken', { value: TOKEN }, tokenFor(server, admin))).status).to.equal(200);
      expect((await api(server).get<PaymentsStatus>('/admin/payments/status', tokenFor(server, admin))).body).to.include({ available: true });
    });

    it('paymentProviderSandboxBesideAToken_isAConflictNotTheSandbox', async () => {
      server = await startTestServer({ PAYMENT_PROVIDER: 'sandbox', MERCADOPAGO_ACCESS_TOKEN: TOKEN });
      const admin = await buildAdmin(server);
      const status = await api(server).get<PaymentsStatus>('/admin/payments/status', tokenFor(server, admin));
      expect(status.body).to.include({ provider: 'mercadopago', sandbox: false, available: false, reason: 'SANDBOX_CONFLICT' });
      const config = await api(server).get<PaymentConfigResponse>('/payments/config');
      expect(config.body).to.include({ sandbox: false, canSimulateApproval: false, available: false });
    });

    it('nothingConfigured_isTheSandboxAndSaysSoPlainly', async () => {
      server = await startTestServer();
      const admin = await buildAdmin(server);
      const res = await api(server).get<AdminConfigResponse>('/admin/config', tokenFor(server, admin));
      expect(res.body.payments).to.deep.equal({
        provider: 'sandbox',
        label: 'Sandbox: pagamentos simulados, nenhum dinheiro real',
        sandbox: true,
        available: true,
        reason: null,
        message: null,
        // The sandbox stands in for every currency: PIX, card and renewals in BRL, card in USD and EUR.
        routes: {
          BRL: { provider: 'sandbox', pix: true, card: true, renewal: true, maxInstallments: 12 },
          USD: { provider: 'sandbox', pix: false, card: true, renewal: true, maxInstallments: 1 },
          EUR: { provider: 'sandbox', pix: false, card: true, renewal: true, maxInstallments: 1 },
        },
      });
      expect((await api(server).get<PaymentConfigResponse>('/payments/config')).body).to.include({ sandbox: true, canSimulateApproval: true, available: true });
    });
  });
});

/**
 * The audit trail of what admins do to the catalogue and the service, through real HTTP: plans
 * and prices (create, update, toggle, popular, duplicate, delete, bulk, reorder), purchases
 * approved, refunded or cancelled by an admin, renewals an admin stops, settings (secrets masked) and e-mails resent.
 */
import { expect } from 'chai';
import type { CheckoutResponse, CreatePixResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildUser, tokenFor } from './helpers/factories.js';
import { buildPlan, buildPurchase } from './helpers/adminFactories.js';
import { auditEvent, auditEvents } from './helpers/audit.js';
import type { User } from '../src/models/index.js';

const planBody = { name: 'Pacote Auditado', description: 'Dez conversões', type: 'credit', price: 19.9, currency: 'BRL', credits: 10, features: ['Suporte'], isPopular: false, isActive: true };

describe('audit trail: admin actions on plans, purchases, settings and e-mails', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const http = () => api(server);

  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  after(async () => {
    await server?.stop();
  });

  describe('plans and prices', () => {
    it('plansArea_createThenEditPrice_recordsTheNewPlanThenOnlyThePriceChange', async () => {
      const created = await http().post<{ plan: { id: string } }>('/admin/plans', planBody, adminToken);
      expect(created.status).to.equal(201);
      const id = created.body.plan.id;
      const made = await auditEvent(server, adminToken, 'plan.created', id);
      expect(made.actor.id).to.equal(admin.id);
      expect(made.target).to.deep.equal({ type: 'plan', id, label: 'Pacote Auditado' });
      expect(made.before).to.equal(null);
      expect(made.after).to.include({ name: 'Pacote Auditado', priceCents: 1990, credits: 10, isActive: true });

      expect((await http().put(`/admin/plans/${id}`, { ...planBody, price: 24.9 }, adminToken)).status).to.equal(200);
      const edited = await auditEvent(server, adminToken, 'plan.updated', id);
      expect(edited.before).to.deep.equal({ priceCents: 1990 });
      expect(edited.after).to.deep.equal({ priceCents: 2490 });
    });

    it('plansArea_toggleAndPopular_recordEachFlag', async () => {
      const plan = await buildPlan(server, { isActive: true, isPopular: false });
      expect((await http().patch(`/admin/plans/${plan.id}/toggle-status`, undefined, adminToken)).status).to.equal(200);
      expect((await auditEvent(server, adminToken, 'plan.updated', plan.id)).after).to.deep.equal({ isActive: false });
      expect((await http().patch(`/admin/plans/${plan.id}/set-popular`, { popular: true }, adminToken)).status).to.equal(200);
      const popular = await auditEvent(server, adminToken, 'plan.updated', plan.id);
      expect(popular.before).to.deep.equal({ isPopular: false });
      expect(popular.after).to.deep.equal({ isPopular: true });
    });

    it('plansArea_duplicate_recordsTheCopyAndItsSource', async () => {
      const plan = await buildPlan(server, { name: 'Original' });
      const res = await http().post<{ plan: { id: string } }>(`/admin/plans/${plan.id}/duplicate`, { newName: 'Cópia Auditada' }, adminToken);
      expect(res.status).to.equal(201);
      const event = await auditEvent(server, adminToken, 'plan.duplicated', res.body.plan.id);
      expect(event.after).to.include({ name: 'Cópia Auditada', isActive: false });
      expect(event.details).to.deep.equal({ sourcePlanId: plan.id, sourcePlanName: 'Original' });
    });

    it('plansArea_deleteUnsoldAndSold_recordsRemovalAndDeactivation', async () => {
      const unsold = await buildPlan(server, { name: 'Nunca Vendido' });
      expect((await http().delete(`/admin/plans/${unsold.id}`, adminToken)).status).to.equal(200);
      const removed = await auditEvent(server, adminToken, 'plan.deleted', unsold.id);
      expect(removed.before).to.include({ name: 'Nunca Vendido' });
      expect(removed.after).to.equal(null);
      expect(removed.details).to.deep.equal({ outcome: 'deleted' });

      const sold = await buildPlan(server, { name: 'Vendido' });
      await buildPurchase(server, await buildUser(server), sold);
      expect((await http().delete(`/admin/plans/${sold.id}`, adminToken)).status).to.equal(200);
      const deactivated = await auditEvent(server, adminToken, 'plan.deleted', sold.id);
      expect(deactivated.after).to.include({ isActive: false });
      expect(deactivated.details).to.deep.equal({ outcome: 'deactivated' });
    });

    it('plansArea_bulkUpdateAndBulkDelete_recordOneEventPerPlan', async () => {
      const a = await buildPlan(server, { priceCents: 1000 });
      const b = await buildPlan(server, { priceCents: 2000 });
      const res = await http().patch('/admin/plans/bulk-update', { planIds: [a.id, b.id], updates: { price: 9.9 } }, adminToken);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      for (const [plan, cents] of [[a, 1000], [b, 2000]] as const) {
        const event = await auditEvent(server, adminToken, 'plan.updated', plan.id);
        expect(event.before).to.deep.equal({ priceCents: cents });
        expect(event.after).to.deep.equal({ priceCents: 990 });
        expect(event.details).to.deep.equal({ bulk: true });
      }
      const gone = await http().request('DELETE', '/admin/plans/bulk-delete', { planIds: [a.id, b.id] }, { token: adminToken });
      expect(gone.status).to.equal(200);
      for (const plan of [a, b]) expect((await auditEvent(server, adminToken, 'plan.deleted', plan.id)).details).to.deep.equal({ outcome: 'deleted', bulk: true });
    });

    it('plansArea_reorder_recordsEachPlanWhoseOrderChanged', async () => {
      const a = await buildPlan(server, { displayOrder: 1 });
      const b = await buildPlan(server, { displayOrder: 2 });
      const res = await http().patch('/admin/plans/reorder', { planOrders: [{ planId: a.id, displayOrder: 2 }, { planId: b.id, displayOrder: 2 }] }, adminToken);
      expect(res.status).to.equal(200);
      const moved = await auditEvent(server, adminToken, 'plan.reordered', a.id);
      expect(moved.before).to.deep.equal({ displayOrder: 1 });
      expect(moved.after).to.deep.equal({ displayOrder: 2 });
      // b kept its place: nothing to record.
      expect(await auditEvents(server, adminToken, 'plan.reordered', b.id)).to.deep.equal([]);
    });
  });

  describe('purchases', () => {
    async function pendingPurchase(): Promise<{ customer: User; purchaseId: string; paymentId: string }> {
      const customer = await buildUser(server);
      const plan = await buildPlan(server, { name: 'Plano da Compra', priceCents: 1500 });
      const res = await http().post<CreatePixResponse>(`/payments/create-pix/${plan.id}`, undefined, tokenFor(server, customer));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return { customer, purchaseId: res.body.purchase.id, paymentId: res.body.payment.id };
    }

    it('purchasesArea_approveThenRefund_recordsEachTransitionAsTheAdmins', async () => {
      const { customer, purchaseId, paymentId } = await pendingPurchase();
      expect((await http().post(`/admin/payments/${purchaseId}/approve`, {}, adminToken)).status).to.equal(200);
      const approved = await auditEvent(server, adminToken, 'purchase.approved', purchaseId);
      expect(approved.actor.id).to.equal(admin.id);
      expect(approved.target).to.deep.equal({ type: 'purchase', id: purchaseId, label: 'Plano da Compra' });
      expect(approved.accountId).to.equal(customer.id);
      expect(approved.before).to.deep.equal({ status: 'pending' });
      expect(approved.after).to.deep.equal({ status: 'approved' });
      expect(approved.details).to.include({ amountCents: 1500, paymentId });

      expect((await http().post(`/admin/payments/${paymentId}/refund`, { reason: 'Cliente pediu' }, adminToken)).status).to.equal(200);
      const refunded = await auditEvent(server, adminToken, 'purchase.refunded', purchaseId);
      expect(refunded.before).to.deep.equal({ status: 'approved' });
      expect(refunded.after).to.deep.equal({ status: 'refunded' });
      expect(refunded.details).to.include({ reason: 'Cliente pediu' });
    });

    it('purchasesArea_cancelledByAdminNotByOwner_onlyTheAdminsCancellationIsRecorded', async () => {
      const byAdmin = await pendingPurchase();
      expect((await http().patch(`/payments/cancel/${byAdmin.paymentId}`, undefined, adminToken)).status).to.equal(200);
      const event = await auditEvent(server, adminToken, 'purchase.cancelled', byAdmin.purchaseId);
      expect(event.before).to.deep.equal({ status: 'pending' });
      expect(event.after).to.deep.equal({ status: 'cancelled' });
      expect(event.details).to.include({ reason: 'Cancelado por administrador' });

      const byOwner = await pendingPurchase();
      expect((await http().patch(`/payments/cancel/${byOwner.paymentId}`, undefined, tokenFor(server, byOwner.customer))).status).to.equal(200);
      expect(await auditEvents(server, adminToken, 'purchase.cancelled', byOwner.purchaseId)).to.deep.equal([]);
    });
    it('purchasesArea_renewalCancelledByAdminNotByOwner_onlyTheAdminsCancellationIsRecorded', async () => {
      const plan = await buildPlan(server, { name: 'Mensal Auditado', type: 'subscription', durationMonths: 1, priceCents: 2990 });
      const renewalOf = async (customer: User) => {
        const res = await http().post<CheckoutResponse>(`/payments/checkout/${plan.id}`, { renew: true }, tokenFor(server, customer));
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
        return res.body.renewal!.id;
      };
      const customer = await buildUser(server);
      const renewalId = await renewalOf(customer);
      expect((await http().post(`/payments/renewals/${renewalId}/cancel`, {}, adminToken)).status).to.equal(200);
      const event = await auditEvent(server, adminToken, 'renewal.cancelled', renewalId);
      expect(event.actor.id).to.equal(admin.id);
      expect(event.target).to.deep.equal({ type: 'renewal', id: renewalId, label: 'Mensal Auditado' });
      expect(event.accountId).to.equal(customer.id);
      expect(event.before).to.deep.equal({ status: 'pending' });
      expect(event.after).to.deep.equal({ status: 'cancelled' });
      expect(event.details).to.include({ reason: 'Cancelada por administrador', amountCents: 2990 });

      const owner = await buildUser(server);
      const own = await renewalOf(owner);
      expect((await http().post(`/payments/renewals/${own}/cancel`, {}, tokenFor(server, owner))).status).to.equal(200);
      expect(await auditEvents(server, adminToken, 'renewal.cancelled', own)).to.deep.equal([]);
    });
  });

  describe('settings and e-mails', () => {
    it('settingsArea_plainAndSecretValues_recordedWithTheSecretMasked', async () => {
      expect((await http().put('/admin/config/conversions.retentionDays', { value: 14 }, adminToken)).status).to.equal(200);
      const plain = await auditEvent(server, adminToken, 'setting.changed', 'conversions.retentionDays');
      expect(plain.target).to.deep.equal({ type: 'setting', id: 'conversions.retentionDays', label: 'Por quanto tempo guardar os arquivos' });
      expect(plain.before).to.deep.equal({ value: 7 });
      expect(plain.after).to.deep.equal({ value: 14 });

      const secret = 'APP_USR-segredo-muito-secreto-9876';
      expect((await http().put('/admin/config/payments.mercadopago.webhookSecret', { value: secret }, adminToken)).status).to.equal(200);
      const masked = await auditEvent(server, adminToken, 'setting.changed', 'payments.mercadopago.webhookSecret');
      expect(masked.after).to.deep.equal({ value: '••••••••9876' });
      const csv = await http().get<string>('/admin/audit/export?action=setting.changed', adminToken);
      for (const text of [JSON.stringify(masked), csv.body]) expect(text).to.not.contain('segredo-muito-secreto');
    });

    it('settingsArea_refusedValue_writesNoEvent', async () => {
      const res = await http().put('/admin/config/queue.broadcastInterval', { value: 5 }, adminToken);
      expect(res.status).to.equal(400);
      expect(await auditEvents(server, adminToken, 'setting.changed', 'queue.broadcastInterval')).to.deep.equal([]);
    });

    it('emailsArea_failedMessageResent_queuedAgainAndRecorded', async () => {
      const customer = await buildUser(server);
      const { EmailMessage } = server.ctx.models;
      const failed = await EmailMessage.create({ kind: 'purchase_approved', to: customer.email, userId: customer.id, subject: 'Recibo', data: {}, status: 'failed', attempts: 6, lastError: '451 tente depois' });
      const res = await http().post<{ email: { status: string } }>(`/admin/emails/${failed.id}/resend`, undefined, adminToken);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.email.status).to.equal('queued');
      await failed.reload();
      expect([failed.status, failed.attempts, failed.lastError]).to.deep.equal(['queued', 0, null]);
      const event = await auditEvent(server, adminToken, 'email.resent', failed.id);
      expect(event.target).to.deep.equal({ type: 'email', id: failed.id, label: 'Recibo' });
      expect(event.accountId).to.equal(customer.id);
      expect(event.before).to.deep.equal({ status: 'failed' });
      expect(event.after).to.deep.equal({ status: 'queued' });
      expect(event.details).to.deep.equal({ to: customer.email, kind: 'purchase_approved' });
    });

    it('emailsArea_notFailedOrCarryingALink_refusedAndNotRecorded', async () => {
      const { EmailMessage } = server.ctx.models;
      const sent = await EmailMessage.create({ kind: 'welcome', to: 'a@example.com', userId: null, subject: 'Oi', data: {}, status: 'sent' });
      const linked = await EmailMessage.create({ kind: 'password_reset', to: 'b@example.com', userId: null, subject: 'Senha', data: { linkExpiresAt: new Date().toISOString() }, status: 'failed' });
      expect((await http().post<{ code: string }>(`/admin/emails/${sent.id}/resend`, undefined, adminToken)).body.code).to.equal('EMAIL_NOT_RESENDABLE');
      expect((await http().post<{ code: string }>(`/admin/emails/${linked.id}/resend`, undefined, adminToken)).body.code).to.equal('EMAIL_LINK_NOT_RESENDABLE');
      const customer = await buildUser(server);
      expect((await http().post(`/admin/emails/${sent.id}/resend`, undefined, tokenFor(server, customer))).status).to.equal(403);
      for (const m of [sent, linked]) expect(await auditEvents(server, adminToken, 'email.resent', m.id)).to.deep.equal([]);
    });
  });
});

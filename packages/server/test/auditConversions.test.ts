/**
 * The audit trail of what admins do with customers' conversions, through real HTTP: opening one
 * (status, logs: one event per admin and conversion while the page polls), downloading its AAB,
 * cancelling it, clearing its logs, deleting it, and clearing the queue. An owner's own actions
 * are not admin actions and write nothing.
 */
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { auditEvent, auditEvents } from './helpers/audit.js';
import type { Conversion, User } from '../src/models/index.js';

describe('audit trail: admin actions on customers’ conversions', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  let customer: User;
  let customerToken: string;
  const http = () => api(server);

  before(async () => {
    server = await startTestServer({ ROLE: 'web' });
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
    customer = await buildCreditUser(server, 10);
    customerToken = tokenFor(server, customer);
  });
  after(async () => {
    await server?.stop();
  });

  async function completed(): Promise<Conversion> {
    const c = await buildConversion(server, customer, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `aab/${c.id}.aab`;
    await server.ctx.storage.write(aabKey, Readable.from(Buffer.from('PK-aab-de-teste')));
    return c.update({ aabKey, aabSize: 15 });
  }

  const queued = () => buildConversion(server, customer, { status: 'queued', queuedAt: new Date() });

  it('conversionsArea_adminOpensStatusAndLogs_oneViewEventWhileThePagePolls', async () => {
    const c = await completed();
    for (let i = 0; i < 3; i++) expect((await http().get(`/conversion/status/${c.id}`, adminToken)).status).to.equal(200);
    expect((await http().get(`/conversion/logs/${c.id}`, adminToken)).status).to.equal(200);
    const views = await auditEvents(server, adminToken, 'conversion.viewed', c.id);
    expect(views).to.have.length(1);
    expect(views[0]!.actor.id).to.equal(admin.id);
    expect(views[0]!.target).to.deep.equal({ type: 'conversion', id: c.id, label: c.fileName });
    expect(views[0]!.accountId).to.equal(customer.id);
  });

  it('conversionsArea_ownerOpensAndDownloads_writesNothing', async () => {
    const c = await completed();
    expect((await http().get(`/conversion/status/${c.id}`, customerToken)).status).to.equal(200);
    expect((await http().get(`/conversion/download/${c.id}`, customerToken)).status).to.equal(200);
    expect(await auditEvents(server, adminToken, 'conversion.viewed', c.id)).to.deep.equal([]);
    expect(await auditEvents(server, adminToken, 'conversion.downloaded', c.id)).to.deep.equal([]);
  });

  it('conversionsArea_adminDownloadsWhereAllowed_eachDownloadAndLinkRecorded', async () => {
    expect((await http().put('/admin/config/support.adminDownloads', { value: true }, adminToken)).status).to.equal(200);
    const c = await completed();
    expect((await http().get(`/conversion/download/${c.id}`, adminToken)).status).to.equal(200);
    expect((await http().post(`/conversion/generate-download-link/${c.id}`, undefined, adminToken)).status).to.equal(200);
    expect((await http().post(`/download/generate-download-token/${c.id}`, undefined, adminToken)).status).to.equal(200);
    const downloads = await auditEvents(server, adminToken, 'conversion.downloaded', c.id);
    expect(downloads).to.have.length(3);
    const first = await auditEvent(server, adminToken, 'conversion.downloaded', c.id);
    expect(first.details).to.deep.equal({ how: 'download-link' });
    expect(first.accountId).to.equal(customer.id);
  });

  it('conversionsArea_adminCancels_recordsStatusAndCreditBeforeAndAfter', async () => {
    const c = await buildConversion(server, customer, { status: 'queued', queuedAt: new Date(), creditState: 'reserved' });
    await customer.update({ credits: customer.credits - 1, creditsReserved: customer.creditsReserved + 1 });
    expect((await http().post(`/conversion/cancel/${c.id}`, undefined, adminToken)).status).to.equal(200);
    const event = await auditEvent(server, adminToken, 'conversion.cancelled', c.id);
    expect(event.before).to.deep.equal({ status: 'queued', creditState: 'reserved' });
    expect(event.after).to.deep.equal({ status: 'cancelled', creditState: 'returned' });

    const own = await queued();
    expect((await http().post(`/conversion/cancel/${own.id}`, undefined, customerToken)).status).to.equal(200);
    expect(await auditEvents(server, adminToken, 'conversion.cancelled', own.id)).to.deep.equal([]);
  });

  it('conversionsArea_adminClearsLogsAndDeletes_bothRecorded', async () => {
    const c = await completed();
    await server.ctx.models.ConversionLog.create({ conversionId: c.id, timestamp: new Date(), level: 'info', step: 'parse', message: 'linha de log' });
    const cleared = await http().delete<{ deleted: number }>(`/conversion/logs/${c.id}`, adminToken);
    expect(cleared.status).to.equal(200);
    expect(cleared.body.deleted).to.equal(1);
    expect((await auditEvent(server, adminToken, 'conversion.logs_cleared', c.id)).details).to.deep.equal({ deleted: 1 });

    expect((await http().delete(`/admin/conversions/${c.id}`, adminToken)).status).to.equal(200);
    const deleted = await auditEvent(server, adminToken, 'conversion.deleted', c.id);
    expect(deleted.accountId).to.equal(customer.id);
    expect(deleted.before).to.include({ status: 'completed', fileName: c.fileName });
    expect(await server.ctx.models.Conversion.findByPk(c.id)).to.equal(null);
  });

  it('conversionsArea_queueCleared_recordsTheClearingAndEachCancellation', async () => {
    const waiting = [await queued(), await queued()];
    const res = await http().post<{ cancelledCount: number }>('/admin/queue/clear', undefined, adminToken);
    expect(res.status).to.equal(200);
    const clearing = await auditEvent(server, adminToken, 'queue.cleared');
    expect(clearing.target).to.deep.equal({ type: 'queue', id: null, label: null });
    expect(clearing.details).to.include({ cancelledCount: res.body.cancelledCount });
    for (const c of waiting) {
      const event = await auditEvent(server, adminToken, 'conversion.cancelled', c.id);
      expect(event.details).to.deep.equal({ queueCleared: true });
      expect(event.accountId).to.equal(customer.id);
    }
  });
});

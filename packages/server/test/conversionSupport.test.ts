/**
 * A conversion's page for its owner and for support: the owner reads status, logs and the
 * pre-publication checklist and downloads; another user gets 404 on every route (no
 * existence leak); an admin reads status and logs (with whose it is) but downloads only
 * when support.adminDownloads is on.
 */
import { expect } from 'chai';
import { CONVERSION_MESSAGES, type ApiConversion } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitForStatus } from './helpers/conversions.js';

describe('conversion page for owner and support (status, logs, downloads)', function () {
  this.timeout(120000);
  let server: TestServer;
  let ownerToken = '';
  let ownerEmail = '';
  let conversionId = '';

  before(async function () {
    requireCorpus(this);
    server = await startTestServer();
    const owner = await buildCreditUser(server, 3);
    ownerEmail = owner.email;
    ownerToken = tokenFor(server, owner);
    const res = await uploadApk(server, ownerToken, corpusApk('ag-politedroid.apk'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    conversionId = conversionIdOf(res);
    await waitForStatus(server, ownerToken, conversionId, ['completed']);
  });
  after(async () => server?.stop());
  afterEach(async () => server.ctx.settings.unset('support.adminDownloads'));

  it('status_owner_answersTheChecklistBlockersFirstAndNoSupportBlock', async () => {
    const res = await api(server).get<ApiConversion>(`/conversion/status/${conversionId}`, ownerToken);
    expect(res.status).to.equal(200);
    expect(res.body.support).to.equal(undefined);
    expect(res.body.canDownload).to.equal(true);
    const checklist = res.body.checklist!;
    expect(checklist.map((c) => c.code)).to.include.members(['debuggable', 'signature', 'targetSdk', 'size', 'versionCode']);
    // Not signed with an upload key: Play Console needs one.
    expect(checklist.find((c) => c.code === 'signature')).to.include({ status: 'warning', title: 'O AAB não está assinado' });
    const order = checklist.map((c) => ({ blocker: 0, warning: 1, ok: 2 })[c.status]);
    expect(order).to.deep.equal([...order].sort());
  });

  it('everyRoute_anotherUser_answers404LikeAMissingConversion', async () => {
    const stranger = tokenFor(server, await buildCreditUser(server, 1));
    for (const [method, path] of [
      ['GET', `/conversion/status/${conversionId}`],
      ['GET', `/conversion/logs/${conversionId}`],
      ['GET', `/conversion/download/${conversionId}`],
      ['POST', `/conversion/generate-download-link/${conversionId}`],
      ['POST', `/download/generate-download-token/${conversionId}`],
    ] as const) {
      const res = await api(server).request(method, path, undefined, { token: stranger });
      expect(res.status, path).to.equal(404);
      expect((res.body as { code?: string }).code, path).to.equal('CONVERSION_NOT_FOUND');
    }
  });

  it('admin_settingOff_readsStatusAndLogsButCannotDownload', async () => {
    const admin = tokenFor(server, await buildAdmin(server));
    const status = await api(server).get<ApiConversion>(`/conversion/status/${conversionId}`, admin);
    expect(status.status).to.equal(200);
    expect(status.body.support).to.deep.equal({ ownerEmail, downloadAllowed: false });
    expect(status.body.canDownload).to.equal(false);
    const logs = await api(server).get<{ logs: unknown[] }>(`/conversion/logs/${conversionId}`, admin);
    expect(logs.status).to.equal(200);
    expect(logs.body.logs.length).to.be.greaterThan(0);
    for (const [method, path] of [
      ['GET', `/conversion/download/${conversionId}`],
      ['GET', `/conversion/temp-download/${conversionId}`],
      ['POST', `/conversion/generate-download-link/${conversionId}`],
      ['POST', `/download/generate-download-token/${conversionId}`],
    ] as const) {
      const res = await api(server).request(method, path, undefined, { token: admin });
      expect(res.status, path).to.equal(403);
      expect(res.body, path).to.deep.equal({ message: CONVERSION_MESSAGES.adminDownloadNotAllowed, code: 'DOWNLOAD_NOT_ALLOWED' });
    }
  });

  it('admin_settingOn_downloadsTheCustomersAab', async () => {
    const adminUser = await buildAdmin(server);
    const admin = tokenFor(server, adminUser);
    const put = await api(server).put('/admin/config/support.adminDownloads', { value: true }, admin);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const status = await api(server).get<ApiConversion>(`/conversion/status/${conversionId}`, admin);
    expect(status.body.support).to.deep.equal({ ownerEmail, downloadAllowed: true });
    expect(status.body.canDownload).to.equal(true);
    const file = await fetch(`${server.url}/api/conversion/download/${conversionId}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(file.status).to.equal(200);
    const owned = await fetch(`${server.url}/api/conversion/download/${conversionId}`, { headers: { authorization: `Bearer ${ownerToken}` } });
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(await owned.arrayBuffer()))).to.equal(true);
  });

  it('setting_defaultAndValues_offByDefaultAndOnlyYesOrNo', async () => {
    const admin = tokenFor(server, await buildAdmin(server));
    const list = await api(server).get<{ configs: Array<{ key: string; value: unknown; title: string; group: string; kind: string }> }>('/admin/config', admin);
    const entry = list.body.configs.find((c) => c.key === 'support.adminDownloads');
    expect(entry).to.include({ value: false, kind: 'boolean', group: 'Segurança', title: 'Administradores podem baixar os AABs dos clientes' });
    const bad = await api(server).put<{ message: string }>('/admin/config/support.adminDownloads', { value: 'talvez' }, admin);
    expect(bad.status).to.equal(400);
    expect(bad.body.message).to.equal('Use sim ou não');
  });
});

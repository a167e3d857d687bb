/**
 * A download link (GET /api/download/file/:token, /api/conversion/temp-download/:id?token=)
 * serves the file only while the user who minted it still exists, is active and may still
 * download that conversion; otherwise it answers as an unknown link. Deleting or deactivating
 * a user also removes the links they minted.
 */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { CONVERSION_MESSAGES, type DownloadTokenResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import type { Conversion, User } from '../src/models/index.js';

type Err = { message: string; code: string };

describe('download links outlive neither their owner nor their rights', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: User;
  let adminToken: string;
  const AAB = Buffer.from('PK\x03\x04 um aab de teste');

  before(async () => {
    server = await startTestServer();
    admin = await buildAdmin(server);
    adminToken = tokenFor(server, admin);
  });
  after(async () => {
    await server?.stop();
  });

  /** A completed conversion whose AAB is in storage. */
  async function completedWithFile(user: User): Promise<Conversion> {
    const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, completedAt: new Date() });
    const aabKey = `testes/${conversion.id}/app.aab`;
    await server.ctx.storage.write(aabKey, Readable.from([AAB]));
    return conversion.update({ aabKey, aabSize: AAB.length });
  }

  async function mintLink(conversion: Conversion, by: User): Promise<string> {
    const res = await api(server).post<DownloadTokenResponse>(`/download/generate-download-token/${conversion.id}`, undefined, tokenFor(server, by));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.downloadToken;
  }

  async function expectServed(token: string, conversion: Conversion): Promise<void> {
    const res = await fetch(`${server.url}/api/download/file/${token}`);
    expect(res.status).to.equal(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(AAB)).to.equal(true);
    expect((await fetch(`${server.url}/api/conversion/temp-download/${conversion.id}?token=${token}`)).status).to.equal(200);
  }

  /** Exactly what an unknown link answers. */
  async function expectRefusedAsInvalid(token: string, conversion: Conversion): Promise<void> {
    for (const path of [`/download/file/${token}`, `/conversion/temp-download/${conversion.id}?token=${token}`]) {
      const res = await api(server).get<Err>(path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ code: 'DOWNLOAD_TOKEN_INVALID', message: CONVERSION_MESSAGES.downloadNotFound });
    }
  }

  it('ownerDeletedByAdmin_linkNoLongerServesAndItsRowsAreGone', async () => {
    const user = await buildCreditUser(server, 3);
    const conversion = await completedWithFile(user);
    const token = await mintLink(conversion, user);
    await expectServed(token, conversion);

    expect((await api(server).delete(`/admin/users/${user.id}`, adminToken)).status).to.equal(200);
    await expectRefusedAsInvalid(token, conversion);
    expect(await server.ctx.models.DownloadToken.count({ where: { userId: user.id } })).to.equal(0);
  });

  it('ownerDeactivatedByAdmin_linkNoLongerServesNotEvenAfterReactivation', async () => {
    const user = await buildCreditUser(server, 3);
    const conversion = await completedWithFile(user);
    const token = await mintLink(conversion, user);
    await expectServed(token, conversion);

    expect((await api(server).patch(`/admin/users/${user.id}/toggle-status`, undefined, adminToken)).status).to.equal(200);
    await expectRefusedAsInvalid(token, conversion);
    expect(await server.ctx.models.DownloadToken.count({ where: { userId: user.id } })).to.equal(0);

    expect((await api(server).patch(`/admin/users/${user.id}/toggle-status`, undefined, adminToken)).status).to.equal(200);
    await expectRefusedAsInvalid(token, conversion);
    // A new link of the reactivated account (signed in again) works.
    await expectServed(await mintLink(conversion, await user.reload()), conversion);
  });

  it('ownerGoneOrInactive_linkRowStillThere_refused', async () => {
    // However the account changed (not only through the admin's commands), the link checks its owner.
    const inactive = await buildCreditUser(server, 3);
    const inactiveConversion = await completedWithFile(inactive);
    const inactiveToken = await mintLink(inactiveConversion, inactive);
    await server.ctx.models.User.update({ isActive: false }, { where: { id: inactive.id }, individualHooks: true });
    await expectRefusedAsInvalid(inactiveToken, inactiveConversion);

    const deleted = await buildCreditUser(server, 3);
    const deletedConversion = await completedWithFile(deleted);
    const deletedToken = await mintLink(deletedConversion, deleted);
    await deleted.destroy();
    await expectRefusedAsInvalid(deletedToken, deletedConversion);
    expect(await server.ctx.models.DownloadToken.count({ where: { userId: [inactive.id, deleted.id] } })).to.equal(2);
  });

  it('adminSupportLink_stopsWhenAdminDownloadsAreSwitchedOff', async () => {
    const customer = await buildCreditUser(server, 3);
    const conversion = await completedWithFile(customer);
    await server.ctx.settings.set('support.adminDownloads', true);
    try {
      const token = await mintLink(conversion, admin);
      await expectServed(token, conversion);
      await server.ctx.settings.set('support.adminDownloads', false);
      await expectRefusedAsInvalid(token, conversion);
    } finally {
      await server.ctx.settings.unset('support.adminDownloads');
    }
  });
});

/**
 * GET /api/conversion/limits: the drop-zone's size limit follows the admin setting
 * upload.maxFileSize (bytes), for any signed-in user; without a session, 401.
 */
import { expect } from 'chai';
import type { ConversionLimitsResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';

const MB = 1024 * 1024;

describe('conversion limits (GET /api/conversion/limits)', function () {
  this.timeout(60000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());
  afterEach(async () => {
    await server.ctx.settings.unset('upload.maxFileSize');
  });

  it('limits_withoutToken_401', async () => {
    const res = await api(server).get('/conversion/limits');
    expect(res.status).to.equal(401);
    const bad = await api(server).get('/conversion/limits', 'not-a-token');
    expect(bad.status).to.equal(401);
  });

  it('limits_settingUnset_defaultOf100MB', async () => {
    const res = await api(server).get<ConversionLimitsResponse>('/conversion/limits', tokenFor(server, await buildCreditUser(server, 1)));
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ maxFileSize: 100 * MB });
  });

  it('limits_settingChangedByTheAdmin_followsIt', async () => {
    const admin = await buildAdmin(server);
    const adminToken = tokenFor(server, admin);
    const userToken = tokenFor(server, await buildUser(server));
    const put = await api(server).put(`/admin/config/upload.maxFileSize`, { value: MB }, adminToken);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const res = await api(server).get<ConversionLimitsResponse>('/conversion/limits', userToken);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ maxFileSize: MB });

    await server.ctx.settings.set('upload.maxFileSize', 250 * MB);
    const later = await api(server).get<ConversionLimitsResponse>('/conversion/limits', adminToken);
    expect(later.body.maxFileSize).to.equal(250 * MB);
  });
});

/**
 * Links are never built from the request's Host header: without PUBLIC_URL an answer's link is a
 * path on the server the client called, with it always PUBLIC_URL — a poisoned Host (which a
 * cache keyed without it would serve to everyone) changes nothing. And /api/ready names no
 * process: which instance answers is told only by the authenticated /metrics.
 */
import { request } from 'node:http';
import { expect } from 'chai';
import type { AdminConfigResponse, DownloadTokenResponse } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildAdmin, buildCreditUser, tokenFor } from './helpers/factories.js';
import { buildConversion } from './helpers/adminFactories.js';
import { recordSecretsIn } from './helpers/secretLog.js';
import type { User } from '../src/models/index.js';

const POISON = 'atacante.example';

/** A JSON call with a Host header of our choosing (fetch does not let one set it). */
function callWithHost<T>(server: TestServer, method: string, path: string, token: string): Promise<{ status: number; body: T }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers: { host: POISON, authorization: `Bearer ${token}`, 'x-forwarded-host': POISON } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => {
        const body = JSON.parse(text) as T;
        recordSecretsIn(body, `${method} ${path}`);
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function completedConversion(server: TestServer, user: User): Promise<string> {
  const conversion = await buildConversion(server, user, { status: 'completed', progress: 100, aabKey: 'nada.aab', completedAt: new Date() });
  return conversion.id;
}

describe('links are never built from the Host header', function () {
  this.timeout(60_000);

  describe('without PUBLIC_URL', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ METRICS_TOKEN: 'token-de-metricas-de-teste' });
    });
    after(async () => server?.stop());

    it('downloadLink_poisonedHostHeader_answerIsAPath', async () => {
      const user = await buildCreditUser(server, 3);
      const id = await completedConversion(server, user);
      const token = tokenFor(server, user);
      for (const path of [`/api/download/generate-download-token/${id}`, `/api/conversion/generate-download-link/${id}`]) {
        const res = await callWithHost<DownloadTokenResponse & { downloadLink?: string }>(server, 'POST', path, token);
        expect(res.status, path).to.equal(200);
        expect(res.body.downloadUrl).to.equal(`/api/download/file/${res.body.downloadToken}`);
        expect(JSON.stringify(res.body)).to.not.contain(POISON);
      }
    });

    it('adminWebhookUrl_poisonedHostHeader_answerIsAPath', async () => {
      const admin = await buildAdmin(server);
      const res = await callWithHost<AdminConfigResponse>(server, 'GET', '/api/admin/config', tokenFor(server, admin));
      expect(res.status).to.equal(200);
      expect(res.body.webhookUrl).to.equal('/api/payments/webhook');
      expect(JSON.stringify(res.body)).to.not.contain(POISON);
    });

    it('ready_namesNoProcess_metricsDoes', async () => {
      const ready = await fetch(`${server.url}/api/ready`);
      expect(ready.status).to.equal(200);
      const body = (await ready.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).to.deep.equal(['checks', 'failed', 'role', 'status']);
      expect(JSON.stringify(body)).to.not.contain(String(process.pid));
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer token-de-metricas-de-teste' } });
      expect(await metrics.text()).to.contain(`aabify_instance_info{instance="${server.ctx.instance.id}"`);
    });
  });

  describe('with PUBLIC_URL', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ PUBLIC_URL: 'https://aabify.example.com.br/' });
    });
    after(async () => server?.stop());

    it('downloadLink_withPublicUrl_alwaysPublicUrl', async () => {
      const user = await buildCreditUser(server, 3);
      const id = await completedConversion(server, user);
      const res = await callWithHost<DownloadTokenResponse>(server, 'POST', `/api/download/generate-download-token/${id}`, tokenFor(server, user));
      expect(res.status).to.equal(200);
      expect(res.body.downloadUrl).to.equal(`https://aabify.example.com.br/api/download/file/${res.body.downloadToken}`);
    });
  });
});

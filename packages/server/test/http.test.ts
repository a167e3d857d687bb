import { expect } from 'chai';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('http skeleton', () => {
  let server: TestServer;
  let dashboard: string;

  before(async () => {
    dashboard = await mkdtemp(join(tmpdir(), 'aabify-dash-'));
    await mkdir(join(dashboard, 'assets'));
    await writeFile(join(dashboard, 'index.html'), '<!doctype html><title>aabify</title>');
    await writeFile(join(dashboard, 'assets', 'main-ABCDEFGH12.js'), 'console.log(1)');
    server = await startTestServer({ DASHBOARD_DIR: dashboard });
  });
  after(async () => {
    await server?.stop();
    await rm(dashboard, { recursive: true, force: true });
  });

  it('health_databaseAndQueueUp_answersOkWithVersion', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { status: string; checks: unknown };
    expect(body).to.include({ status: 'ok', version: '0.1.0', role: 'all' });
    expect(body.checks).to.deep.equal({ database: true, queue: true });
  });

  it('unknownApiPath_any method_answersJson404InErrorShape', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await fetch(`${server.url}/api/does-not-exist`, { method });
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/application\/json/);
      expect(await res.json()).to.deep.equal({ message: `Rota não encontrada: ${method} /api/does-not-exist`, code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('malformedJsonBody_answers400InErrorShape', async () => {
    const res = await fetch(`${server.url}/api/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ message: 'O corpo da requisição não é um JSON válido.', code: 'INVALID_JSON' });
  });

  it('spaPath_get_servesIndexHtmlUncached', async () => {
    for (const path of ['/', '/converter', '/admin/users/42']) {
      const res = await fetch(server.url + path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(await res.text()).to.contain('<title>aabify</title>');
    }
  });

  it('hashedAsset_get_hasLongImmutableCache', async () => {
    const res = await fetch(`${server.url}/assets/main-ABCDEFGH12.js`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
  });
});

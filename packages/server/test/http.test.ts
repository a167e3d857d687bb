import { expect } from 'chai';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildUser, tokenFor } from './helpers/factories.js';

const BIG_SCRIPT = `export const words = ${JSON.stringify('aabify '.repeat(2000))};\n`;
/** A landing route's HTML as the dashboard build writes it (dist/routes/NAME.html, with its screen painted). */
const CONVERTER_PAGE = `<!doctype html><title>aabify</title><div id="root"><div class="boot-screen">${'<p>Converter APK em AAB</p>'.repeat(100)}</div></div>`;

/** A GET whose body is not decoded (fetch would undo the Content-Encoding). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('http skeleton', () => {
  let server: TestServer;
  let dashboard: string;

  before(async () => {
    dashboard = await mkdtemp(join(tmpdir(), 'aabify-dash-'));
    await mkdir(join(dashboard, 'assets'));
    await writeFile(join(dashboard, 'index.html'), '<!doctype html><title>aabify</title>');
    await writeFile(join(dashboard, 'assets', 'main-ABCDEFGH12.js'), 'console.log(1)');
    // What the dashboard build writes beside a text asset.
    await writeFile(join(dashboard, 'assets', 'chunk-ABCDEFGH34.js'), BIG_SCRIPT);
    await writeFile(join(dashboard, 'assets', 'chunk-ABCDEFGH34.js.br'), brotliCompressSync(BIG_SCRIPT));
    await writeFile(join(dashboard, 'assets', 'chunk-ABCDEFGH34.js.gz'), gzipSync(BIG_SCRIPT));
    await mkdir(join(dashboard, 'routes'));
    await writeFile(join(dashboard, 'routes', 'converter.html'), CONVERTER_PAGE);
    await writeFile(join(dashboard, 'routes', 'converter.html.br'), brotliCompressSync(CONVERTER_PAGE));
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

  it('precompressedAsset_servedByAcceptEncoding_brotliFirst_sameCacheAndCsp', async () => {
    const url = `${server.url}/assets/chunk-ABCDEFGH34.js`;
    const br = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).to.equal(200);
    expect(br.headers['content-encoding']).to.equal('br');
    expect(br.headers['content-type']).to.match(/^text\/javascript/);
    expect(br.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(br.headers['content-security-policy']).to.contain("script-src 'self'");
    expect(br.headers.vary).to.match(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).toString()).to.equal(BIG_SCRIPT);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(gz.body).toString()).to.equal(BIG_SCRIPT);

    const refusals: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }];
    for (const refused of refusals) {
      const plain = await rawGet(url, refused);
      expect(plain.headers['content-encoding'], JSON.stringify(refused)).to.equal(undefined);
      expect(plain.body.toString()).to.equal(BIG_SCRIPT);
      expect(plain.headers.vary).to.match(/Accept-Encoding/i);
    }
  });

  it('landingRoute_getsItsOwnPage_compressed_noCache_sameCsp_otherPathsTheIndex', async () => {
    const index = await fetch(`${server.url}/history`);
    const indexCsp = index.headers.get('content-security-policy');
    expect(await index.text()).to.equal('<!doctype html><title>aabify</title>');
    for (const path of ['/converter', '/converter/']) {
      const br = await rawGet(`${server.url}${path}`, { 'accept-encoding': 'gzip, br' });
      expect(br.status, path).to.equal(200);
      expect(br.headers['content-encoding'], path).to.equal('br');
      expect(br.headers['content-type'], path).to.match(/^text\/html/);
      expect(br.headers['cache-control'], path).to.equal('no-cache');
      expect(br.headers['content-security-policy'], path).to.equal(indexCsp);
      expect(brotliDecompressSync(br.body).toString(), path).to.equal(CONVERTER_PAGE);
    }
    // No gzip file beside it: a client without brotli gets it plain.
    const plain = await rawGet(`${server.url}/converter`, { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(plain.headers['cache-control']).to.equal('no-cache');
    expect(plain.body.toString()).to.equal(CONVERTER_PAGE);
    // Only the route itself: a path below it is another screen.
    expect(await (await fetch(`${server.url}/converter/other`)).text()).to.equal('<!doctype html><title>aabify</title>');
  });
});

describe('http metrics', () => {
  const METRICS_TOKEN = 'metrics-token-for-http-tests-0001';
  let server: TestServer;

  before(async () => {
    server = await startTestServer({ METRICS_TOKEN });
  });
  after(async () => {
    await server?.stop();
  });

  /** The `route` labels of the request-latency series, as /metrics lists them. */
  async function routeLabels(): Promise<string[]> {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).to.equal(200);
    const routes = [...(await res.text()).matchAll(/^aabify_http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]!);
    return [...new Set(routes)];
  }

  it('routeLabel_caseVariantsOfOneRoute_oneSeriesAsDeclared', async () => {
    // Express matches paths case-insensitively; every spelling a client invents must land on the declared route's series.
    const token = tokenFor(server, await buildUser(server));
    for (const path of ['/api/conversion/history', '/API/CoNvErSiOn/history', '/Api/conversion/HISTORY', '/api/CONVERSION/History']) {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).to.equal(200);
    }
    for (const path of ['/api/health', '/API/Health', '/aPi/hEaLtH']) expect((await fetch(`${server.url}${path}`)).status, path).to.equal(200);
    const labels = await routeLabels();
    expect(labels.filter((r) => r.toLowerCase() === '/api/conversion/history')).to.deep.equal(['/api/conversion/history']);
    expect(labels.filter((r) => r.toLowerCase().startsWith('/api/health'))).to.deep.equal(['/api/health/']);
  });
});

import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildSubscriber, tokenFor } from './helpers/factories.js';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { api } from './helpers/http.js';
import { waitForStatus } from './helpers/conversions.js';
import type { ConversionHistoryResponse, DownloadTokenResponse } from '@aabify/shared';

const MB = 1024 * 1024;

/** A multipart body whose file part is `fileBytes` long, generated chunk by chunk (never held whole). */
function multipartStream(fileBytes: number, boundary: string): ReadableStream<Uint8Array> {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="grande.apk"\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 7);
  let sent = 0;
  let stage = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (stage === 0) {
        controller.enqueue(Buffer.concat([head, Buffer.from([0x50, 0x4b, 0x03, 0x04])]));
        sent = 4;
        stage = 1;
      } else if (stage === 1) {
        const n = Math.min(chunk.length, fileBytes - sent);
        if (n <= 0) {
          controller.enqueue(tail);
          controller.close();
          stage = 2;
          return;
        }
        controller.enqueue(chunk.subarray(0, n));
        sent += n;
      }
    },
  });
}

describe('conversions: upload size limit', function () {
  this.timeout(120000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('upload_overTheLimit_isCutOffWith413WithoutMemoryGrowth', async () => {
    await server.ctx.settings.set('upload.maxFileSize', 2 * MB);
    const user = await buildSubscriber(server, 30);
    const boundary = 'limite-de-teste';
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const res = await fetch(`${server.url}/api/conversion/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenFor(server, user)}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: multipartStream(300 * MB, boundary),
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    const body = (await res.json()) as { message: string; code: string };
    clearInterval(sampler);
    expect(res.status).to.equal(413);
    expect(body).to.deep.equal({ message: 'O arquivo excede o limite de 2MB', code: 'FILE_TOO_LARGE', details: { maxFileSize: 2 * MB } });
    // 300 MB went through the server (client and server share this process): far less stuck in memory.
    expect(peak - before).to.be.below(80 * MB);
    // Nothing was kept: no conversion, no partial file.
    expect(await server.ctx.models.Conversion.count()).to.equal(0);
  });

  it('upload_declaredTooLarge_answers413WithTheDefault100MBMessage', async () => {
    await server.ctx.settings.unset('upload.maxFileSize');
    const user = await buildSubscriber(server, 30);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/conversion/convert`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokenFor(server, user)}`,
          'content-type': 'multipart/form-data; boundary=x',
          'content-length': String(150 * MB),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body: text });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(answer.status).to.equal(413);
    expect(JSON.parse(answer.body).message).to.equal('O arquivo excede o limite de 100MB');
  });
});

describe('conversions: uploaded file names', function () {
  this.timeout(60000);
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  /** POST /conversion/upload of a tiny APK whose part names itself with `filename*` (RFC 5987, percent-encoded UTF-8). */
  async function uploadNamed(token: string, encodedName: string): Promise<{ status: number; body: { fileName?: string; conversionId?: string } }> {
    const boundary = 'nomes-de-arquivo';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename*=UTF-8''${encodedName}\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`),
      buildZip(tinyApkEntries()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${server.url}/api/conversion/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    return { status: res.status, body: (await res.json()) as { fileName?: string; conversionId?: string } };
  }

  it('upload_nameWithControlAndBidiCharacters_acceptedWithThemRemoved', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    // NUL (which Postgres refuses in text), CR/LF, ESC, DEL, C1 CSI, and a right-to-left override that would show "…apk.exe" as "…exe.apk".
    const res = await uploadNamed(token, 'meu%00app%0D%0A%1B%7F%C2%9B%E2%80%AEkpa%E2%80%AC%E2%81%A6.apk');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fileName).to.equal('meuappkpa.apk');
    const row = await server.ctx.models.Conversion.findByPk(res.body.conversionId!, { rejectOnEmpty: true });
    expect(row.fileName).to.equal('meuappkpa.apk');
  });

  /** POST /conversion/convert as a browser sends it: the name's UTF-8 bytes as they are inside filename="…". */
  async function uploadAsABrowser(token: string, name: string): Promise<{ status: number; body: { fileName?: string; conversionId?: string } }> {
    const boundary = '----WebKitFormBoundaryNomes';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="${name}"\r\nContent-Type: application/vnd.android.package-archive\r\n\r\n`, 'utf8'),
      buildZip(tinyApkEntries()),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${server.url}/api/conversion/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    return { status: res.status, body: (await res.json()) as { fileName?: string; conversionId?: string } };
  }

  for (const [what, sent, kept] of [
    ['accents', 'meu app versão final revisada (1).apk', 'meu app versão final revisada (1).apk'],
    ['accents decomposed (macOS)', 'corac\u0327a\u0303o.apk', 'coração.apk'],
    ['emoji', '📱 app 🚀.apk', '📱 app 🚀.apk'],
    ['non-Latin only', '应用程序.apk', '应用程序.apk'],
    ['Cyrillic', 'приложение.apk', 'приложение.apk'],
  ] as const) {
    it(`upload_browserNameWith_${what}_keptInTheAnswerHistoryAndTheDownloadedAab`, async () => {
      const token = tokenFor(server, await buildSubscriber(server, 30));
      const res = await uploadAsABrowser(token, sent);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.fileName).to.equal(kept);
      const id = res.body.conversionId!;
      const history = await api(server).get<ConversionHistoryResponse>('/conversion/history', token);
      expect(history.body.conversions.map((c) => c.fileName)).to.include(kept);
      const done = await waitForStatus(server, token, id, ['completed', 'failed']);
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      const aabName = kept.replace(/\.apk$/, '.aab');
      const link = await api(server).post<DownloadTokenResponse>(`/download/generate-download-token/${id}`, undefined, token);
      expect(link.body.filename).to.equal(aabName);
      const file = await fetch(`${server.url}${link.body.downloadUrl}`);
      expect(file.status).to.equal(200);
      const disposition = file.headers.get('content-disposition') ?? '';
      const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
      expect(encoded, disposition).to.not.equal(undefined);
      expect(decodeURIComponent(encoded!)).to.equal(aabName);
      await file.arrayBuffer();
    });
  }

  it('upload_nameOfControlCharactersOnly_acceptedUnderTheFallbackName', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const res = await uploadNamed(token, '%00%0D%0A%E2%80%AE');
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fileName).to.equal('arquivo.apk');
  });
});

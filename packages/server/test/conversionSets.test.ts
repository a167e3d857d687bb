/**
 * One conversion from several files: a split set as separate APKs with an OBB, uploaded in one
 * request (repeated `apk` field) — the conversion completes with the splits merged and the OBB
 * in an asset pack named after the uploaded file; upload.maxFileSize bounds the sum of the
 * files; OBB files alone, a bad extension and too many files are refused in pt-BR, and nothing
 * is left in storage or takes a credit.
 */
import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiConversion, ConversionReportJson } from '@aabify/shared';
import { buildZip, tinyApkEntries, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, waitForStatus } from './helpers/conversions.js';
import { api, type ApiResponse, type JsonBody } from './helpers/http.js';

type Upload = { name: string; bytes: Uint8Array };

function upload(server: TestServer, token: string, files: Upload[], options?: unknown): Promise<ApiResponse<JsonBody>> {
  const form = new FormData();
  if (options !== undefined) form.append('options', JSON.stringify(options));
  for (const f of files) form.append('apk', new Blob([new Uint8Array(f.bytes)]), f.name);
  return api(server).request('POST', '/conversion/convert', undefined, { token, raw: form });
}

async function storedFiles(server: TestServer): Promise<string[]> {
  const root = join(server.dataDir, 'files', 'conversions');
  const out: string[] = [];
  for (const dir of await readdir(root).catch(() => [] as string[])) for (const f of await readdir(join(root, dir)).catch(() => [] as string[])) out.push(`${dir}/${f}`);
  return out;
}

describe('conversions: a split set and OBB files in one upload', function () {
  this.timeout(120_000);
  let server: TestServer;
  const base: Upload = { name: 'base.apk', bytes: buildZip(tinyApkEntries()) };
  const abi: Upload = {
    name: 'split_config.x86_64.apk',
    bytes: buildZip([
      { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, split: 'config.x86_64' }) },
      { name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 },
    ]),
  };
  const obb: Upload = { name: 'main.1.com.example.tiny.obb', bytes: Buffer.alloc(50_000, 7) };

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());
  afterEach(async () => server.ctx.settings.unset('upload.maxFileSize'));

  it('convert_splitApksAndObb_oneConversionMergedWithObbPack', async () => {
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const res = await upload(server, token, [obb, base, abi]);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.include({ fileName: 'base.apk', fileSize: obb.bytes.length + base.bytes.length + abi.bytes.length });
    const id = conversionIdOf(res);
    const done: ApiConversion = await waitForStatus(server, token, id, ['completed', 'failed'], 60_000);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    const report = done.report as ConversionReportJson;
    expect(report.abis).to.deep.equal(['arm64-v8a', 'x86_64']);
    expect((report.modules ?? []).map((m) => `${m.name}:${m.kind}`)).to.deep.equal(['base:base', 'obb_main:asset-pack']);
    await user.reload();
    expect(user.credits, 'one credit for the whole set').to.equal(2);
  });

  it('convert_sumOverTheLimit_413AndNothingStored', async () => {
    const token = tokenFor(server, await buildCreditUser(server, 3));
    await server.ctx.settings.set('upload.maxFileSize', 1024 * 1024);
    const before = await storedFiles(server);
    const big: Upload = { name: 'main.1.com.example.tiny.obb', bytes: Buffer.alloc(700 * 1024, 1) };
    const big2: Upload = { name: 'patch.1.com.example.tiny.obb', bytes: Buffer.alloc(700 * 1024, 2) };
    const res = await upload(server, token, [base, big, big2]);
    expect(res.status).to.equal(413);
    expect(res.body).to.include({ code: 'FILE_TOO_LARGE', message: 'O arquivo excede o limite de 1MB' });
    expect(await storedFiles(server)).to.deep.equal(before);
  });

  it('convert_onlyObbOrBadExtensionOrTooMany_400InPtBr', async () => {
    const token = tokenFor(server, await buildCreditUser(server, 3));
    const only = await upload(server, token, [obb]);
    expect(only.status).to.equal(400);
    expect(only.body).to.include({ message: 'Envie o APK (ou o conjunto de APKs) junto com os arquivos .obb.' });
    const bad = await upload(server, token, [base, { name: 'notes.txt', bytes: Buffer.from('x') }]);
    expect(bad.status).to.equal(400);
    expect(bad.body).to.include({ code: 'INVALID_FILE_TYPE' });
    const many = await upload(server, token, Array.from({ length: 21 }, (_, i) => ({ ...abi, name: `s${i}.apk` })));
    expect(many.status).to.equal(400);
    expect(many.body).to.include({ code: 'TOO_MANY_FILES', message: 'No máximo 20 arquivos por conversão.' });
  });
});

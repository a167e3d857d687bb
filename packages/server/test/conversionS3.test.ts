/**
 * The server on STORAGE=s3 against a real S3 API server on loopback (s3rver): an APK of the
 * corpus uploaded, converted and downloaded over HTTP (whole, by Range, and through the
 * presigned link), a split set with an OBB, a failing, a crashing and a cancelled conversion,
 * uploads cut off at the limit or abandoned by the client, retention — and after each, no APK
 * or AAB left on the server's local disk. A start with an unreachable store stops with one line.
 */
import { expect } from 'chai';
import { purgeExpiredConversions } from '../src/conversions/retention.js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { buildZip, tinyApkEntries, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import type { S3Storage } from '../src/storage/s3.js';
import { storageKeys } from '../src/storage/index.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startTestS3, type TestS3 } from './helpers/s3.js';
import { buildCreditUser, buildSubscriber, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, uploadBytes, waitFor, waitForStatus } from './helpers/conversions.js';
import { api, type ApiResponse, type JsonBody } from './helpers/http.js';

const MARKED_ENGINE = fileURLToPath(new URL('./fixtures/markedEngine.ts', import.meta.url));
const mainTs = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const MB = 1024 * 1024;

/** Files under `dir` that hold an APK, AAB or other zip (by their first bytes), or sit in the scratch directory. */
async function payloadFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const head = Buffer.alloc(4);
    // A scratch file may go between the listing and the open: then it is not left.
    const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (!fh) continue;
    await fh.read(head, 0, 4, 0).finally(() => fh.close());
    if (head.equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) || /\.(apk|aab|apks|xapk|obb)$/i.test(entry.name) || path.startsWith(join(dir, 'tmp'))) found.push(path);
  }
  return found;
}

/** Waits until the server's local disk holds no payload (scratch files go in the runner's finally, just after the status changes). */
async function noPayloadLeft(server: TestServer): Promise<void> {
  await waitFor(async () => ((await payloadFiles(server.dataDir)).length === 0 ? true : undefined), 15_000, 'no APK/AAB on local disk').catch(async (err: unknown) => {
    throw new Error(`${(err as Error).message}: ${(await payloadFiles(server.dataDir)).join(', ')}`);
  });
}

function apkWithMarker(marker: string): Uint8Array {
  return buildZip([...tinyApkEntries(), { name: `assets/${marker}`, data: Buffer.from(marker) }]);
}

describe('conversions on S3 storage', function () {
  this.timeout(180_000);
  let s3: TestS3;
  let server: TestServer;
  let store: S3Storage;

  const objectKeys = async (prefix = ''): Promise<string[]> => {
    const listed = await store.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((o) => o.Key!).sort();
  };

  before(async function () {
    requireCorpus(this);
    s3 = await startTestS3();
    server = await startTestServer(s3.env({ S3_PRESIGNED_DOWNLOADS: 'true' }), { conversions: { engine: { module: MARKED_ENGINE }, claimRetryMs: 200, maxAttempts: 1 } });
    expect(server.ctx.storage.kind).to.equal('s3');
    store = server.ctx.storage as S3Storage;
  });
  after(async () => {
    await server?.stop();
    await s3?.stop();
  });

  it('corpusApk_uploadConvertDownload_bytesComeFromTheBucket_rangeAndPresignedLinkWork_noApkOrAabOnDisk', async () => {
    const user = await buildSubscriber(server, 30);
    const token = tokenFor(server, user);
    const res = await uploadApk(server, token, corpusApk('jx-small.apk'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    expect(await objectKeys()).to.deep.equal([storageKeys.apk(id), storageKeys.aab(id)]);
    // The bucket holds the uploaded bytes themselves.
    const uploaded = Buffer.from(await (await store.read(storageKeys.apk(id))).toArray().then((c) => Buffer.concat(c as Buffer[])));
    expect(uploaded.equals(await readFile(corpusApk('jx-small.apk')))).to.equal(true);
    const stored = Buffer.concat((await (await store.read(storageKeys.aab(id))).toArray()) as Buffer[]);
    expect(stored.length).to.equal(done.convertedSize);

    // The API download streams through the server, whole and by range.
    const whole = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(whole.status).to.equal(200);
    expect(whole.headers.get('content-disposition')).to.contain('filename="jx-small.aab"');
    expect(Buffer.from(await whole.arrayBuffer()).equals(stored)).to.equal(true);
    const range = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}`, range: 'bytes=100-1099' } });
    expect(range.status).to.equal(206);
    expect(range.headers.get('content-range')).to.equal(`bytes 100-1099/${stored.length}`);
    expect(Buffer.from(await range.arrayBuffer()).equals(stored.subarray(100, 1100))).to.equal(true);

    // A download link redirects to a short-lived presigned URL of the bucket.
    const link = await api(server).post<{ downloadUrl: string }>(`/download/generate-download-token/${id}`, undefined, token);
    const redirect = await fetch(new URL(link.body.downloadUrl, server.url), { redirect: 'manual' });
    expect(redirect.status).to.equal(302);
    const location = redirect.headers.get('location')!;
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/${storageKeys.aab(id)}?`)).to.equal(true);
    expect(location).to.match(/X-Amz-Expires=300/);
    const direct = await fetch(location);
    expect(direct.status).to.equal(200);
    expect(direct.headers.get('content-disposition')).to.equal(`attachment; filename="jx-small.aab"; filename*=UTF-8''jx-small.aab`);
    expect(Buffer.from(await direct.arrayBuffer()).equals(stored)).to.equal(true);
    const followed = await fetch(new URL(link.body.downloadUrl, server.url), { headers: { range: 'bytes=0-9' } });
    expect(followed.status).to.equal(206);
    expect(Buffer.from(await followed.arrayBuffer()).equals(stored.subarray(0, 10))).to.equal(true);

    await noPayloadLeft(server);
  });

  it('splitSetWithObb_everyPartStoredUnderTheConversion_converted_noScratchLeft', async () => {
    const token = tokenFor(server, await buildCreditUser(server, 3));
    const form = new FormData();
    const abi = buildZip([
      { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, split: 'config.x86_64' }) },
      { name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 },
    ]);
    form.append('apk', new Blob([new Uint8Array(buildZip(tinyApkEntries()))]), 'base.apk');
    form.append('apk', new Blob([new Uint8Array(abi)]), 'split_config.x86_64.apk');
    form.append('apk', new Blob([new Uint8Array(Buffer.alloc(50_000, 7))]), 'main.1.com.example.tiny.obb');
    const res: ApiResponse<JsonBody> = await api(server).request('POST', '/conversion/convert', undefined, { token, raw: form });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, `${done.errorCode} ${done.error}`).to.equal('completed');
    expect(await objectKeys(storageKeys.folder(id))).to.deep.equal([storageKeys.apk(id), storageKeys.part(id, 1), storageKeys.part(id, 2), storageKeys.aab(id)].sort());
    await noPayloadLeft(server);
  });

  it('brokenApk_fails_crashingEngine_fails_cancelled_neitherLeavesAnythingOnDisk', async () => {
    const user = await buildCreditUser(server, 5);
    const token = tokenFor(server, user);

    const broken = conversionIdOf(await uploadBytes(server, token, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(5000, 3)])));
    expect((await waitForStatus(server, token, broken, ['completed', 'failed'])).status).to.equal('failed');

    const crashing = conversionIdOf(await uploadBytes(server, token, apkWithMarker('aabify-crash-me')));
    const crashed = await waitForStatus(server, token, crashing, ['completed', 'failed']);
    expect(crashed.status).to.equal('failed');
    expect(crashed.errorCode).to.equal('WORKER_CRASHED');

    const slow = conversionIdOf(await uploadBytes(server, token, apkWithMarker('aabify-slow')));
    await waitForStatus(server, token, slow, ['processing']);
    expect((await api(server).post(`/conversion/cancel/${slow}`, undefined, token)).status).to.equal(200);
    await waitFor(async () => (server.ctx.conversionRunner.activeCount === 0 ? true : undefined), 15_000, 'engine stopped');

    await noPayloadLeft(server);
    await user.reload();
    expect(user.credits, 'no credit taken by a failed, crashed or cancelled conversion').to.equal(5);
  });

  it('upload_overTheLimit_413_andNoObjectNorMultipartUploadLeft', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    await server.ctx.settings.set('upload.maxFileSize', 12 * MB);
    try {
      const before = await objectKeys();
      // Past two multipart parts before the cut-off.
      const big = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(12 * MB, 5)]);
      const res = await uploadBytes(server, token, big, { fileName: 'grande.apk' });
      expect(res.status).to.equal(413);
      expect(res.body).to.include({ code: 'FILE_TOO_LARGE' });
      expect(await objectKeys()).to.deep.equal(before);
      await waitFor(async () => ((await s3.pendingUploads()) === 0 ? true : undefined), 10_000, 'multipart upload aborted');
    } finally {
      await server.ctx.settings.unset('upload.maxFileSize');
    }
  });

  it('upload_clientGoesAwayMidway_multipartUploadAbortedAndNothingStored', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const before = await objectKeys();
    const boundary = 'abandono';
    const req = httpRequest(`${server.url}/api/conversion/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="apk"; filename="abandonado.apk"\r\n\r\n`);
    req.write(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    for (let i = 0; i < 20; i++) req.write(Buffer.alloc(MB, 9));
    // The server has started a multipart upload; then the client disappears.
    await waitFor(async () => ((await s3.pendingUploads()) > 0 ? true : undefined), 20_000, 'multipart upload started');
    req.destroy();
    await waitFor(async () => ((await s3.pendingUploads()) === 0 ? true : undefined), 20_000, 'multipart upload aborted');
    expect(await objectKeys()).to.deep.equal(before);
  });

  it('retention_purgesEveryObjectOfTheConversion', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const id = conversionIdOf(await uploadBytes(server, token, buildZip(tinyApkEntries())));
    await waitForStatus(server, token, id, ['completed']);
    expect(await objectKeys(storageKeys.folder(id))).to.have.length(2);
    await server.ctx.models.Conversion.update({ completedAt: new Date(Date.now() - 30 * 86_400_000) }, { where: { id } });
    expect(await purgeExpiredConversions(server.ctx)).to.be.at.least(1);
    expect(await objectKeys(storageKeys.folder(id))).to.deep.equal([]);
    const res = await api(server).get(`/conversion/download/${id}`, token);
    expect(res.status).to.equal(409);
  });
});

describe('a local-storage upload abandoned midway', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.stop());

  it('upload_clientGoesAwayMidway_noPartialFileLeft', async () => {
    const token = tokenFor(server, await buildSubscriber(server, 30));
    const files = join(server.dataDir, 'files');
    const partials = async () => (existsSync(files) ? (await readdir(files, { recursive: true })).filter((f) => String(f).endsWith('.partial')) : []);
    const req = httpRequest(`${server.url}/api/conversion/convert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b' },
    });
    req.on('error', () => undefined);
    req.write(`--b\r\nContent-Disposition: form-data; name="apk"; filename="abandonado.apk"\r\n\r\n`);
    req.write(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2 * MB, 9)]));
    await waitFor(async () => ((await partials()).length > 0 ? true : undefined), 20_000, 'partial file written');
    req.destroy();
    await waitFor(async () => ((await partials()).length === 0 ? true : undefined), 20_000, 'partial file removed');
    expect(await payloadFiles(server.dataDir)).to.deep.equal([]);
  });
});

describe('start with an unreachable object store', function () {
  this.timeout(60_000);

  it('main_storeUnreachable_stopsWithOneClearLine', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dataDir = await mkdtemp(join(tmpdir(), 'aabify-s3-start-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', mainTs], {
        env: { ...process.env, DATA_DIR: dataDir, STORAGE: 's3', S3_BUCKET: 'aabify', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 'segredo-nao-mostrar', PORT: '0' },
        encoding: 'utf8',
        timeout: 45_000,
      });
      expect(run.status).to.equal(1);
      const lines = run.stderr.trim().split('\n').filter((l) => !l.includes('npm warn'));
      expect(lines).to.deep.equal([`Armazenamento S3 inacessível: não foi possível conectar a S3_ENDPOINT http://127.0.0.1:${port} (ECONNREFUSED)`]);
      expect(run.stdout + run.stderr).not.to.contain('segredo-nao-mostrar');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

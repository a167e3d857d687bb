/**
 * "Testar no celular" (POST /api/conversion/test-apk/:id): the universal APK of a finished
 * conversion's AAB, built by the engine in the worker pool, signed with the account's upload key
 * when one is stored and with the test key otherwise (said in the answer), served through a
 * short-lived link (with its QR code) that opens that APK and nothing else; another account's
 * conversion answers 404.
 */
import { execFile } from 'node:child_process';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { generateUploadKeystore } from '@aabify/converter';
import { CONVERSION_MESSAGES, TEST_APK_MESSAGES, type TestApkResponse } from '@aabify/shared';
import { MAX_TEST_APK_BUILDS } from '../src/conversions/testApk.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api, type ApiResponse } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, requireTool, uploadApk, waitFor, waitForStatus } from './helpers/conversions.js';

type Err = { message: string; code: string };
const PASS = 'senha-do-keystore';

describe('Testar no celular: the universal APK of a conversion', function () {
  this.timeout(180_000);
  let server: TestServer;
  let work: string;

  before(async () => {
    server = await startTestServer();
    work = await mkdtemp(join(tmpdir(), 'aabify-test-apk-'));
  });
  after(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function converted(token: string): Promise<string> {
    const res = await uploadApk(server, token, corpusApk('jx-small.apk'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    await waitForStatus(server, token, id, ['completed', 'failed']).then((c) => expect(c.status, JSON.stringify(c)).to.equal('completed'));
    return id;
  }

  async function testApk(id: string, token: string): Promise<TestApkResponse> {
    const res = await api(server).post<TestApkResponse>(`/conversion/test-apk/${id}`, undefined, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  }

  /** Downloads the link as a phone would (no credential) and returns the file's path. */
  async function download(url: string, name: string): Promise<string> {
    const res = await fetch(new URL(url, server.url));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/vnd.android.package-archive');
    const file = join(work, name);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return file;
  }

  async function signerSha256(apksigner: string, file: string): Promise<string> {
    const { stdout } = await promisify(execFile)(apksigner, ['verify', '--verbose', '--print-certs', file]);
    expect(stdout).to.match(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);
    expect(stdout).to.match(/Verified using v3 scheme \(APK Signature Scheme v3\): true/);
    // apksigner prints plain hex; the answer, as keytool does, colon-separated capitals.
    const hex = /certificate SHA-256 digest: ([0-9a-f]{64})/.exec(stdout)?.[1] ?? '';
    return hex.toUpperCase().replace(/(..)(?!$)/g, '$1:');
  }

  it('testApk_noUploadKey_testKeySaidPlainly_linkServesAVerifiedApk', async function () {
    requireCorpus(this);
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const id = await converted(token);
    const body = await testApk(id, token);
    expect(body).to.include({ conversionId: id, filename: 'jx-small-teste.apk', testKey: true, message: TEST_APK_MESSAGES.signedWithTestKey });
    expect(body.message).to.include('Não envie este APK ao Google Play');
    // No PUBLIC_URL: the link is a path, which a phone could not open from a QR code.
    expect(body.qrCodePng).to.equal(null);
    const file = await download(body.downloadUrl, 'test-key.apk');
    expect(await signerSha256(apksigner, file)).to.equal(body.certificateSha256);

    // The same key signs it now: the APK kept is handed out again, not rebuilt.
    const again = await testApk(id, token);
    expect(again.certificateSha256).to.equal(body.certificateSha256);
    expect(again.downloadUrl).to.not.equal(body.downloadUrl);
  });

  it('testApk_uploadKeyStored_signedWithIt_rebuiltAfterTheKeyArrives', async function () {
    requireCorpus(this);
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const id = await converted(token);
    const before = await testApk(id, token);
    expect(before.testKey).to.equal(true);

    const ks = generateUploadKeystore({ alias: 'upload', dname: 'CN=Loja Teste, O=aabify, C=BR', password: PASS });
    const put = await api(server).put('/account/keystore', { keystore: ks.keystore.toString('base64'), storePassword: PASS, fileName: 'upload.p12' }, token);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const body = await testApk(id, token);
    expect(body).to.include({ testKey: false, message: TEST_APK_MESSAGES.signedWithUploadKey('upload') });
    expect(body.certificateSha256).to.not.equal(before.certificateSha256);
    const file = await download(body.downloadUrl, 'upload-key.apk');
    expect(await signerSha256(apksigner, file)).to.equal(body.certificateSha256);
  });

  it('testApk_publicUrlKnown_qrCodeOfTheAbsoluteLink', async function () {
    requireCorpus(this);
    const publicServer = await startTestServer({ PUBLIC_URL: 'https://aabify.example' });
    try {
      const user = await buildCreditUser(publicServer, 3);
      const token = tokenFor(publicServer, user);
      const res = await uploadApk(publicServer, token, corpusApk('jx-small.apk'));
      const id = conversionIdOf(res);
      await waitForStatus(publicServer, token, id, ['completed', 'failed']);
      const body = await api(publicServer).post<TestApkResponse>(`/conversion/test-apk/${id}`, undefined, token);
      expect(body.status, JSON.stringify(body.body)).to.equal(200);
      expect(body.body.downloadUrl).to.match(/^https:\/\/aabify\.example\/api\/download\/file\//);
      expect(Buffer.from(body.body.qrCodePng ?? '', 'base64').subarray(1, 4).toString()).to.equal('PNG');
    } finally {
      await publicServer.stop();
    }
  });

  it('testApk_moreBuildsAtOnceThanTheCap_theRestAnswer429Busy', async function () {
    requireCorpus(this);
    const user = await buildCreditUser(server, 10);
    const token = tokenFor(server, user);
    const ids = await Promise.all(Array.from({ length: MAX_TEST_APK_BUILDS + 2 }, () => converted(token)));
    // The builds wait (before the engine runs) until the requests beyond the cap have their answers:
    // without that, a build could end before the last request arrives, and the cap would not be reached.
    const pool = server.ctx.workerPool;
    const runApks = pool.runApks.bind(pool);
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    pool.runApks = async (...args) => gate.then(() => runApks(...args));
    let answered = 0;
    let answers: ApiResponse<Err>[];
    try {
      const requests = ids.map((id) => api(server).post<Err>(`/conversion/test-apk/${id}`, undefined, token).finally(() => (answered += 1)));
      await waitFor(() => (answered >= ids.length - MAX_TEST_APK_BUILDS ? true : undefined), 30_000, 'the requests beyond the cap to be answered');
      openGate();
      answers = await Promise.all(requests);
    } finally {
      openGate();
      pool.runApks = runApks;
    }
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length, JSON.stringify(statuses)).to.equal(MAX_TEST_APK_BUILDS);
    const busy = answers.filter((a) => a.status === 429);
    expect(busy.length + statuses.filter((s) => s === 200).length).to.equal(ids.length);
    for (const b of busy) expect(b.body).to.deep.include({ code: 'TEST_APK_BUSY', message: TEST_APK_MESSAGES.busy });
  });

  it('testApk_linkOpensTheApkOnly_anotherAccount404_unfinished409', async function () {
    requireCorpus(this);
    const user = await buildCreditUser(server, 3);
    const token = tokenFor(server, user);
    const id = await converted(token);
    const body = await testApk(id, token);
    const linkToken = new URL(body.downloadUrl, server.url).pathname.split('/').pop()!;
    // The test APK's link is no link to the AAB.
    const aab = await api(server).get<Err>(`/conversion/temp-download/${id}?token=${linkToken}`);
    expect(aab.status).to.equal(404);
    expect(aab.body).to.deep.equal({ code: 'DOWNLOAD_TOKEN_INVALID', message: CONVERSION_MESSAGES.downloadNotFound });

    const stranger = await buildCreditUser(server, 3);
    const other = await api(server).post<Err>(`/conversion/test-apk/${id}`, undefined, tokenFor(server, stranger));
    expect(other.status).to.equal(404);
    expect(other.body.code).to.equal('CONVERSION_NOT_FOUND');

    await server.ctx.models.Conversion.update({ filesPurgedAt: new Date() }, { where: { id } });
    const purged = await api(server).post<Err>(`/conversion/test-apk/${id}`, undefined, token);
    expect(purged.status).to.equal(409);
  });
});

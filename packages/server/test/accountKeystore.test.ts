import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONVERTER_ERRORS, generateUploadKeystore, type GeneratedKeystore } from '@aabify/converter';
import { KEYSTORE_MESSAGES, type ApiConversion, type KeystoreMetadata } from '@aabify/shared';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildAdmin, buildCreditUser, buildUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, corpusApk, requireCorpus, uploadApk, waitForStatus } from './helpers/conversions.js';

type Err = { message: string; code: string; fields?: Record<string, string>; details?: unknown };
const PASS = 'senha-do-keystore';

describe('account keystore (/api/account/keystore) and signed conversions', function () {
  this.timeout(180000);
  let server: TestServer;
  let gen: GeneratedKeystore;

  before(async () => {
    gen = generateUploadKeystore({ alias: 'upload', dname: 'CN=Loja Teste, O=aabify, C=BR', password: PASS });
    server = await startTestServer();
  });
  after(async () => {
    await server?.stop();
  });

  const upload = { keystore: () => gen.keystore.toString('base64'), storePassword: PASS, fileName: 'upload.p12' };

  it('put_validKeystore_storesItEncryptedAndShowsOnlyMetadata', async () => {
    const user = await buildUser(server);
    const token = tokenFor(server, user);
    const res = await api(server).put<{ message: string; keystore: KeystoreMetadata }>(
      '/account/keystore',
      { keystore: upload.keystore(), storePassword: PASS, fileName: upload.fileName },
      token,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.message).to.equal(KEYSTORE_MESSAGES.saved);
    expect(res.body.keystore).to.include({
      alias: 'upload',
      format: 'PKCS12',
      keyAlgorithm: 'RSA',
      keySize: 2048,
      certificateSha256: gen.sha256,
      certificateSha1: gen.sha1,
      fileName: 'upload.p12',
    });
    expect(Object.keys(res.body.keystore).sort()).to.deep.equal(
      ['alias', 'certificateSha1', 'certificateSha256', 'createdAt', 'fileName', 'format', 'keyAlgorithm', 'keySize', 'notAfter', 'subject', 'updatedAt'],
    );
    const got = await api(server).get<{ keystore: KeystoreMetadata }>('/account/keystore', token);
    expect(got.status).to.equal(200);
    expect(got.body.keystore).to.deep.equal(res.body.keystore);

    const row = await server.ctx.models.UserKeystore.findByPk(user.id);
    const stored = JSON.stringify(row!.toJSON());
    expect(stored).to.not.contain(PASS);
    expect(stored).to.not.contain(upload.keystore().slice(0, 40));
    expect(row!.secret.alg).to.equal('aes-256-gcm');
  });

  it('put_wrongPasswordAliasOrFile_answers422WithTheEngineCode', async () => {
    const token = tokenFor(server, await buildUser(server));
    const cases: [object, string][] = [
      [{ keystore: upload.keystore(), storePassword: 'errada' }, 'KEYSTORE_PASSWORD'],
      [{ keystore: upload.keystore(), storePassword: PASS, alias: 'outra' }, 'KEYSTORE_ALIAS'],
      [{ keystore: Buffer.from('isto não é um keystore').toString('base64'), storePassword: PASS }, 'BAD_KEYSTORE'],
    ];
    for (const [body, code] of cases) {
      const res = await api(server).put<Err>('/account/keystore', body, token);
      expect(res.status, code).to.equal(422);
      expect(res.body.code).to.equal(code);
      expect(res.body.message).to.equal(CONVERTER_ERRORS[code as keyof typeof CONVERTER_ERRORS]);
    }
    expect((await api(server).get('/account/keystore', token)).body).to.deep.equal({ keystore: null });
  });

  it('put_missingFields_answers400WithFieldMessages', async () => {
    const token = tokenFor(server, await buildUser(server));
    const res = await api(server).put<Err>('/account/keystore', {}, token);
    expect(res.status).to.equal(400);
    expect(res.body.fields).to.include({ keystore: KEYSTORE_MESSAGES.fileRequired, storePassword: KEYSTORE_MESSAGES.passwordRequired });
    const bad = await api(server).put<Err>('/account/keystore', { keystore: '***', storePassword: 'x' }, token);
    expect(bad.body.fields).to.deep.equal({ keystore: KEYSTORE_MESSAGES.fileInvalid });
  });

  it('get_noKeystoreStored_answers200WithNullNotAnError', async () => {
    const token = tokenFor(server, await buildUser(server));
    const res = await api(server).get('/account/keystore', token);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ keystore: null });
  });

  it('delete_storedKeystore_removesItThenGetIsEmptyAndDeleteAnswers404', async () => {
    const token = tokenFor(server, await buildUser(server));
    await api(server).put('/account/keystore', { keystore: upload.keystore(), storePassword: PASS }, token);
    expect((await api(server).delete('/account/keystore', token)).status).to.equal(204);
    const again = await api(server).get('/account/keystore', token);
    expect([again.status, again.body]).to.deep.equal([200, { keystore: null }]);
    const deleteAgain = await api(server).delete<Err>('/account/keystore', token);
    expect([deleteAgain.status, deleteAgain.body]).to.deep.equal([404, { message: KEYSTORE_MESSAGES.notFound, code: 'KEYSTORE_NOT_FOUND' }]);
  });

  it('get_otherUsersKeystore_isInvisibleEvenToAnAdmin', async () => {
    const owner = await buildUser(server);
    await api(server).put('/account/keystore', { keystore: upload.keystore(), storePassword: PASS }, tokenFor(server, owner));
    const admin = tokenFor(server, await buildAdmin(server));
    expect((await api(server).get('/account/keystore', admin)).body).to.deep.equal({ keystore: null });
    const adminView = await api(server).get(`/admin/users/${owner.id}`, admin);
    expect(JSON.stringify(adminView.body)).to.not.contain(gen.sha256).and.not.contain('secret');
    expect((await api(server).get('/account/keystore')).status).to.equal(401);
  });

  it('convert_signWithoutKeystore_answers400OnOptionsSign', async function () {
    requireCorpus(this);
    const token = tokenFor(server, await buildCreditUser(server, 2));
    const res = await uploadApk(server, token, corpusApk('jx-small.apk'), { options: { sign: true } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal({
      message: KEYSTORE_MESSAGES.requiredForSigning,
      code: 'INVALID_OPTIONS',
      fields: { 'options.sign': KEYSTORE_MESSAGES.requiredForSigning },
    });
  });

  it('convert_signWithStoredKeystore_aabVerifiesWithJarsignerAndReportsSizes', async function () {
    requireCorpus(this);
    const token = tokenFor(server, await buildCreditUser(server, 2));
    await api(server).put('/account/keystore', { keystore: upload.keystore(), storePassword: PASS }, token);
    const res = await uploadApk(server, token, corpusApk('jx-small.apk'), { options: { sign: true } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done: ApiConversion = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, done.error ?? '').to.equal('completed');
    expect(done.report?.signature).to.include({ alias: 'upload', signatureAlgorithm: 'SHA256withRSA', certificateSha256: gen.sha256 });
    expect(done.report?.downloadSizes?.map((d) => d.deviceId)).to.deep.equal(['arm64-v8a_xxhdpi_pt-BR', 'armeabi-v7a_hdpi_en', 'x86_64_xhdpi_es']);

    const aab = Buffer.from(await (await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
    expect(aab.includes(Buffer.from('META-INF/UPLOAD.RSA'))).to.equal(true);
    const jarsigner = spawnSync('jarsigner', ['-help'], { encoding: 'utf8' });
    if (jarsigner.error) return; // the engine's own tests check jarsigner; here the file is enough
    const dir = await mkdtemp(join(tmpdir(), 'aabify-ks-'));
    try {
      await writeFile(join(dir, 'app.aab'), aab);
      await writeFile(join(dir, 'upload.p12'), gen.keystore);
      const v = spawnSync('jarsigner', ['-verify', '-strict', '-keystore', join(dir, 'upload.p12'), '-storepass', PASS, join(dir, 'app.aab')], { encoding: 'utf8' });
      expect(v.status, v.stdout + v.stderr).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

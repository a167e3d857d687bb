/**
 * AAB → APK conversions: an uploaded `.aab` (checked by content, sent alone) goes through the same
 * queue, credits and downloads as APK → AAB and comes out as a universal APK — or, when asked, as
 * the device set (`.apks`) of a device profile, holding what the engine builds for that profile —
 * signed with the account's upload key when asked, else with the test key (said in the log); a
 * file that is no bundle, an unknown profile or a device set asked of an APK is refused at the
 * upload with its code and costs nothing; a bundle the engine refuses fails with the credit given back.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { DEVICE_PROFILES, buildApks, convertApk, deviceSpecOfProfile, generateUploadKeystore } from '@aabify/converter';
import { APKS_WARNING_MESSAGES } from '../../converter/src/apks/report.js';
import { ZipReader } from '../../converter/src/zip/index.js';
import { CONVERSION_MESSAGES, PLAY_MESSAGES, TEST_APK_MESSAGES, formatBytes, type ConversionHistoryResponse, type UsageInfo } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { makeServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, requireTool, uploadBytes, waitForStatus } from './helpers/conversions.js';

type Err = { message: string; code: string; fields?: Record<string, string> };
const PASS = 'senha-do-keystore';
const AAB_NAME = 'Meu Aplicativo Ação.aab';

describe('AAB → APK conversions', function () {
  this.timeout(180_000);
  let server: TestServer;
  let work: string;
  let aab: Buffer;

  before(async () => {
    server = await startTestServer();
    work = await mkdtemp(join(tmpdir(), 'aabify-aab-to-apk-'));
    // A bundle made by the engine from a small APK built here (no corpus needed).
    await writeFile(join(work, 'tiny.apk'), buildZip(tinyApkEntries({ versionCode: 7, packageName: 'com.aabify.apkkind' })));
    await convertApk(join(work, 'tiny.apk'), join(work, 'tiny.aab'));
    aab = await readFile(join(work, 'tiny.aab'));
  });
  after(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function customer(credits = 3): Promise<string> {
    return tokenFor(server, await buildCreditUser(server, credits));
  }

  async function credits(token: string): Promise<number> {
    return (await api(server).get<UsageInfo>('/conversion/usage', token)).body.credits;
  }

  async function historyTotal(token: string): Promise<number> {
    return (await api(server).get<ConversionHistoryResponse>('/conversion/history', token)).body.total;
  }

  /** Downloads the conversion's output with the bearer, as the CLI does. */
  async function downloadOutput(token: string, id: string, name: string): Promise<{ file: string; res: Response }> {
    const res = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).to.equal(200);
    const file = join(work, name);
    await writeFile(file, Buffer.from(await res.arrayBuffer()));
    return { file, res };
  }

  async function verifiedSigner(apksigner: string, file: string): Promise<string> {
    const { stdout } = await promisify(execFile)(apksigner, ['verify', '--verbose', '--print-certs', file]);
    expect(stdout).to.match(/Verified using v2 scheme \(APK Signature Scheme v2\): true/);
    expect(stdout).to.match(/Verified using v3 scheme \(APK Signature Scheme v3\): true/);
    return (/certificate SHA-256 digest: ([0-9a-f]{64})/.exec(stdout)?.[1] ?? '').toUpperCase().replace(/(..)(?!$)/g, '$1:');
  }

  it('aabUpload_testKey_completesWithAnApkThatApksignerAccepts_kindShownEverywhere', async function () {
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const token = await customer(3);
    const res = await uploadBytes(server, token, aab, { fileName: AAB_NAME });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done).to.include({ kind: 'aab-to-apks', filename: 'Meu Aplicativo Ação.apk', checklist: null, report: null });
    expect(done.apks?.packageName).to.equal('com.aabify.apkkind');
    expect(done.apks?.signature.testKey).to.equal(true);
    expect(done.aabFile).to.deep.equal({ filename: 'Meu Aplicativo Ação.apk', size: done.convertedSize });
    expect(await credits(token)).to.equal(2);

    const { file, res: dl } = await downloadOutput(token, id, 'out.apk');
    expect(dl.headers.get('content-type')).to.equal('application/vnd.android.package-archive');
    expect(dl.headers.get('content-disposition')).to.include(`filename*=UTF-8''${encodeURIComponent('Meu Aplicativo Ação.apk')}`);
    expect(await verifiedSigner(apksigner, file)).to.have.length(95);
    // The APK holds the app's code and manifest, as an installable APK does.
    const reader = await ZipReader.open(file);
    try {
      expect(reader.entries.map((e) => e.name)).to.include.members(['AndroidManifest.xml', 'classes.dex', 'resources.arsc']);
    } finally {
      await reader.close();
    }

    // The log says plainly which key signed it.
    const logs = await api(server).get<{ logs: { level: string; message: string }[] }>(`/conversion/logs/${id}`, token);
    expect(logs.body.logs.filter((l) => l.message === APKS_WARNING_MESSAGES.TEST_KEY_SIGNED && l.level === 'warning')).to.have.length(1);
    // Sizes read as sizes, not byte counts.
    expect(logs.body.logs.map((l) => l.message)).to.include(`Conversão concluída: Meu Aplicativo Ação.apk (${formatBytes(done.convertedSize)})`);
    expect(logs.body.logs.map((l) => l.message).join('\n')).to.not.match(/\d bytes/);

    // The history lists it with its kind; the test-APK route and Play publishing are for AABs.
    const history = await api(server).get<ConversionHistoryResponse>('/conversion/history', token);
    expect(history.body.conversions.find((c) => c.id === id)?.kind).to.equal('aab-to-apks');
    const link = await api(server).post<{ filename: string }>(`/conversion/generate-download-link/${id}`, undefined, token);
    expect(link.body.filename).to.equal('Meu Aplicativo Ação.apk');
    const testApk = await api(server).post<Err>(`/conversion/test-apk/${id}`, undefined, token);
    expect(testApk.status).to.equal(409);
    expect(testApk.body).to.include({ code: 'TEST_APK_NOT_AVAILABLE', message: TEST_APK_MESSAGES.alreadyAnApk });
    const key = await api(server).put('/account/play-credentials', { key: makeServiceAccount('apk').json }, token);
    expect(key.status, JSON.stringify(key.body)).to.equal(200);
    const publish = await api(server).post<Err>('/publications', { conversionId: id, track: 'internal' }, token);
    expect(publish.status, JSON.stringify(publish.body)).to.equal(409);
    expect(publish.body).to.include({ code: 'CONVERSION_NOT_PUBLISHABLE', message: PLAY_MESSAGES.notABundle });
  });

  it('aabUpload_signWithUploadKey_apkSignedWithTheAccountsKey', async function () {
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const token = await customer(3);
    const ks = generateUploadKeystore({ alias: 'upload', dname: 'CN=Loja Teste, O=aabify, C=BR', password: PASS });
    const put = await api(server).put('/account/keystore', { keystore: ks.keystore.toString('base64'), storePassword: PASS, fileName: 'upload.p12' }, token);
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const res = await uploadBytes(server, token, aab, { fileName: 'assinado.aab', options: { sign: true } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done.apks?.signature).to.include({ testKey: false, alias: 'upload' });
    const { file } = await downloadOutput(token, id, 'signed.apk');
    expect(await verifiedSigner(apksigner, file)).to.equal(done.apks?.signature.certificateSha256);
  });

  /** Each entry of a device set: the table of contents' presence, and every APK's entry names. */
  async function setContents(file: string): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const reader = await ZipReader.open(file);
    try {
      for (const e of reader.entries) {
        if (!e.name.endsWith('.apk')) {
          out.set(e.name, []);
          continue;
        }
        const inner = join(work, `inner-${out.size}.apk`);
        await writeFile(inner, await reader.read(e));
        const apk = await ZipReader.open(inner);
        try {
          out.set(e.name, apk.entries.map((x) => x.name).sort());
        } finally {
          await apk.close();
        }
      }
    } finally {
      await reader.close();
    }
    return out;
  }

  async function extracted(file: string, name: string, to: string): Promise<string> {
    const reader = await ZipReader.open(file);
    try {
      const entry = reader.entries.find((e) => e.name === name);
      expect(entry, name).to.not.equal(undefined);
      await writeFile(to, await reader.read(entry!));
      return to;
    } finally {
      await reader.close();
    }
  }

  it('aabUpload_deviceSet_apksHoldsTheEnginesSplitsForTheProfile_baseVerifies_anotherUserGets404', async function () {
    const apksigner = requireTool(this, 'apksigner', 'Debian: apt-get install -y apksigner');
    const profile = DEVICE_PROFILES.find((p) => p.abis[0] === 'arm64-v8a')!;
    const token = await customer(3);
    const res = await uploadBytes(server, token, aab, { fileName: AAB_NAME, options: { output: 'device-set', device: profile.id } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const id = conversionIdOf(res);
    const done = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(done).to.include({ kind: 'aab-to-apks', filename: 'Meu Aplicativo Ação.apks' });
    expect(done.options).to.deep.equal({ output: 'device-set', device: profile.id });
    expect(done.apks?.device).to.deep.equal({ id: profile.id, label: profile.label });
    expect(await credits(token)).to.equal(2);

    const { file, res: dl } = await downloadOutput(token, id, 'out.apks');
    expect(dl.headers.get('content-type')).to.equal('application/octet-stream');
    expect(dl.headers.get('content-disposition')).to.include(`filename*=UTF-8''${encodeURIComponent('Meu Aplicativo Ação.apks')}`);
    // What the engine builds for the same profile's spec, here in the test process.
    const own = join(work, 'own.apks');
    await buildApks(join(work, 'tiny.aab'), own, { mode: 'device', deviceSpec: deviceSpecOfProfile(profile), overwrite: true });
    const served = await setContents(file);
    expect([...served.keys()]).to.include.members(['toc.pb', 'splits/base-master.apk', 'splits/base-arm64_v8a.apk']);
    expect(Object.fromEntries(served)).to.deep.equal(Object.fromEntries(await setContents(own)));
    expect(done.apks?.apks.map((a) => a.path).sort()).to.deep.equal([...served.keys()].filter((n) => n !== 'toc.pb').sort());
    expect(await verifiedSigner(apksigner, await extracted(file, 'splits/base-master.apk', join(work, 'base-master.apk')))).to.have.length(95);

    // The log names the profile and the APKs that went in.
    const logs = await api(server).get<{ logs: { level: string; message: string }[] }>(`/conversion/logs/${id}`, token);
    const messages = logs.body.logs.map((l) => l.message);
    expect(messages).to.include(CONVERSION_MESSAGES.deviceSetStarted(profile.label));
    expect(messages).to.include(CONVERSION_MESSAGES.deviceSetBuilt(profile.label, done.apks!.apks.map((a) => a.path!)));
    expect(messages).to.include(`Conversão concluída: Meu Aplicativo Ação.apks (${formatBytes(done.convertedSize)})`);

    // Another customer reaches none of it: a 404 like a missing conversion.
    const stranger = await customer(1);
    const theirs = await fetch(`${server.url}/api/conversion/download/${id}`, { headers: { authorization: `Bearer ${stranger}` } });
    expect(theirs.status).to.equal(404);
    expect((await api(server).get(`/conversion/status/${id}`, stranger)).status).to.equal(404);
    expect((await api(server).post(`/conversion/generate-download-link/${id}`, undefined, stranger)).status).to.equal(404);
  });

  it('aabUpload_deviceSetForADeviceTheAppDoesNotRun_failsDeviceIncompatible_creditReturned', async () => {
    // The app's only native library is for arm64-v8a.
    const profile = DEVICE_PROFILES.find((p) => !p.abis.includes('arm64-v8a'))!;
    const token = await customer(2);
    const res = await uploadBytes(server, token, aab, { fileName: 'app.aab', options: { output: 'device-set', device: profile.id } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const failed = await waitForStatus(server, token, conversionIdOf(res), ['completed', 'failed']);
    expect(failed.status).to.equal('failed');
    expect(failed.errorCode).to.equal('DEVICE_INCOMPATIBLE');
    expect(await credits(token)).to.equal(2);
  });

  it('upload_unknownProfileOrDeviceSetOfAnApk_refusedWithTheirCodes_nothingChargedNothingKept', async () => {
    const token = await customer(2);
    const ids = DEVICE_PROFILES.map((p) => p.id);
    for (const options of [{ output: 'device-set', device: 'galaxy-s99' }, { output: 'device-set' }]) {
      const unknown = await uploadBytes(server, token, aab, { fileName: 'app.aab', options });
      expect(unknown.status, JSON.stringify(options)).to.equal(400);
      expect(unknown.body).to.deep.include({ code: 'UNKNOWN_DEVICE_PROFILE', message: CONVERSION_MESSAGES.unknownDeviceProfile(ids) });
    }
    const deviceAlone = await uploadBytes(server, token, aab, { fileName: 'app.aab', options: { device: ids[0] } });
    expect(deviceAlone.status).to.equal(400);
    expect(deviceAlone.body).to.include({ code: 'INVALID_OPTIONS', message: CONVERSION_MESSAGES.deviceNeedsDeviceSet });
    const onApk = await uploadBytes(server, token, buildZip(tinyApkEntries()), { fileName: 'app.apk', options: { output: 'device-set', device: ids[0] } });
    expect(onApk.status).to.equal(400);
    expect(onApk.body).to.include({ code: 'DEVICE_SET_NOT_FOR_APK', message: CONVERSION_MESSAGES.deviceSetNotForApk });
    expect(await credits(token)).to.equal(2);
    expect(await historyTotal(token)).to.equal(0);
    // The converter page's list: every profile the upload takes, with the estimate's names.
    const listed = await api(server).get<{ profiles: { id: string; label: string }[] }>('/conversion/device-profiles', token);
    expect(listed.body.profiles).to.deep.equal(DEVICE_PROFILES.map(({ id, label }) => ({ id, label })));
  });

  it('aabUpload_notABundle_refusedWithItsCode_nothingChargedNothingKept', async () => {
    const token = await customer(2);
    // A zip, but an APK's content under an .aab name.
    const apkInside = await uploadBytes(server, token, buildZip(tinyApkEntries()), { fileName: 'falso.aab' });
    expect(apkInside.status).to.equal(400);
    expect(apkInside.body).to.include({ code: 'NOT_AN_AAB', message: CONVERSION_MESSAGES.notAnAab });
    const notZip = await uploadBytes(server, token, Buffer.from('isto não é um zip, nem um bundle'), { fileName: 'texto.aab' });
    expect(notZip.status).to.equal(400);
    expect(notZip.body).to.include({ code: 'NOT_A_ZIP' });
    const withOthers = new FormData();
    withOthers.append('apk', new Blob([new Uint8Array(aab)]), 'app.aab');
    withOthers.append('apk', new Blob([new Uint8Array(buildZip(tinyApkEntries()))]), 'outro.apk');
    const alone = await api(server).request<Err>('POST', '/conversion/convert', undefined, { token, raw: withOthers });
    expect(alone.status).to.equal(400);
    expect(alone.body).to.include({ code: 'AAB_NOT_ALONE', message: CONVERSION_MESSAGES.aabNotAlone });
    const options = await uploadBytes(server, token, aab, { fileName: 'app.aab', options: { splits: { abi: false } } });
    expect(options.status).to.equal(400);
    expect(options.body).to.include({ code: 'INVALID_OPTIONS', message: CONVERSION_MESSAGES.optionNotForAab('splits') });
    expect(await credits(token)).to.equal(2);
    expect(await historyTotal(token)).to.equal(0);
  });

  it('aabUpload_engineRefusesTheBundle_failsWithItsCode_creditReturnedExactly', async () => {
    const token = await customer(2);
    // The base manifest is there (the upload's check passes) but not the bundle's configuration.
    const reader = await ZipReader.open(join(work, 'tiny.aab'));
    const entries: { name: string; data: Buffer }[] = [];
    try {
      for (const e of reader.entries) if (e.name !== 'BundleConfig.pb') entries.push({ name: e.name, data: await reader.read(e) });
    } finally {
      await reader.close();
    }
    const res = await uploadBytes(server, token, buildZip(entries), { fileName: 'sem-config.aab' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(await credits(token)).to.equal(1);
    const id = conversionIdOf(res);
    const failed = await waitForStatus(server, token, id, ['completed', 'failed']);
    expect(failed.status).to.equal('failed');
    expect(failed.errorCode).to.equal('NOT_AN_AAB');
    expect(failed.kind).to.equal('aab-to-apks');
    expect(await credits(token)).to.equal(2);
    const row = await server.ctx.models.Conversion.findByPk(id);
    expect(row?.creditState).to.equal('returned');
  });
});

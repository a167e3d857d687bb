/**
 * The versionCode against Google Play in the service: with the account's Play key, the runner
 * reads the app's versionCodes on Play before converting; the checklist says when the bundle's is
 * not greater (a blocker), `versionCode: "play"` converts with the next one, and Play failing is
 * a warning in the checklist, never a failed conversion. Google is the stand-in of
 * converter/test/helpers/googlePlayStandIn.ts (real HTTP on loopback, the documented protocol).
 */
import { expect } from 'chai';
import { CONVERSION_MESSAGES, PLAY_ERROR_MESSAGES, PLAY_MESSAGES, type ApiConversion, type PlayCheck } from '@aabify/shared';
import { buildZip, tinyApkEntries } from '../../converter/test/helpers/zipBuilder.js';
import { GooglePlayStandIn, STAND_IN_ERRORS, makeServiceAccount, type TestServiceAccount } from '../../converter/test/helpers/googlePlayStandIn.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';

type Err = { message: string; code: string; fields?: Record<string, string> };
const PKG = 'com.aabify.versoes';

describe('versionCode against Google Play (conversions)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let google: GooglePlayStandIn;
  let account: TestServiceAccount;
  const apk = (versionCode: number, packageName = PKG) => buildZip(tinyApkEntries({ versionCode, packageName }));

  before(async () => {
    google = await new GooglePlayStandIn().start();
    account = makeServiceAccount('versoes');
    server = await startTestServer(google.env);
  });
  after(async () => {
    await server?.stop();
    await google?.stop();
  });
  beforeEach(() => {
    google.reset();
    google.addServiceAccount(account);
  });

  async function customerWithKey(): Promise<string> {
    const token = tokenFor(server, await buildCreditUser(server, 10));
    const res = await api(server).put('/account/play-credentials', { key: account.json }, token);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return token;
  }

  async function converted(token: string, bytes: Buffer, options?: Record<string, unknown>): Promise<ApiConversion> {
    const res = await uploadBytes(server, token, bytes, { fileName: 'versoes.apk', ...(options ? { options } : {}) });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const done = await waitForStatus(server, token, conversionIdOf(res), ['completed', 'failed']);
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    return done;
  }

  const versionRow = (c: ApiConversion): PlayCheck | undefined => c.checklist?.find((r) => r.code === 'versionCode');

  it('playHasTheSameVersionCode_checklistBlocker_editLeftClosed', async () => {
    google.addApp(PKG, { usedVersionCodes: [41, 42] });
    const token = await customerWithKey();
    const done = await converted(token, apk(42));
    expect(done.report?.play).to.deep.equal({ reached: true, highestVersionCode: 42 });
    const row = versionRow(done);
    expect(row?.status).to.equal('blocker');
    expect(row?.title).to.include('versionCode 42 não é maior que o maior já enviado ao Google Play (42)');
    expect(row?.action).to.include('uma acima da do Google Play');
    expect(done.checklist?.[0]?.status).to.equal('blocker');
    // Reading the versionCodes changes nothing on Play: the edit opened was deleted.
    expect(google.openEdits).to.deep.equal([]);
  });

  it('versionCodePlay_bundleGetsOneAbovePlaysHighest_apksListedToo', async () => {
    google.addApp(PKG, { usedVersionCodes: [41, 42], apksVersionCodes: [50] });
    const token = await customerWithKey();
    const done = await converted(token, apk(42), { versionCode: 'play' });
    expect(done.report?.versionCode).to.equal(51);
    expect(versionRow(done)).to.include({ status: 'ok' });
    expect(versionRow(done)?.title).to.include('versionCode 51 é maior que o maior já enviado ao Google Play (50)');
    const logs = await api(server).get<{ logs: { message: string }[] }>(`/conversion/logs/${done.id}`, token);
    expect(logs.body.logs.map((l) => l.message)).to.include(CONVERSION_MESSAGES.versionCodeFromPlay({ reached: true, highestVersionCode: 50 }, 51));
  });

  it('versionCodeGreaterThanPlays_ok', async () => {
    google.addApp(PKG, { usedVersionCodes: [3] });
    const token = await customerWithKey();
    const done = await converted(token, apk(4));
    expect(versionRow(done)).to.include({ status: 'ok', title: 'versionCode 4 é maior que o maior já enviado ao Google Play (3)' });
  });

  it('playUnavailable_conversionCompletes_checklistWarnsAndPlayOptionKeepsTheApksVersionCode', async () => {
    google.addApp(PKG, { usedVersionCodes: [42] });
    const token = await customerWithKey();
    google.failNext('edit', STAND_IN_ERRORS.unavailable());
    const done = await converted(token, apk(42), { versionCode: 'play' });
    expect(done.report?.play).to.deep.equal({ reached: false, code: 'PLAY_UNAVAILABLE', message: PLAY_ERROR_MESSAGES.PLAY_UNAVAILABLE });
    expect(done.report?.versionCode).to.equal(42);
    const row = versionRow(done);
    expect(row?.status).to.equal('warning');
    expect(row?.title).to.include('não foi possível compará-lo com o Google Play');
  });

  it('keyWithoutAccessToTheApp_convertsAsWithoutAKey', async () => {
    google.addApp(PKG, { usedVersionCodes: [42], grantedTo: [] });
    const token = await customerWithKey();
    const done = await converted(token, apk(42));
    expect(done.report?.play).to.equal(undefined);
    expect(versionRow(done)).to.include({ status: 'ok', title: 'versionCode 42' });
  });

  it('versionCodePlay_withoutAPlayKey_refusedAtTheUpload', async () => {
    const token = tokenFor(server, await buildCreditUser(server, 2));
    const res = await uploadBytes(server, token, apk(42), { fileName: 'versoes.apk', options: { versionCode: 'play' } });
    expect(res.status).to.equal(400);
    const body = res.body as unknown as Err;
    expect(body).to.include({ code: 'INVALID_OPTIONS', message: PLAY_MESSAGES.requiredForVersionCode });
    expect(body.fields?.['options.versionCode']).to.equal(PLAY_MESSAGES.requiredForVersionCode);
    const bad = await uploadBytes(server, token, apk(42), { fileName: 'versoes.apk', options: { versionCode: 'google' } });
    expect(bad.status).to.equal(400);
    expect((bad.body as unknown as Err).code).to.equal('INVALID_OPTIONS');
  });
});
